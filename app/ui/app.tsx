import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { watchAssets } from '../client/changes.ts';
import { copyAsset, exportAsset } from './actions.ts';
import { installCapture, isEditable } from './capture.ts';
import type { RowsUnderWay } from './library-state.ts';
import { CommandPalette, type Command } from './components/command-palette.tsx';
import { hrefOf, navigate, route, type Route } from './router.ts';
import { createSession, SessionContext, useSession, type Session } from './session.ts';
import { AskView } from './views/ask-view.tsx';
import { EditAssetView, NewAssetView } from './views/asset-form.tsx';
import { AssetView } from './views/asset-view.tsx';
import { LibraryView } from './views/library-view.tsx';
import { SettingsView } from './views/settings-view.tsx';

/** Mounts the app into `root`: the session (API, list state), the live streams, capture and the views. */
/** `rows`: `GET /library` already sent by the page (it need not wait for this chunk to load). */
export function mountApp(root: HTMLElement, base: string, rows?: RowsUnderWay): Session {
  const session = createSession(base);
  void session.library.refresh(rows);
  watchAssets(({ changed, deleted, snapshot }) => {
    if (snapshot) void session.library.resync();
    else session.assetsChanged(changed, deleted);
  }, { base });
  installCapture(session, document);
  render(
    <SessionContext.Provider value={session}>
      <App />
    </SessionContext.Provider>,
    root,
  );
  return session;
}

function App() {
  const session = useSession();
  const [palette, setPalette] = useState(false);
  const current = route.value;
  const commands = commandsFor(session, current);
  // The keys act on the view as last rendered: a key pressed between a render and its effects (a view just
  // opened, on a busy machine) must not run the previous view's command.
  const latestCommands = useRef(commands);
  latestCommands.current = commands;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPalette((open) => !open);
        return;
      }
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || document.querySelector('dialog[open]')) return;
      if (isEditable(event.target)) {
        // Escape leaves a field (a search box with text clears itself first); the next Escape closes the view.
        const field = event.target as HTMLInputElement;
        if (event.key === 'Escape' && !(field.type === 'search' && field.value)) {
          event.preventDefault();
          field.blur();
          document.querySelector<HTMLElement>('.detail h2')?.focus({ preventScroll: true });
        }
        return;
      }
      const command = latestCommands.current.find((c) => c.keys === event.key);
      if (command) {
        event.preventDefault();
        command.run();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The open view's heading gets focus when the view changes (unless the view focused a field itself), so
  // keyboard and screen-reader users land in it.
  useEffect(() => {
    if (current.view === 'library') return;
    requestAnimationFrame(() => {
      const detail = document.querySelector<HTMLElement>('.detail');
      if (detail?.contains(document.activeElement) && document.activeElement !== detail) return;
      detail?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
    });
  }, [current.view, 'id' in current ? current.id : '']);

  const section = current.view === 'ask' ? 'ask' : current.view === 'settings' ? 'settings' : 'library';
  return (
    <div class="app" data-view={current.view}>
      <a class="skip" href="#/" onClick={(e) => (e.preventDefault(), document.getElementById('search')?.focus())}>
        Skip to search
      </a>
      <nav class="rail" aria-label="Main">
        <a class="brand" href={hrefOf({ view: 'library' })} aria-label="Tessera home">
          <Logo />
          <span>Tessera</span>
        </a>
        <button type="button" class="new" onClick={() => navigate({ view: 'new' })} aria-keyshortcuts="n">
          New <kbd aria-hidden="true">n</kbd>
        </button>
        <ul>
          <li>
            <a href={hrefOf({ view: 'library' })} aria-current={section === 'library' ? 'page' : undefined}>
              Library
            </a>
          </li>
          <li>
            <a href={hrefOf({ view: 'ask' })} aria-current={section === 'ask' ? 'page' : undefined}>
              Ask
            </a>
          </li>
          <li>
            <a href={hrefOf({ view: 'settings' })} aria-current={section === 'settings' ? 'page' : undefined}>
              Settings
            </a>
          </li>
        </ul>
        <button type="button" class="palette-open secondary" onClick={() => setPalette(true)} aria-keyshortcuts="Control+K Meta+K">
          Commands <kbd aria-hidden="true">Ctrl K</kbd>
        </button>
      </nav>
      {section === 'library' ? (
        <main class="workspace">
          <LibraryView />
          <div class="detail" aria-live="off">
            <Detail route={current} />
          </div>
        </main>
      ) : (
        <main class="workspace single">
          <div class="detail">{section === 'ask' ? <AskView assets={current.view === 'ask' ? current.assets : undefined} key={current.view === 'ask' ? (current.assets ?? []).join(',') : ''} /> : <SettingsView />}</div>
        </main>
      )}
      <Status />
      {palette && <CommandPalette commands={commands} onClose={() => setPalette(false)} />}
    </div>
  );
}

function Detail({ route: r }: { route: Route }) {
  switch (r.view) {
    case 'asset':
      return <AssetView id={r.id} key={r.id} />;
    case 'edit':
      return <EditAssetView id={r.id} key={r.id} />;
    case 'new':
      return <NewAssetView />;
    default:
      return (
        <div class="placeholder">
          <h2 tabIndex={-1}>Your snippets, in your browser</h2>
          <p>Pick a snippet, or paste code anywhere on this page to save it. Everything stays on this device and works offline.</p>
          <ul class="keys">
            <li><kbd>/</kbd> search</li>
            <li><kbd>↑</kbd><kbd>↓</kbd> move, <kbd>Enter</kbd> open</li>
            <li><kbd>n</kbd> new, <kbd>e</kbd> edit</li>
            <li><kbd>Ctrl</kbd>+<kbd>K</kbd> every command</li>
          </ul>
        </div>
      );
  }
}

/** The status line: what just happened, with Undo where it can be undone (role `status`). */
function Status() {
  const { notice } = useSession();
  const n = notice.value;
  return (
    <div class={n?.error ? 'status error' : 'status'} role="status" hidden={!n}>
      {n && <span>{n.message}</span>}
      {n?.action && (
        <button type="button" onClick={() => ((notice.value = undefined), n.action!.run())}>
          {n.action.label}
        </button>
      )}
    </div>
  );
}

/** Every action of the current view: the single-key shortcuts and the palette read the same list. */
function commandsFor(session: Session, r: Route): Command[] {
  const openId = r.view === 'asset' || r.view === 'edit' ? r.id : undefined;
  const withAsset = (run: (s: Session, id: string) => Promise<void>) => () => void (openId && run(session, openId));
  const commands: Command[] = [
    { id: 'search', label: 'Search the library', keys: '/', run: () => (r.view === 'ask' || r.view === 'settings' ? navigate({ view: 'library' }) : undefined, requestAnimationFrame(() => document.getElementById('search')?.focus())) },
    { id: 'new', label: 'New snippet', keys: 'n', run: () => navigate({ view: 'new' }) },
    { id: 'library', label: 'Go to Library', run: () => navigate({ view: 'library' }) },
    { id: 'ask', label: 'Go to Ask', run: () => navigate({ view: 'ask' }) },
    { id: 'settings', label: 'Go to Settings', run: () => navigate({ view: 'settings' }) },
    { id: 'theme-light', label: 'Theme: light', run: () => session.setTheme('light') },
    { id: 'theme-dark', label: 'Theme: dark', run: () => session.setTheme('dark') },
    { id: 'theme-system', label: 'Theme: follow the system', run: () => session.setTheme('system') },
  ];
  if (r.view !== 'library') commands.push({ id: 'close', label: 'Close', keys: 'Escape', run: () => navigate(r.view === 'edit' ? { view: 'asset', id: r.id } : { view: 'library' }) });
  if (openId && r.view === 'asset') {
    commands.push(
      { id: 'edit', label: 'Edit asset', keys: 'e', run: () => navigate({ view: 'edit', id: openId }) },
      { id: 'copy', label: 'Copy content', keys: 'c', run: withAsset(async (s, id) => copyAsset(s, await s.api.getAsset(id))) },
      { id: 'export-md', label: 'Export as Markdown', run: withAsset(async (s, id) => exportAsset(s, await s.api.getAsset(id), 'MD')) },
      { id: 'export-html', label: 'Export as HTML', run: withAsset(async (s, id) => exportAsset(s, await s.api.getAsset(id), 'HTML')) },
      { id: 'ask-about', label: 'Ask about this asset', run: () => navigate({ view: 'ask', assets: [openId] }) },
      { id: 'delete', label: 'Delete asset…', keys: 'Delete', run: () => document.querySelector<HTMLButtonElement>('.asset .danger-outline')?.click() },
    );
  }
  return commands;
}

function Logo() {
  return (
    <svg viewBox="0 0 32 32" width="24" height="24" aria-hidden="true">
      <rect x="3" y="3" width="12" height="12" rx="3" fill="var(--accent)" />
      <rect x="17" y="3" width="12" height="12" rx="3" fill="var(--accent-2)" />
      <rect x="3" y="17" width="12" height="12" rx="3" fill="var(--accent-2)" />
      <rect x="17" y="17" width="12" height="12" rx="3" fill="var(--accent)" opacity="0.55" />
    </svg>
  );
}
