/**
 * Backup and restore of a 10,000-asset library, in Node (the core app through `app.request`, as the
 * worker runs it): the time to stream `GET /api/backup` to a file and to `POST /api/backup/restore` it
 * into an empty store, and the peak JS heap above the library already held, on the memory store and on
 * IndexedDB (fake-indexeddb, which keeps its data in the same heap).
 *
 *   npx esbuild test/bench/backup.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/backup.mjs
 *   node .bench/backup.mjs [--assets 10000] [--stores memory,idb]
 *
 * (`npm run bench` runs it as one of its Node sections.) The library: 9,999 generated code snippets of
 * 100-400 bytes and one 1 MB binary file (so one line of the file is 1.4 MB of base64), with their
 * snippet vectors (the hashing embedder), made through `POST /api/assets/import` in batches.
 *
 * Peak heap is sampled every 5 ms and at every chunk; the baseline is the heap after a GC with the
 * library loaded, so the figure is what backup or restore adds: for a restore it includes the parsed
 * records (held once, checked before the transaction) and the restored library itself.
 * Not measured here: Chromium's page or worker memory (the browser bench does not wire this yet).
 */
import 'fake-indexeddb/auto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import { createApp } from '../../worker/core/app.ts';
import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { MemoryFeed } from '../../worker/core/feed/feed.ts';
import { vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { mulberry32 } from '../support/random.ts';
import { APPLICATION } from '../support/seeds.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Every seed names its language: the classifier is never needed. */
const noClassifier: Classifier = {
  classify: async () => {
    throw new Error('backup bench: unexpected classification');
  },
};

export interface BackupBenchRow {
  store: string;
  assets: number;
  fileMB: number;
  buildSeconds: number;
  /** The heap the loaded library holds (after a GC), for the memory store (fake-indexeddb's own bookkeeping makes its figure meaningless). */
  libraryMB?: number;
  backupSeconds: number;
  backupPeakMB: number;
  restoreSeconds: number;
  restorePeakMB: number;
  /** Texts the embedder embedded after the restore (0: the file's vectors were taken). */
  reembedded: number;
}

class CountingEmbedder extends HashingEmbedder {
  texts = 0;
  override embed(texts: string[]) {
    this.texts += texts.length;
    return super.embed(texts);
  }
}

const WORDS = 'user order invoice cart item price total count index cache buffer token session account payment record entry config value result request response parser reader writer stream queue batch chunk node tree path file image report metric event message worker task retry limit offset page cursor filter sort key hash score rank'.split(' ');

function snippet(rnd: () => number, i: number): string {
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const lines = [`def ${pick()}_${pick()}_${i}(${pick()}, ${pick()}):`];
  const n = 2 + Math.floor(rnd() * 8);
  for (let k = 0; k < n; k++) lines.push(`    ${pick()} = ${pick()}.${pick()}(${pick()}) + ${Math.floor(rnd() * 100)}`);
  lines.push(`    return ${pick()}`);
  return lines.join('\n');
}

function fragment(raw: string) {
  return { asset: { application: APPLICATION, format: { fragment: { string: { raw } }, classification: { specific: 'py' } } } };
}

async function heapSampler() {
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sample = () => {
    const used = process.memoryUsage().heapUsed;
    if (used > peak) peak = used;
  };
  const timer = setInterval(sample, 5);
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return (peak - base) / 1024 / 1024;
    },
  };
}

async function openStore(kind: string): Promise<Store> {
  return kind === 'memory' ? new MemoryStore() : IdbStore.open(`bench-backup-${process.pid}-${Math.random()}`);
}

function appOn(store: Store) {
  const embedder = new CountingEmbedder();
  const feed = new MemoryFeed();
  const app = createApp({ store, feed, classifier: noClassifier, embedder });
  const ctx = withDefaults({ store, feed, classifier: noClassifier, embedder });
  return { app, ctx, embedder };
}

async function buildLibrary(store: Store, count: number, seed: number) {
  const { app, ctx } = appOn(store);
  const rnd = mulberry32(seed);
  const started = performance.now();
  const seeds = Array.from({ length: count - 1 }, (_, i) => fragment(snippet(rnd, i)));
  // One 1 MB binary file among them.
  const big = Array.from({ length: 1024 * 1024 }, () => Math.floor(rnd() * 256));
  seeds.push({ asset: { application: APPLICATION, format: { file: { bytes: { raw: big } } } as never, metadata: { name: 'blob.bin' } } as never } as never);
  for (let i = 0; i < seeds.length; i += 2000) {
    const response = await app.request('/api/assets/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ iterable: seeds.slice(i, i + 2000) }),
    });
    if (response.status !== 200) throw new Error(`import answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  await vectorIndexFor(ctx).current();
  return { app, seconds: (performance.now() - started) / 1000 };
}

export async function runBackupBench(options: { assets?: number; stores?: string[]; seed?: number; log?: (line: string) => void } = {}): Promise<BackupBenchRow[]> {
  const count = options.assets ?? 10_000;
  const log = options.log ?? console.log;
  const rows: BackupBenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tessera-backup-bench-'));
  try {
    for (const kind of options.stores ?? ['memory', 'idb']) {
      gc();
      const empty = process.memoryUsage().heapUsed;
      const source = await openStore(kind);
      const { app, seconds: buildSeconds } = await buildLibrary(source, count, options.seed ?? 1);
      gc();
      const libraryMB = kind === 'memory' ? (process.memoryUsage().heapUsed - empty) / 1024 / 1024 : undefined;
      const file = join(dir, `${kind}.ndjson`);

      let heap = await heapSampler();
      let started = performance.now();
      const response = await app.request('/api/backup');
      const out = createWriteStream(file);
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        heap.sample();
        if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
      }
      out.end();
      await finished(out);
      const backupSeconds = (performance.now() - started) / 1000;
      const backupPeakMB = heap.stop();

      const target = await openStore(kind);
      const restored = appOn(target);
      heap = await heapSampler();
      started = performance.now();
      const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
      const reply = await restored.app.request(new Request('http://localhost/api/backup/restore', { method: 'POST', body, duplex: 'half' } as RequestInit));
      const summary = await reply.json();
      const restoreSeconds = (performance.now() - started) / 1000;
      const restorePeakMB = heap.stop();
      if (reply.status !== 200) throw new Error(`restore answered ${reply.status}: ${JSON.stringify(summary)}`);
      if (summary.stores.assets.added !== count) throw new Error(`restored ${summary.stores.assets.added} assets, not ${count}`);
      await vectorIndexFor(restored.ctx).current();

      const row: BackupBenchRow = {
        store: kind === 'memory' ? 'MemoryStore' : 'IdbStore (fake-indexeddb)',
        assets: count,
        fileMB: statSync(file).size / 1024 / 1024,
        buildSeconds,
        libraryMB,
        backupSeconds,
        backupPeakMB,
        restoreSeconds,
        restorePeakMB,
        reembedded: restored.embedder.texts,
      };
      rows.push(row);
      log(formatBackupRow(row));
      source.close();
      target.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export function formatBackupRow(r: BackupBenchRow): string {
  return (
    `  ${r.store.padEnd(26)} ${r.assets} assets, file ${r.fileMB.toFixed(1)} MB (library built in ${r.buildSeconds.toFixed(1)} s${r.libraryMB === undefined ? '' : `, holds ${r.libraryMB.toFixed(0)} MB of heap`}): ` +
    `backup ${r.backupSeconds.toFixed(2)} s, heap peak +${r.backupPeakMB.toFixed(1)} MB; ` +
    `restore ${r.restoreSeconds.toFixed(2)} s, heap peak +${r.restorePeakMB.toFixed(1)} MB; re-embedded after restore: ${r.reembedded} texts`
  );
}

if (process.argv[1] && /backup[^/]*\.(ts|mjs|js)$/.test(basename(process.argv[1]))) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  console.log('Backup and restore — test/bench/backup.ts (Node)');
  await runBackupBench({ assets: Number(arg('--assets') ?? 10_000), stores: arg('--stores')?.split(',') });
}
