/**
 * Filling a page's library with generated seeds through `POST /api/assets/import` (the search and app
 * sections), and waiting until the saved search index has caught up with it.
 */
import type { JSHandle, Page } from 'playwright-core';

const IMPORT_BATCH = 1000;
const IMPORTS_IN_FLIGHT = 3;

/** Imports `count` seeds made by `seed()`, in batches; a few imports in flight, so one prepares its seeds while another's transaction waits on IndexedDB. */
export async function importSeeds(page: Page, count: number, seed: () => unknown): Promise<void> {
  const bodies: string[] = [];
  for (let done = 0; done < count; done += IMPORT_BATCH) {
    bodies.push(JSON.stringify({ iterable: Array.from({ length: Math.min(IMPORT_BATCH, count - done) }, seed) }));
  }
  for (let i = 0; i < bodies.length; i += IMPORTS_IN_FLIGHT) {
    await Promise.all(bodies.slice(i, i + IMPORTS_IN_FLIGHT).map((body) => page.evaluate(pageImport, body)));
  }
}

/**
 * Runs `use` with the worker's IndexedDB (`tessera`) opened in the page, and closes it after. Page
 * functions are serialised into the page, so they cannot share a helper: they take the opened database
 * as a handle (`page.evaluate(fn, {db, …})`).
 */
export async function withPageIdb<R>(page: Page, use: (db: JSHandle<IDBDatabase>) => Promise<R>): Promise<R> {
  const db = await page.evaluateHandle(
    () =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('tessera');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      }),
  );
  try {
    return await use(db);
  } finally {
    await db.evaluate((opened) => opened.close());
    await db.dispose();
  }
}

/** Deletes the saved search index (its three records), as if none had ever been saved. */
export function deleteSearchSnapshot(page: Page): Promise<void> {
  return withPageIdb(page, (db) => page.evaluate(pageDeleteSnapshot, { db }));
}

/** Waits until the saved search index has caught up with the change log; the wait in ms, or null on time-out. */
export function waitForSnapshot(page: Page, timeoutMs: number): Promise<number | null> {
  return withPageIdb(page, (db) => page.evaluate(pageWaitForSnapshot, { db, timeoutMs }));
}

/**
 * Reads every record of `stores` in the page, in one transaction (a `getAll` on each, all at once), as the
 * index's rebuild reads them (documents.ts `readAllDocuments`): the time IndexedDB alone takes to hand them
 * over, in ms, the best of `rounds`.
 */
export function timeStoreRead(page: Page, stores: readonly string[], rounds = 2): Promise<number> {
  return withPageIdb(page, (db) => page.evaluate(pageTimeStoreRead, { db, stores: [...stores], rounds }));
}

// Page-side functions: serialised into the page, so self-contained.

function pageImport(body: string): Promise<number> {
  return (async () => {
    const response = await fetch('/api/assets/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.text();
    if (!response.ok) throw new Error(`import: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text).iterable.length as number;
  })();
}


function pageDeleteSnapshot({ db }: { db: IDBDatabase }): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction('indexes', 'readwrite');
    for (const id of ['search', 'search.meta', 'search.typos']) tx.objectStore('indexes').delete(id);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

function pageWaitForSnapshot({ db, timeoutMs }: { db: IDBDatabase; timeoutMs: number }): Promise<number | null> {
  return (async () => {
    const get = (store: string, key: string) =>
      new Promise<any>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const t0 = performance.now();
    while (performance.now() - t0 < timeoutMs) {
      const [snapshot, seq] = await Promise.all([get('indexes', 'search'), get('meta', 'seq')]);
      if (snapshot && seq && snapshot.seq === seq.value) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 50));
    }
    return null;
  })();
}

function pageTimeStoreRead({ db, stores, rounds }: { db: IDBDatabase; stores: string[]; rounds: number }): Promise<number> {
  return (async () => {
    let best = Infinity;
    for (let round = 0; round < rounds; round++) {
      const t0 = performance.now();
      const tx = db.transaction(stores);
      await Promise.all(
        stores.map(
          (store) =>
            new Promise<number>((resolve, reject) => {
              const request = tx.objectStore(store).getAll();
              request.onsuccess = () => resolve(request.result.length);
              request.onerror = () => reject(request.error);
            }),
        ),
      );
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  })();
}
