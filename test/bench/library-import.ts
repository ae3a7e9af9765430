/**
 * Filling a page's library with generated seeds through `POST /api/assets/import` (the search and app
 * sections), and waiting until the saved search index has caught up with it.
 */
import type { Page } from 'playwright-core';

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

// Page-side functions: serialised into the page, so self-contained.

function pageImport(body: string): Promise<number> {
  return (async () => {
    const response = await fetch('/api/assets/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.text();
    if (!response.ok) throw new Error(`import: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text).iterable.length as number;
  })();
}


/** Waits until the saved search index has caught up with the change log; the wait in ms, or null on time-out. */
export function pageWaitForSnapshot(args: { timeoutMs: number }): Promise<number | null> {
  return (async () => {
    const db: IDBDatabase = await new Promise((resolve, reject) => {
      const request = indexedDB.open('tessera');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const get = (store: string, key: string) =>
      new Promise<any>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const t0 = performance.now();
    try {
      while (performance.now() - t0 < args.timeoutMs) {
        const [snapshot, seq] = await Promise.all([get('indexes', 'search'), get('meta', 'seq')]);
        if (snapshot && seq && snapshot.seq === seq.value) return performance.now() - t0;
        await new Promise((r) => setTimeout(r, 50));
      }
      return null;
    } finally {
      db.close();
    }
  })();
}
