import { signal, type Signal } from '@preact/signals';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { createApi, type TesseraApi } from '../client/api.ts';
import { createLibraryState, type LibraryState } from './library-state.ts';

/** What every view shares: the API, the library list's state, the status line and the theme. */
export interface Notice {
  message: string;
  /** A button beside the message (Undo). */
  action?: { label: string; run: () => void };
  error?: boolean;
}

export type Theme = 'system' | 'light' | 'dark';
const THEME_KEY = 'tessera:theme';

export interface Session {
  api: TesseraApi;
  library: LibraryState;
  /** The status line's message (with its Undo), if any. */
  notice: Signal<Notice | undefined>;
  notify(next: Notice, ms?: number): void;
  theme: Signal<Theme>;
  setTheme(next: Theme): void;
  /** Asset id -> how many change events touched it (an open view reloads when its count moves). */
  assetVersions: Signal<ReadonlyMap<string, number>>;
  /** Ids deleted since the page opened (an open view of one says so). */
  deleted: Signal<ReadonlySet<string>>;
  /** Text chosen in an asset's code for "Ask about this" (the Ask view takes it as a pasted snippet). */
  askSnippet: Signal<string | undefined>;
  /** Ids chosen in the library list (to ask about them together). */
  selected: Signal<ReadonlySet<string>>;
  /** Called with the ids of each change event from the streams. */
  assetsChanged(changed: readonly string[], gone: readonly string[]): void;
}

export function createSession(base: string): Session {
  const api: TesseraApi = createApi({ base });
  const library: LibraryState = createLibraryState(api);
  const notice = signal<Notice | undefined>(undefined);
  const theme = signal<Theme>(readTheme());
  const assetVersions = signal<ReadonlyMap<string, number>>(new Map());
  const deleted = signal<ReadonlySet<string>>(new Set());
  let noticeTimer: ReturnType<typeof setTimeout> | undefined;

  function notify(next: Notice, ms = next.action ? 10_000 : 4_000): void {
    clearTimeout(noticeTimer);
    notice.value = next;
    noticeTimer = setTimeout(() => {
      if (notice.value === next) notice.value = undefined;
    }, ms);
  }

  function setTheme(next: Theme): void {
    theme.value = next;
    localStorage.setItem(THEME_KEY, next);
    applyTheme(next);
  }
  applyTheme(theme.value);

  function assetsChanged(changed: readonly string[], gone: readonly string[]): void {
    const versions = new Map(assetVersions.value);
    for (const id of [...changed, ...gone]) versions.set(id, (versions.get(id) ?? 0) + 1);
    assetVersions.value = versions;
    if (gone.length) deleted.value = new Set([...deleted.value, ...gone]);
    const revived = changed.filter((id) => deleted.value.has(id));
    if (revived.length) deleted.value = new Set([...deleted.value].filter((id) => !revived.includes(id)));
    void library.changed([...changed, ...gone]);
  }

  const askSnippet = signal<string | undefined>(undefined);
  const selected = signal<ReadonlySet<string>>(new Set());
  return { api, library, notice, notify, theme, setTheme, assetVersions, deleted, assetsChanged, askSnippet, selected };
}

function readTheme(): Theme {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession: no SessionContext above this component');
  return session;
}
