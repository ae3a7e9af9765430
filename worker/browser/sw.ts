/**
 * Tessera's own service worker: bundled by vite.config.ts into one self-contained classic script at
 * `/sw.js` (a classic worker starts faster than a module one: see scripts/worker-bundle.ts), registered by
 * `app/client` with `{scope: '/'}`.
 *
 * - Tessera's listeners (./install.ts): the API under the base and aliases that `register({base,
 *   aliases})` put on this script's URL (`/sw.js?base=/tessera&alias=/api`, ../core/base-path.ts; `/api`
 *   when it names none), the lazy files served beside this script, claims, the RPC.
 * - `install` -> `skipWaiting()`, `activate` -> `clients.claim()`: a new worker takes over at once.
 *   Install also puts the app shell (./app-shell.ts: the page, its scripts, the manifest) into Cache
 *   Storage, so it loads offline; activation drops other builds' copies.
 * - A GET of a shell file or a navigation to the page is answered from the shell's cache, else the
 *   network. Everything else passes through to the network.
 */
import { apiUrlPath, basePathsOf, DEFAULT_BASE, type BasePaths } from '../core/base-path.ts';
import { dropOldShellCaches, precacheShell, shellResponse } from './app-shell.ts';
import { installTessera } from './install.ts';

declare const self: ServiceWorkerGlobalScope;

/** The script URL's base and aliases; a script URL naming a bad one answers under the default, and says so. */
const PATHS = ((): BasePaths => {
  try {
    return basePathsOf(self.location.href);
  } catch (error) {
    console.error(error);
    return { base: DEFAULT_BASE, aliases: [] };
  }
})();

installTessera(self, { base: PATHS.base, aliases: PATHS.aliases, assetsUrl: new URL('./', self.location.href) });

self.addEventListener('install', (event) => {
  event.waitUntil(Promise.all([precacheShell(), self.skipWaiting()]));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), dropOldShellCaches()]));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || apiUrlPath(url, PATHS, url.origin) !== undefined) return;
  const shell = shellResponse(event.request, url);
  if (shell) event.respondWith(shell);
});
