/**
 * The Cache Storage caches a build fills at install (its lazy scripts, its app shell): each named
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
