/**
 * The service worker's lazy modules (../core/lazy-modules.ts: transformers.js with onnxruntime-web,
 * FlexSearch for typo lookups), loaded on first use from files of their own.
 *
 * Why: the worker is one script (design decision 3), and a service worker may neither `import()` nor
 * `importScripts()` a file after its install; bundled into `/sw.js` these libraries were 1.3 of its 2 MB, compiled
 * at every worker start (about 90 of the 150 ms a stopped worker took to answer). So the worker build
 * (vite.config.ts) emits each as a classic script `/lazy/<name>-<hash>.js` that leaves its exports in
 * `globalThis.__tesseraLazy_<name>`, and defines `TESSERA_LAZY` (the files and the cache that holds them). The worker's install handler copies those files, and the
 * language model's, into Cache Storage (`precacheLazyFiles`), so they load offline; `loadLazyScript`
 * reads one (cache first), checks its bytes against the SHA-256 the build computed (SubtleCrypto), and
 * only then evaluates it with an indirect `eval` (global scope) and returns its exports. A script whose
 * hash differs (changed in the cache or on the way) is never run: the load fails as for a missing
 * script (the feature falls back the same way), with a console warning, and the cached copy is dropped
 * so that the next load fetches it again.
 *
 * The worker's Content-Security-Policy, if it is served with one, must allow `eval` (`script-src
 * 'unsafe-eval'`) for these scripts and `'wasm-unsafe-eval'` for the embedder's WebAssembly
 * (docs/embedding.md, "Bases, hosting and offline").
 *
 * The core reaches them only through `Deps.loadModule` (`lazyModuleLoader` here), so nothing in `/sw.js`
 * imports the libraries themselves.
 */
import type { LoadModule } from '../core/lazy-modules.ts';
import { cacheFirst, dropOtherBuildsCaches } from './build-caches.ts';

export interface LazyFiles {
  /** The Cache Storage cache that holds this build's files (its name changes with them). */
  cache: string;
  /**
   * Script name -> its path and the SHA-256 (hex) of its bytes, whose first 10 digits name the file. Paths
   * are relative to where the host serves the files (`assetsUrl`), e.g. `lazy/flexsearch-0123456789.js`.
   */
  scripts: Record<string, { path: string; sha256: string }>;
  /** Every path to keep offline (relative, as above): the scripts and the data files they read. */
  precache: string[];
}
declare const TESSERA_LAZY: LazyFiles;

/** Prefix of the caches `precacheLazyFiles` makes; other builds' caches are dropped at activation. */
export const LAZY_CACHE_PREFIX = 'tessera-lazy-';

const lazyFiles = (): LazyFiles | undefined => (typeof TESSERA_LAZY === 'undefined' ? undefined : TESSERA_LAZY);

/** `fetch`, answered from this build's cache when it holds the URL (Cache Storage, where there is one). */
export function fetchCached(url: string): Promise<Response> {
  return cacheFirst(lazyFiles()?.cache, url);
}

/**
 * The exports of the lazy script `name` (worker build only), served under `assets`, evaluated once per
 * worker lifetime, and only when its bytes have the SHA-256 the build recorded (see above).
 */
export async function loadLazyScript<T>(name: string, assets: URL): Promise<T> {
  const key = `__tesseraLazy_${name}`;
  const g = globalThis as Record<string, unknown>;
  if (g[key] === undefined) {
    const files = lazyFiles();
    const script = files?.scripts[name];
    if (!script) throw new Error(`lazy script ${name}: not part of this build`);
    const url = new URL(script.path, assets).href;
    const response = await fetchCached(url);
    if (!response.ok) throw new Error(`lazy script ${name}: GET ${url} answered ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const sha256 = toHex(await crypto.subtle.digest('SHA-256', bytes));
    if (sha256 !== script.sha256) {
      const message = `lazy script ${name}: ${url} is not the build's (SHA-256 ${sha256}, expected ${script.sha256}); not run`;
      console.warn(message);
      if (files && typeof caches !== 'undefined') await caches.open(files.cache).then((cache) => cache.delete(url)).catch(() => false);
      throw new Error(message);
    }
    const code = new TextDecoder().decode(bytes);
    if (g[key] === undefined) (0, eval)(`${code}\n//# sourceURL=${url}`);
    if (g[key] === undefined) throw new Error(`lazy script ${name}: ${url} did not define ${key}`);
  }
  return g[key] as T;
}

/** The core's `loadModule` (../core/lazy-modules.ts) in the service worker: the scripts served under `assets`. */
export const lazyModuleLoader =
  (assets: URL): LoadModule =>
  (name) =>
    loadLazyScript(name, assets);

function toHex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Install time: puts this build's lazy files, served under `assets`, into its cache (a failure fails the
 * install, to be retried; the files already kept are not fetched again).
 *
 * Each is kept as data (`application/octet-stream`), whatever the server called it: Chromium compiles a
 * script put into Cache Storage during an install, to keep a code cache beside it, and these scripts are
 * only ever read as bytes and `eval`ed, which never uses one. That compile was most of the time these
 * files took at install.
 */
export async function precacheLazyFiles(assets: URL): Promise<void> {
  const files = lazyFiles();
  if (!files || typeof caches === 'undefined') return;
  const cache = await caches.open(files.cache);
  const missing = [];
  for (const url of files.precache.map((path) => new URL(path, assets).href)) if (!(await cache.match(url))) missing.push(url);
  await Promise.all(missing.map((url) => keepAsData(cache, url)));
}

async function keepAsData(cache: Cache, url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new TypeError(`lazy file ${url}: GET answered ${response.status}`);
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/octet-stream');
  await cache.put(url, new Response(response.body, { status: response.status, statusText: response.statusText, headers }));
}

/** Activation: drops the lazy-file caches of other builds. */
export async function dropOldLazyCaches(): Promise<void> {
  const files = lazyFiles();
  if (files) await dropOtherBuildsCaches(LAZY_CACHE_PREFIX, files.cache);
}
