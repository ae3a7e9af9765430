/**
 * Filling a page's library with generated seeds through `POST /api/assets/import` (the search and app
 * sections), and waiting until the saved search index has caught up with it.
 */
import type { JSHandle, Page } from 'playwright-core';

const IMPORT_BATCH = 1000;
/** The requests an import of `count` seeds is sent in. */
export const importRequests = (count: number) => Math.ceil(count / IMPORT_BATCH);
const IMPORTS_IN_FLIGHT = 3;

/**
 * Imports `count` seeds made by `seed()` in batches of IMPORT_BATCH, IMPORTS_IN_FLIGHT requests in flight
 * all the time (one prepares its seeds while another's transaction waits on IndexedDB); answers the
 * page's time from the first request to the last answer, in ms. The bodies are handed to the page
 * first: sent through CDP while the time ran, as until 2026-11-29, they were 15 MB of JSON a 10,000
 * through the browser process, and a client that has its data does not pay that (the import of 20,000
 * took 3-5% longer; and sent three at a time, waiting for all three, 3-5% more).
 */
export async function importSeeds(page: Page, count: number, seed: () => unknown): Promise<number> {
  await stageImport(page, count, seed);
  return runImport(page);
}

/** Hands the page the bodies of an import of `count` seeds made by `seed()`; `runImport` sends them. */
export async function stageImport(page: Page, count: number, seed: () => unknown): Promise<void> {
  await page.evaluate(() => void ((window as unknown as { tesseraBenchImport: string[] }).tesseraBenchImport = []));
  for (let done = 0; done < count; done += IMPORT_BATCH) {
    const body = JSON.stringify({ iterable: Array.from({ length: Math.min(IMPORT_BATCH, count - done) }, seed) });
    await page.evaluate((b) => void (window as unknown as { tesseraBenchImport: string[] }).tesseraBenchImport.push(b), body);
  }
}

/** Sends the bodies `stageImport` handed the page; the page's time for it, in ms. */
export function runImport(page: Page): Promise<number> {
  return page.evaluate(pageImportAll, IMPORTS_IN_FLIGHT);
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
 * Reads every record of `stores` in the page, in one transaction (a `getAll` on each, all at once): the
 * records the index's rebuild reads (documents.ts `readEveryDocument`, in batches it indexes as they come)
 * in the time IndexedDB alone takes to hand them over, in ms, the best of `rounds`.
 */
export function timeStoreRead(page: Page, stores: readonly string[], rounds = 2): Promise<number> {
  return withPageIdb(page, (db) => page.evaluate(pageTimeStoreRead, { db, stores: [...stores], rounds }));
}

/**
 * The import's floor in this browser: the page writes the records of `stores` that the worker's import
 * stored (read back from its IndexedDB) into a fresh database of the same schema (object stores and their
 * indexes), in as many transactions as the import had requests (`requests`), each with an equal share of
 * every store's records, one after another (IndexedDB runs writes on the same stores one at a time, as it
 * ran the import's). No Tessera code runs: what is left is IndexedDB's own cost of those records. Answers
 * the ms it took and how many records it wrote.
 */
/** A collection whose records `timeStoreWrite` copies: all of them, or those whose keys fall in `[from, to]`. */
export type StoreSlice = { store: string; from?: string; to?: string };

export function timeStoreWrite(page: Page, slices: readonly StoreSlice[], requests: number): Promise<{ ms: number; records: number }> {
  return withPageIdb(page, (db) => page.evaluate(pageTimeStoreWrite, { db, slices: [...slices], requests }));
}

// Page-side functions: serialised into the page, so self-contained.

/** Imports the bodies handed to the page, `inFlight` requests at a time; the ms it took. */
function pageImportAll(inFlight: number): Promise<number> {
  return (async () => {
    const holder = window as unknown as { tesseraBenchImport?: string[] };
    const bodies = holder.tesseraBenchImport ?? [];
    delete holder.tesseraBenchImport;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < bodies.length) {
          const response = await fetch('/api/assets/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[next++]! });
          const text = await response.text();
          if (!response.ok) throw new Error(`import: ${response.status} ${text.slice(0, 300)}`);
        }
      }),
    );
    return performance.now() - t0;
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

function pageTimeStoreWrite({ db, slices, requests }: { db: IDBDatabase; slices: StoreSlice[]; requests: number }): Promise<{ ms: number; records: number }> {
  return (async () => {
    const done = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const ended = (tx: IDBTransaction) =>
      new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = tx.onabort = () => reject(tx.error);
      });
    const stores = [...new Set(slices.map((slice) => slice.store))];
    const source = db.transaction(stores);
    const range = ({ from, to }: StoreSlice) => (from === undefined || to === undefined ? undefined : IDBKeyRange.bound(from, to));
    const records = await Promise.all(slices.map((slice) => done(source.objectStore(slice.store).getAll(range(slice)))));
    const schema = stores.map((name) => {
      const store = source.objectStore(name);
      const indexes = [...store.indexNames].map((index) => {
        const { keyPath, unique, multiEntry } = store.index(index);
        return { index, keyPath, unique, multiEntry };
      });
      return { name, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes };
    });
    const name = `tessera-bench-write-floor-${Math.random().toString(36).slice(2)}`;
    const opening = indexedDB.open(name, 1);
    opening.onupgradeneeded = () => {
      for (const { name: storeName, keyPath, autoIncrement, indexes } of schema) {
        const store = opening.result.createObjectStore(storeName, { keyPath, autoIncrement });
        for (const { index, keyPath: indexPath, unique, multiEntry } of indexes) store.createIndex(index, indexPath, { unique, multiEntry });
      }
    };
    const floor = await done(opening);
    const t0 = performance.now();
    for (let k = 0; k < requests; k++) {
      const tx = floor.transaction(stores, 'readwrite');
      slices.forEach(({ store }, i) => {
        const list = records[i]!;
        const share = Math.ceil(list.length / requests);
        for (const record of list.slice(k * share, (k + 1) * share)) tx.objectStore(store).put(record);
      });
      await ended(tx);
    }
    const ms = performance.now() - t0;
    floor.close();
    await done(indexedDB.deleteDatabase(name));
    return { ms, records: records.reduce((n, list) => n + list.length, 0) };
  })();
}
