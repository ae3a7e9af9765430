/**
 * The Cache Storage caches a build fills (its lazy scripts, its app shell): each named
 * `<prefix><hash of the files>`, so a new build gets new caches and drops the old ones at activation.
 * Where there is no Cache Storage (vitest), everything goes to the network.
 */

/** `fetch(request)`, answered from the cache `cacheName` when it holds `key`. */
export async function cacheFirst(cacheName: string | undefined, key: string, request: RequestInfo = key): Promise<Response> {
  if (cacheName && typeof caches !== 'undefined') {
    const cached = await caches
      .open(cacheName)
      .then((cache) => cache.match(key))
      .catch(() => undefined);
    if (cached) return cached;
  }
  return fetch(request);
}

/** Drops the caches named `<prefix>…` but `current`: the copies other builds made of their files. */
export async function dropOtherBuildsCaches(prefix: string, current: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) {
    if (name.startsWith(prefix) && name !== current) await caches.delete(name);
  }
}

/**
 * Files fetched and kept at a time: the copy runs beside a first visit's first requests, and all at once
 * (75 files) it held a first create up 640-670 ms after `ready()`; four at a time, 320-420 ms, for about
 * the same time to copy them all (Chromium, the 2-core build machine).
 */
const KEEP_LANES = 4;

/**
 * Puts into the cache `cacheName` those of `urls` (absolute) it does not hold yet, in order; answers the
 * ones that did not load (the others are kept all the same).
 */
export async function keepInCache(cacheName: string, urls: readonly string[]): Promise<string[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(cacheName);
  const kept = new Set((await cache.keys()).map((request) => request.url));
  const missing: string[] = [];
  const queue = urls.filter((url) => !kept.has(url));
  const lane = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) await cache.add(url).catch(() => missing.push(url));
  };
  await Promise.all(Array.from({ length: KEEP_LANES }, lane));
  return missing;
}

/**
 * `copy` (answering what it could not keep) run once at a time: a call while one runs shares it, and a
 * call after one that left files out, or failed, runs it again; after a complete one it answers at once.
 */
export function copyUntilComplete(copy: () => Promise<string[]>): () => Promise<string[]> {
  let last: Promise<string[]> | undefined;
  return () => {
    if (last) return last;
    const run = copy();
    last = run;
    run.then(
      (missing) => {
        if (missing.length > 0 && last === run) last = undefined;
      },
      () => {
        if (last === run) last = undefined;
      },
    );
    return run;
  };
}
