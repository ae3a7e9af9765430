/**
 * The IDE example's own service worker: it serves the example's files (kept in Cache Storage at install,
 * so the editor opens offline) and installs Tessera under `/tessera/api` with the package's
 * `installTessera`, which answers only requests under that base and lets every other one through to the
 * listeners below.
 */
import { installTessera } from 'tessera/worker';

declare const self: ServiceWorkerGlobalScope;
/** Set by build.mjs: the cache of this build's files, named by their hash. */
declare const IDE_CACHE: string;
const FILES = ['./', './index.html', './main.js', './styles.css'].map((path) => new URL(path, self.location.href).href);

// The package's assets (lazy scripts, the language model) are copied beside this script by build.mjs.
installTessera(self, { base: '/tessera/api', assetsUrl: './tessera-assets/' });

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(IDE_CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  const dropOld = caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith('tessera-ide-') && n !== IDE_CACHE).map((n) => caches.delete(n))));
  event.waitUntil(Promise.all([self.clients.claim(), dropOld]));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !FILES.includes(request.url.split('?')[0]!)) return;
  event.respondWith(caches.match(request, { cacheName: IDE_CACHE, ignoreSearch: true }).then((cached) => cached ?? fetch(request)));
});
