/**
 * What an IndexedDB put costs in this browser by the size of the value, in the page, with no Tessera code:
 * the measurement under a storage-layout choice (how many records an asset takes, how big). For each size,
 * a fresh database, random UUID keys (as Tessera's ids), 1,000 puts a transaction (as an import's request),
 * typed-array values (as the vectors) and strings (as the texts); puts a second and MB a second.
 *
 * A put costs about the same from 100 B to a few KB, while a value past about 64 KB (which Chromium keeps
 * as a blob beside the database) is written by the byte: docs/performance.md "What the import is bound by"
 * has the figures of Chromium 150 and 156.
 *
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/idb-put-cost.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/idb-put-cost.mjs
 *   node .bench/idb-put-cost.mjs --dist /tmp/tessera-bench-dist
 * (the build only gives the page an origin; its worker is not used.)
 */
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort, runSectionAlone } from './server.ts';

export interface PutCost {
  bytes: number;
  kind: 'int8' | 'string';
  records: number;
  putsPerSecond: number;
  mbPerSecond: number;
}

/** Value sizes measured, with how many records each (fewer for the big ones: same order of bytes). */
const SIZES: [bytes: number, records: number][] = [
  [100, 10_000],
  [500, 10_000],
  [1_000, 10_000],
  [4_000, 5_000],
  [16_000, 2_000],
  [48_000, 500],
  [80_000, 500],
  [1_000_000, 20],
];

export async function measurePutCosts(page: Page): Promise<PutCost[]> {
  const out: PutCost[] = [];
  for (const [bytes, records] of SIZES) {
    for (const kind of ['int8', 'string'] as const) {
      const ms = await page.evaluate(pagePuts, { bytes, records, kind });
      out.push({ bytes, kind, records, putsPerSecond: Math.round(records / (ms / 1000)), mbPerSecond: Math.round((records * bytes) / (ms / 1000) / 1e4) / 100 });
    }
  }
  return out;
}

/** Puts `records` values of `bytes` into a fresh database, 1,000 a transaction; the ms it took. */
function pagePuts({ bytes, records, kind }: { bytes: number; records: number; kind: 'int8' | 'string' }): Promise<number> {
  return (async () => {
    const done = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const name = `tessera-bench-puts-${Math.random().toString(36).slice(2)}`;
    const opening = indexedDB.open(name, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore('values', { keyPath: 'id' });
    const db = await done(opening);
    // Random content: a value of one repeated byte may be stored smaller than it is.
    const value = (i: number) => {
      if (kind === 'int8') {
        const vector = new Int8Array(bytes);
        for (let j = 0; j < bytes; j++) vector[j] = (Math.random() * 256) | 0;
        return vector;
      }
      let text = '';
      while (text.length < bytes) text += Math.random().toString(36).slice(2);
      return text.slice(0, bytes) + i;
    };
    const values = Array.from({ length: Math.min(records, 50) }, (_, i) => value(i));
    const t0 = performance.now();
    for (let i = 0; i < records; i += 1000) {
      const tx = db.transaction('values', 'readwrite');
      for (let k = i; k < Math.min(records, i + 1000); k++) tx.objectStore('values').put({ id: crypto.randomUUID(), value: values[k % values.length] });
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = tx.onabort = () => reject(tx.error);
      });
    }
    const ms = performance.now() - t0;
    db.close();
    await done(indexedDB.deleteDatabase(name));
    return ms;
  })();
}

async function standalone(): Promise<number> {
  return runSectionAlone(await freePort(), async (browser, origin) => {
    const page = await browser.newPage();
    await page.goto(`${origin}/?ui=off`);
    console.log('IndexedDB puts in the page by value size (fresh database each, 1,000 puts a transaction, UUID keys):');
    for (const c of await measurePutCosts(page)) {
      console.log(`  ${String(c.bytes).padStart(9)} B ${c.kind.padEnd(6)} ${String(c.records).padStart(6)} records: ${String(c.putsPerSecond).padStart(6)} puts/s, ${c.mbPerSecond.toFixed(2).padStart(7)} MB/s`);
    }
  });
}

if (process.argv[1] && /^idb-put-cost[^/]*\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();
