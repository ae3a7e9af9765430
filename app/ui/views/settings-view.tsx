import { useSession, type Theme } from '../session.ts';

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Settings: the theme (light, dark, or the system's `prefers-color-scheme`). */
export function SettingsView() {
  const session = useSession();
  return (
    <section class="settings" aria-labelledby="settings-title">
      <h2 id="settings-title" tabIndex={-1}>
        Settings
      </h2>
      <fieldset>
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label class="radio" key={t.value}>
            <input type="radio" name="theme" value={t.value} checked={session.theme.value === t.value} onChange={() => session.setTheme(t.value)} />
            {t.label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
