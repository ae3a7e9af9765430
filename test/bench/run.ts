/**
 * The Tessera benchmark: latency of the API as a page sees it, in Chromium, from one run.
 *
 *   npm run bench       (builds into .bench/dist, never dist/; bundles this file; runs it; about 7-8 min)
 *
 * or, with a build of your own:
 *
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/run.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/run.mjs
 *   node .bench/run.mjs --dist /tmp/tessera-bench-dist        (or TESSERA_DIST=/tmp/tessera-bench-dist)
 *
 * (Node 20 has no `--experimental-strip-types`, hence the esbuild step; on Node 22.6+
 * `node --experimental-strip-types test/bench/run.ts` runs this file as it is.)
 *
 * What it measures, every time around a page `fetch()` until the body is read (`performance.now()`):
 *  1. create latency: sequential `POST /api/assets/create` of generated snippets (several languages and
 *     prose; the language classifier runs on each), which also makes the read library (~200 assets);
 *  2. read latency: `GET /api/asset/{id}` and the transport floor `GET /api/__echo`, interleaved, and
 *     their ratio (target <= 1.3); plus, for diagnosis, the same records read directly from IndexedDB in
 *     the page;
 *  3. listing at 1,000 assets (`GET /api/assets?transferables=false|true`);
 *  4. worker cold start (stopped through CDP) to the first answer;
 *  4b. live streams: write-to-frame latency in another tab, and the RPC path against fetch for reading one
 *     asset, as a ratio (test/bench/streams.ts); the embedded mode's GET asset (its dedicated Worker)
 *     against the service worker's, as a ratio (test/bench/embedded.ts);
 *     then the listing, the read against echo and the RPC path again without the asset cache
 *     (test/bench/uncached.ts); creates through the official SDK, 8 in flight (test/bench/sdk-creates.ts);
 *  4c. search at 10,000 and 100,000 generated snippets, each in a fresh context: p50/p95 in the worker
 *     and end to end, and the first search after a worker stop at 10,000 (test/bench/search.ts); on the
 *     same 10,000-asset library, in the same page: relevance latency, the first relevance call after the
 *     import (what the background has not embedded yet) and the first after a worker stop (test/bench/relevance.ts);
 *  4d. embedding inference in the worker with a generated MiniLM-shaped model: load time, ms a 100-token
 *     snippet, and echo pings while a batch embeds against idle ones (test/bench/embedding.ts);
 *  4e. backup of 10,000 assets and its restore into a fresh profile: time, peak memory of the worker and
 *     the page (test/bench/backup-browser.ts);
 *  4f. the app (app/ui) in a fresh context, on one library grown from 1,000 to 10,000 generated snippets:
 *     keystroke -> results shown in the list (keydown to the first frame with the expected rows, measured
 *     in the page) against the bare search fetch of the same queries, at each size; and the first rows
 *     after a reload at 10,000 (navigation start to the first frame with a row) against `GET /api/library`
 *     alone; with where the time goes (test/bench/app.ts; targets 50 ms and 300 ms at 10,000);
 *  4g. the Node host on PGlite and PostgreSQL (DATABASE_URL; skipped, with the reason, without it) beside
 *     the worker: creates, search at 100,000, write-to-frame across two instances, and PostgreSQL's
 *     full-text ranking on CoSQA (test/bench/node-host.ts);
 *  5. test/bench/detect-accuracy.ts (language detection accuracy, in Node);
 *  6. search quality: nDCG@10 of GET /assets/search on CoSQA (test/bench/search-quality.ts, in Node);
 *  7. relevance quality: nDCG@10, MRR@10, Recall@10/100 of POST /qgpt/relevance database:true on CoSQA,
 *     and its latency at that size (test/bench/relevance-quality.ts, in Node);
 *  8. backup and restore of 10,000 assets (one 1 MB file among them): time and peak heap, on the memory
 *     store and fake-indexeddb (test/bench/backup.ts, in Node); the same in Chromium through the worker,
 *     with the worker's and the page's peak memory, is section 4e (test/bench/backup-browser.ts).
 * Figures go to stdout and to .bench/results.json, and (when the run succeeded) into docs/performance.md's
 * tables (test/bench/performance-doc.ts; the prose around them is kept).
 *
 * Only the search section (4c), e.g. while working on the first search after a worker stop:
 *   npx esbuild test/bench/search.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/search.mjs
 *   node .bench/search.mjs --dist /tmp/tessera-bench-dist --sizes 10000      (see search.ts's header)
 * Only the app section (4e), about 1 min:
 *   npx esbuild test/bench/app.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/app.mjs
 *   node .bench/app.mjs --dist /tmp/tessera-bench-dist      (see app.ts's header)
 *
 * Environment: TESSERA_DIST or --dist (build folder to serve, default dist/), BENCH_PORT (default 4175),
 * BENCH_SEED (snippet generator seed, default 1), CHROMIUM (default /usr/bin/chromium).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.ts';
import { line, ms, quantile, round, stats } from './stats.ts';
import { runBackupBench } from './backup.ts';
import { measureBuild } from './build-size.ts';
import { writePerformanceDoc, type BenchResults } from './performance-doc.ts';
import { runBackupBrowserBench } from './backup-browser.ts';
import { runAppBench } from './app.ts';
import { runEmbeddingBench } from './embedding.ts';
import type { RelevanceLatency } from './relevance.ts';
import { formatRelevanceQuality, measureRelevanceQuality } from './relevance-quality.ts';
import { runNodeHostBench } from './node-host.ts';
import { relevanceHooks, runSearchBench, type SearchBenchResult } from './search.ts';
import { distFolder, repoRoot, serveBuild } from './server.ts';
import { formatQuality, measureSearchQuality } from './search-quality.ts';
import { benchStreams } from './streams.ts';
import { benchEmbedded } from './embedded.ts';
import { benchUncachedReads } from './uncached.ts';
import { benchSdkCreates } from './sdk-creates.ts';
import { classifiedSeedBody, LANGS, seedBody, snippets } from './create-snippets.ts';
import { cpuSnapshot, foreignShare } from './machine-noise.ts';
import { withPageIdb } from './library-import.ts';
import { pageCreateBatches, pageCreateSequential, pageIdbRead, pageList, pageReadInterleaved, pageTimedOnce } from './page-requests.ts';
import { sleep, stopWorkersOf, WorkerControl } from './worker-control.ts';

// ---------------------------------------------------------------------------------------------------
// Settings

const PORT = Number(process.env.BENCH_PORT || 4175);
const SEED = Number(process.env.BENCH_SEED || 1);

const CREATE_WARMUP = 10;
const CREATE_SAMPLES = 200; // these assets (plus the warm-up ones) are the read library
const READ_WARMUP = 40; // pairs (asset + echo)
const READ_SAMPLES = 600; // pairs
const IDB_SAMPLES = 300;
const LIST_TARGET = 1000;
const LIST_BATCH = 20;
const LIST_WARMUP = 2; // per variant
const LIST_SAMPLES = 20; // per variant (a p95 needs 20)
/** The listing's body written into the served build for the run's floor (removed after). */
const LIST_FLOOR_FILE = 'bench-listing-floor.json';
const COLD_SAMPLES = 10; // per route
const COLD_CREATE_SAMPLES = 5;

const ROOT = repoRoot();
const DIST = distFolder(ROOT);
const OUT_DIR = join(ROOT, '.bench');

// ---------------------------------------------------------------------------------------------------
// Language detection accuracy (another engineer's script), bundled for Node 20 and run as a child.

async function runDetectAccuracy(): Promise<{ ok: boolean; output: string; seconds: number }> {
  const t0 = Date.now();
  const { build } = await import('esbuild');
  const outfile = join(OUT_DIR, 'detect-accuracy.mjs');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'test', 'bench', 'detect-accuracy.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [outfile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('close', (code) => resolvePromise({ ok: code === 0, output, seconds: (Date.now() - t0) / 1000 }));
    child.on('error', (error) => resolvePromise({ ok: false, output: output + String(error), seconds: (Date.now() - t0) / 1000 }));
  });
}

// ---------------------------------------------------------------------------------------------------
// The run

async function main(): Promise<number> {
  const started = Date.now();
  const results: Record<string, unknown> = {};
  const log = (text = '') => console.log(text);
  const phase = (title: string) => log(`\n${title}`);
  /** CPU share other processes took during each phase: other work on this small machine inflates every figure. */
  const foreign: Record<string, number | undefined> = {};
  let mark = cpuSnapshot();
  const noteLoad = (name: string) => {
    const now = cpuSnapshot();
    foreign[name] = foreignShare(mark, now);
    mark = now;
  };

  if (!existsSync(join(DIST, 'index.html')) || !existsSync(join(DIST, 'sw.js'))) {
    console.error(`bench: no build in ${DIST}; run \`npm run bench\` or \`npx vite build --outDir ${DIST}\``);
    return 1;
  }
  mkdirSync(OUT_DIR, { recursive: true });

  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    browser = undefined;
    if (server && server.exitCode === null) server.kill();
    server = undefined;
  };
  const onSignal = () => {
    void cleanup().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let failed = false;
  try {
    server = await serveBuild(ROOT, DIST, PORT);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const context = await browser.newContext();
    const page = await context.newPage();
    const origin = `http://localhost:${PORT}`;
    // The client page without the live UI, which would fetch after every change the bench makes.
    await page.goto(`${origin}/?ui=off`);
    await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());

    const cpu = cpus();
    const meta = {
      date: new Date().toISOString(),
      chromium: browser.version(),
      node: process.version,
      cpu: `${cpu.length} x ${cpu[0]?.model ?? '?'}`,
      loadavgStart: loadavg().map((x) => Math.round(x * 100) / 100),
      build: DIST,
      origin,
      seed: SEED,
    };
    results.meta = meta;
    results.build = measureBuild(DIST);
    log(`Tessera benchmark — ${meta.date}`);
    log(`Chromium ${meta.chromium} (${CHROMIUM}), Node ${meta.node}, ${meta.cpu}`);
    log(`build ${DIST}, served at ${origin}; load average at start ${meta.loadavgStart.join(' ')}`);
    log('Every time is a page fetch() until its body is read (performance.now()); p50/p95 are nearest-rank.');

    // 1. Create latency (and the read library).
    const createSnippets = snippets(CREATE_WARMUP + CREATE_SAMPLES, SEED);
    const created = await page.evaluate(pageCreateSequential, createSnippets.map((s) => seedBody(s.raw)));
    const createMs = created.ms.slice(CREATE_WARMUP);
    const createStats = stats(createMs);
    type KindRow = { n: number; ok: number; ms: number[]; got: Map<string, number> };
    const perLang = new Map<string, KindRow>();
    createSnippets.forEach((s, i) => {
      const row: KindRow = perLang.get(s.lang) ?? { n: 0, ok: 0, ms: [], got: new Map() };
      const got = created.specifics[i]!;
      row.n++;
      if (got === s.lang) row.ok++;
      else row.got.set(got, (row.got.get(got) ?? 0) + 1);
      if (i >= CREATE_WARMUP) row.ms.push(created.ms[i]!);
      perLang.set(s.lang, row);
    });
    const sizes = createSnippets.map((s) => s.raw.length).sort((a, b) => a - b);
    phase(`Create latency — POST /api/assets/create, sequential, ${CREATE_SAMPLES} samples after ${CREATE_WARMUP} warm-up`);
    log(`  snippets: ${LANGS.length} kinds (${LANGS.join(' ')}), ${sizes[0]}-${sizes[sizes.length - 1]} chars (median ${quantile(sizes, 0.5)}); the language classifier runs on each`);
    log(line('create', createStats));
    log(`  first create of the run (loads the language model): ${ms(created.ms[0]!)}`);
    const byLang: Record<string, { n: number; p50: number; classifiedAs: string }> = {};
    const cells: string[] = [];
    for (const [lang, row] of perLang) {
      const s = stats(row.ms);
      const others = [...row.got].map(([k, v]) => `${k}×${v}`).join(',');
      byLang[lang] = { n: s.n, p50: s.p50, classifiedAs: `${row.ok}/${row.n}${others ? ` (else ${others})` : ''}` };
      cells.push(`${lang} ${ms(s.p50)} ${row.ok}/${row.n}${others ? ` [${others}]` : ''}`);
    }
    log('  per kind: p50, then classified as intended / created (warm-up included)');
    for (let i = 0; i < cells.length; i += 4) log(`    ${cells.slice(i, i + 4).join('   ')}`);
    noteLoad('create');
    mark = cpuSnapshot();
    results.create = { ...createStats, unit: 'ms', warmup: CREATE_WARMUP, firstMs: created.ms[0], perKind: byLang };

    // 2. Read latency, interleaved with the echo floor.
    const ids = created.ids;
    mark = cpuSnapshot();
    const read = await page.evaluate(pageReadInterleaved, { ids, warmup: READ_WARMUP, samples: READ_SAMPLES, seed: SEED });
    const assetStats = stats(read.asset);
    const echoStats = stats(read.echo);
    const ratio = { p50: assetStats.p50 / echoStats.p50, p95: assetStats.p95 / echoStats.p95 };
    const idb = await withPageIdb(page, (db) => page.evaluate(pageIdbRead, { db, ids, samples: IDB_SAMPLES }));
    const idbMirror = stats(idb.mirror);
    const idbMinimal = stats(idb.minimal);
    phase(`Read latency — library of ${ids.length} assets, ${READ_SAMPLES} interleaved pairs after ${READ_WARMUP} warm-up pairs`);
    log(line('GET /api/asset/{id}', assetStats, `, ~${Math.round(read.assetBytes)} B body`));
    log(line('GET /api/__echo (transport floor)', echoStats));
    const verdict = (r: number) => (r <= 1.3 ? 'met' : 'NOT met');
    log(`  ratio asset/echo                         p50 ${ratio.p50.toFixed(2)}   p95 ${ratio.p95.toFixed(2)}   target ≤ 1.3: p50 ${verdict(ratio.p50)}, p95 ${verdict(ratio.p95)}`);
    log(`  asset - echo (handler share)             p50 ${ms(assetStats.p50 - echoStats.p50)}   p95 ${ms(assetStats.p95 - echoStats.p95)}`);
    log('  diagnostic, the same records read directly from IndexedDB in the page:');
    log(line('  like the worker (10 stores, done)', idbMirror));
    log(line('  minimal (3 stores, no wait)', idbMinimal));
    noteLoad('read');
    results.read = {
      librarySize: ids.length,
      warmupPairs: READ_WARMUP,
      asset: { ...assetStats, unit: 'ms', bodyBytes: Math.round(read.assetBytes) },
      echo: { ...echoStats, unit: 'ms' },
      ratio: { p50: round(ratio.p50), p95: round(ratio.p95), target: 1.3 },
      pageIdb: { workerLike: { ...idbMirror, unit: 'ms' }, minimal: { ...idbMinimal, unit: 'ms' } },
    };

    // 3. Listing at 1,000 assets.
    const more = snippets(LIST_TARGET - ids.length, SEED + 1).map((s) => classifiedSeedBody(s.raw, s.lang));
    const bulk = await page.evaluate(pageCreateBatches, { bodies: more, batch: LIST_BATCH });
    mark = cpuSnapshot();
    // The floor: the same bytes as the plain listing, served as a static file of the build (the network path).
    const floorFile = join(DIST, LIST_FLOOR_FILE);
    writeFileSync(floorFile, await page.evaluate(async () => (await fetch('/api/assets?transferables=false')).text()));
    const list = await page.evaluate(pageList, { warmup: LIST_WARMUP, samples: LIST_SAMPLES, floorUrl: `/${LIST_FLOOR_FILE}` }).finally(() => rmSync(floorFile, { force: true }));
    const listPlain = stats(list.plain);
    const listFull = stats(list.transferables);
    const listFloor = stats(list.floor);
    phase(`Listing — GET /api/assets with ${list.count} assets, ${LIST_SAMPLES} runs each after ${LIST_WARMUP} warm-up, alternating`);
    log(`  (the ${more.length} extra assets were created through the API in concurrent batches of ${LIST_BATCH}, their seeds naming their language`);
    log(`   so the classifier is skipped: ${ms(bulk.ms)} in all, ${(more.length / (bulk.ms / 1000)).toFixed(0)} creates/s)`);
    log(line('?transferables=false', listPlain, `, ${(list.plainBytes / 1e6).toFixed(2)} MB body`));
    log(line('?transferables=true', listFull, `, ${(list.transferablesBytes / 1e6).toFixed(2)} MB body`));
    log(line('the plain body as a static file (floor)', listFloor, `, ${(list.floorBytes / 1e6).toFixed(2)} MB`));
    log(`  ratio plain listing/floor                p50 ${(listPlain.p50 / listFloor.p50).toFixed(2)}`);
    noteLoad('list');
    results.list = {
      assets: list.count,
      warmup: LIST_WARMUP,
      transferablesFalse: { ...listPlain, unit: 'ms', bodyBytes: list.plainBytes },
      transferablesTrue: { ...listFull, unit: 'ms', bodyBytes: list.transferablesBytes },
      staticFile: { ...listFloor, unit: 'ms', bodyBytes: list.floorBytes },
      bulkCreate: { assets: more.length, batch: LIST_BATCH, classified: true, ms: round(bulk.ms), perSecond: round(more.length / (bulk.ms / 1000)) },
    };

    // 4. Cold start: stop the worker through CDP, then time the next request.
    const control = await WorkerControl.attach(page);
    const cold: { asset: number[]; echo: number[]; create: number[] } = { asset: [], echo: [], create: [] };
    let unconfirmed = 0;
    const coldOnce = async (args: { url: string; method: string; body?: string }) => {
      if (!(await control.stop())) unconfirmed++;
      await sleep(50);
      return page.evaluate(pageTimedOnce, args);
    };
    for (let i = 0; i < COLD_SAMPLES; i++) {
      const id = ids[(i * 7) % ids.length]!;
      const order = i % 2 === 0 ? ['asset', 'echo'] : ['echo', 'asset'];
      for (const which of order) {
        if (which === 'asset') cold.asset.push(await coldOnce({ url: `/api/asset/${id}`, method: 'GET' }));
        else cold.echo.push(await coldOnce({ url: '/api/__echo', method: 'GET' }));
      }
    }
    const coldBodies = snippets(COLD_CREATE_SAMPLES, SEED + 2);
    for (const s of coldBodies) cold.create.push(await coldOnce({ url: '/api/assets/create?transferables=false', method: 'POST', body: seedBody(s.raw) }));
    const coldAsset = stats(cold.asset);
    const coldEcho = stats(cold.echo);
    const coldCreate = stats(cold.create);
    phase(`Worker cold start — stopped via CDP ServiceWorker.stopAllWorkers, then one request (library of ${list.count + COLD_CREATE_SAMPLES} assets at most)`);
    log(line('first GET /api/asset/{id}', coldAsset, ', median is p50'));
    log(line('first GET /api/__echo (no app, no IDB)', coldEcho));
    log(line('first POST /api/assets/create', coldCreate, ', includes the language model load'));
    if (unconfirmed) log(`  note: ${unconfirmed} stop(s) not confirmed by CDP within 5 s`);
    noteLoad('coldStart');
    results.coldStart = {
      asset: { ...coldAsset, unit: 'ms' },
      echo: { ...coldEcho, unit: 'ms' },
      create: { ...coldCreate, unit: 'ms' },
      unconfirmedStops: unconfirmed,
    };
    // 4b. Live streams (write-to-frame in another tab) and the RPC path against fetch: test/bench/streams.ts.
    results.streams = await benchStreams({ page, ids, log, phase });
    noteLoad('streams');
    // 4b'. The embedded mode's GET asset against the service worker's: test/bench/embedded.ts.
    results.embedded = await benchEmbedded({ page, ids, log, phase });
    noteLoad('embedded');
    // 4b'. The same reads without the asset cache (a worker registered with it off): test/bench/uncached.ts.
    results.uncached = await benchUncachedReads({ page, ids, seed: SEED, log, phase });
    noteLoad('uncached');
    // 4b''. Creates through the official SDK, 8 in flight, in a fresh context: test/bench/sdk-creates.ts.
    results.sdkCreates = await benchSdkCreates({ browser, origin, bodies: snippets(808, SEED + 3).map((s) => seedBody(s.raw)), log, phase });
    noteLoad('sdkCreates');
    // 4c. Search at 10,000 and 100,000 assets, and the first search after a stop: test/bench/search.ts.
    const stopWorkers = stopWorkersOf();
    let relevanceLatency: RelevanceLatency | undefined;
    results.search = await runSearchBench({
      browser,
      origin,
      stopWorkers,
      log,
      seed: SEED,
      ...relevanceHooks(stopWorkers, log, (result) => (relevanceLatency = result)),
    });
    results.relevanceLatency = relevanceLatency;
    noteLoad('search');
    // 4d. Embedding inference in the worker with a generated MiniLM-shaped model: test/bench/embedding.ts.
    phase('Embedding inference in the worker — POST /api/embeddings with a generated MiniLM-shaped model, fresh context');
    results.embedding = await runEmbeddingBench({ browser, origin, dist: DIST, stopWorkers, log, seed: SEED });
    noteLoad('embedding');
    // 4e. Backup and restore of 10,000 assets through the worker: test/bench/backup-browser.ts.
    phase('Backup and restore — GET /api/backup, POST /api/backup/restore into a fresh profile, 10,000 assets');
    results.backupBrowser = await runBackupBrowserBench({ browser, origin, log, seed: SEED });
    noteLoad('backup');
    // 4f. The app: keystroke -> results shown, first rows after a reload: test/bench/app.ts.
    results.app = await runAppBench({ browser, origin, log, seed: SEED });
    noteLoad('app');
    // 4g. The Node host on PGlite and PostgreSQL beside the worker's figures: test/bench/node-host.ts.
    results.nodeHost = await runNodeHostBench({ browser, origin, log, seed: SEED, browserSearch: results.search as SearchBenchResult, browserStreams: results.streams as Awaited<ReturnType<typeof benchStreams>> });
    noteLoad('nodeHost');
    Object.assign(results.meta as Record<string, unknown>, { foreignCpuPercent: foreign, loadavgEnd: loadavg().map((x) => Math.round(x * 100) / 100) });
    log(`\nChromium part done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    const shares = Object.entries(foreign).map(([k, v]) => `${k} ${v === undefined ? '?' : `${v.toFixed(1)}%`}`).join(', ');
    log(`CPU used by other processes (share of all ${cpus().length} CPUs) during each phase: ${shares}.`);
    if (Object.values(foreign).some((v) => v !== undefined && v > 10)) {
      log('WARNING: other work competed with the browser during the run (over 10% of the machine): figures are inflated.');
    }
  } catch (error) {
    failed = true;
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`\nbench failed: ${results.error}`);
  } finally {
    await cleanup();
  }

  // 5. Language detection accuracy.
  phase('Language detection accuracy — test/bench/detect-accuracy.ts (Node)');
  mark = cpuSnapshot();
  const detect = await runDetectAccuracy().catch((error: unknown) => ({ ok: false, output: String(error), seconds: 0 }));
  noteLoad('detectAccuracy');
  log(`(${detect.seconds.toFixed(1)} s; other processes used ${foreign.detectAccuracy === undefined ? '?' : `${foreign.detectAccuracy.toFixed(1)}%`} of the CPUs meanwhile)`);
  if (!detect.ok) {
    failed = true;
    console.error(`detect-accuracy failed:\n${detect.output.slice(-2000)}`);
  }
  results.detectAccuracy = { ok: detect.ok, seconds: detect.seconds, foreignCpuPercent: foreign.detectAccuracy, output: detect.output };

  // 6. Search quality on CoSQA, in this process (Node, the core app on a memory store).
  phase('Search quality — test/bench/search-quality.ts (Node)');
  try {
    const quality = await measureSearchQuality();
    log(formatQuality(quality));
    results.searchQuality = quality;
  } catch (error) {
    failed = true;
    console.error(`search-quality failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  // 7. Relevance quality on CoSQA, likewise in Node.
  phase('Relevance quality — test/bench/relevance-quality.ts (Node)');
  try {
    const quality = await measureRelevanceQuality();
    log(formatRelevanceQuality(quality));
    results.relevanceQuality = quality;
  } catch (error) {
    failed = true;
    console.error(`relevance-quality failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  // 8. Backup and restore of 10,000 assets, likewise in Node (memory store and fake-indexeddb).
  phase('Backup and restore — test/bench/backup.ts (Node)');
  try {
    results.backup = await runBackupBench({ log });
  } catch (error) {
    failed = true;
    console.error(`backup bench failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  results.totalSeconds = (Date.now() - started) / 1000;

  const file = join(OUT_DIR, 'results.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nTotal ${((Date.now() - started) / 1000).toFixed(1)} s. Figures written to ${file}`);
  const doc = join(ROOT, 'docs', 'performance.md');
  if (failed) log(`${doc} left as it was (this run failed); test/bench/performance-doc.ts (its header) writes these figures into it anyway.`);
  else {
    writePerformanceDoc(results as BenchResults, doc);
    log(`${doc} rewritten from them.`);
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return failed ? 1 : 0;
}

process.exitCode = await main();
