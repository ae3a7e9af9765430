/**
 * The app shell: the page (`/index.html`), the scripts and styles it loads and public/'s top-level files
 * (the manifest, the icon), kept in Cache Storage so that the app loads offline after its first visit.
 *
 * The build (vite.config.ts) defines `TESSERA_SHELL`: the files and the cache that holds them, named by a
 * hash of their content, so each build has a cache of its own. Install copies them into it (the required
 * ones or the install fails, to be retried; an optional one that fails to load is left out), activation
 * drops other builds' shell caches, and the fetch listener answers the shell's files, and navigations to
 * the page, from that cache first, the network second. In `vite` dev there is no `TESSERA_SHELL`: nothing
 * is cached and every request goes to the dev server.
 */
import { cacheFirst, dropOtherBuildsCaches } from './build-caches.ts';

export interface ShellFiles {
  /** The Cache Storage cache that holds this build's shell (its name changes with the files). */
  cache: string;
  /** URL paths the app cannot start without: `/index.html` and the files it links. */
  required: string[];
  /** URL paths kept too when they load: other emitted chunks, the manifest, icons. */
  optional: string[];
}
declare const TESSERA_SHELL: ShellFiles;

/** Prefix of the shell caches; other builds' are dropped at activation. */
export const SHELL_CACHE_PREFIX = 'tessera-shell-';

const PAGE = '/index.html';
/** Paths whose navigation the page answers (the static server serves index.html at both). */
const PAGE_PATHS = new Set(['/', PAGE]);

const shell = typeof TESSERA_SHELL === 'undefined' ? undefined : TESSERA_SHELL;
const shellPaths = new Set(shell ? [...shell.required, ...shell.optional] : []);

/** Install time: puts this build's shell into its cache. */
export async function precacheShell(): Promise<void> {
  if (!shell) return;
  const cache = await caches.open(shell.cache);
  await Promise.all([cache.addAll(shell.required), ...shell.optional.map((path) => cache.add(path).catch(() => {}))]);
}

/** Activation: drops the shell caches of other builds. */
export async function dropOldShellCaches(): Promise<void> {
  if (shell) await dropOtherBuildsCaches(SHELL_CACHE_PREFIX, shell.cache);
}

/**
 * The answer to a same-origin `request` (its `url`) when it is for the shell: a GET of a shell file, or a
 * navigation to the page; undefined for anything else.
 */
export function shellResponse(request: Request, url: URL): Promise<Response> | undefined {
  if (!shell || request.method !== 'GET') return undefined;
  const path = request.mode === 'navigate' && PAGE_PATHS.has(url.pathname) ? PAGE : url.pathname;
  if (!shellPaths.has(path)) return undefined;
  return cacheFirst(shell.cache, path, request);
}
