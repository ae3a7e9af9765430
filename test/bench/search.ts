/**
 * The search section of the benchmark (test/bench/run.ts calls `runSearchBench`), in Chromium against the
 * built service worker:
 *
 *  - for a library of 10,000 and one of 100,000 generated snippets (each in a fresh browser context, so a
 *    fresh IndexedDB), loaded with `POST /api/assets/import` (1,000 seeds a request, one transaction each, 3 in flight):
 *    - the first search after the import (the worker's index followed the import as it landed:
 *      search-index.ts `follow()`), and the time until the index snapshot is saved;
 *    - `GET /api/assets/search?query=…&transferables=false` p50/p95 over a mix of realistic queries:
 *      in the worker (`rank` of the Server-Timing header: query analysis and ranking, no transport, no
 *      asset reads) and end to end (page fetch until the body is read, up to 100 results each);
 *    - with no snapshot at all: the worker stopped, the saved index deleted, the first search (it builds
 *      the index from the store); at 100,000, once more with creates sent into that build one after
 *      another (a write is not held up by the build: search/documents.ts `readEveryDocument`);
 *  - at 10,000: the worker stopped through CDP, then the time to the first search answer (the worker
 *    starts, opens IndexedDB, restores the saved index, applies the change log, searches, reads the results);
 *  - then whatever the caller's `onLibrary` measures on the same library, in the same page (run.ts:
 *    relevance latency at 10,000, test/bench/relevance.ts), so the library is imported once.
 *
 * Runs on its own too, against a build:
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/search.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/search.mjs
 *   node .bench/search.mjs --dist /tmp/tessera-bench-dist [--sizes 10000,100000]
 * (`--sizes 10000` alone measures the first search after a worker stop in about 40 s; `--relevance` adds
 * the relevance latency at each size; BENCH_SEARCH_PORT sets the port, default 4186; BENCH_COLD_SAMPLES
 * the number of stops, default 15.)
 */
import { basename } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { measureFirstRelevance, measureRelevanceLatency, type FirstRelevance, type RelevanceLatency } from './relevance.ts';
import { DOCUMENT_SCOPE } from '../../worker/core/search/documents.ts';
import { STORE_ASSET_SCOPE } from '../../worker/core/assets/create.ts';
import { LOG_SCOPE } from '../../worker/core/feed/commit.ts';
import { VECTORS_STATE_ID } from '../../worker/core/qgpt/vectors/stored-vectors.ts';
import { deleteSearchSnapshot, importRequests, importSeeds, type StoreSlice, timeStoreRead, timeStoreWrite, waitForSnapshot } from './library-import.ts';
import { seedBody } from './create-snippets.ts';
import { SnippetGen } from './library-snippets.ts';
import { argValue, runSectionAlone } from './server.ts';
import { line, ms, round, stats, type Stats } from './stats.ts';
import { stopWorkersOf } from './worker-control.ts';

/** Issue 17: `POST /assets/import` at this many assets a second or more. */
const IMPORT_TARGET = 2000;

export interface SearchSizeResult {
  assets: number;
  importSeconds: number;
  importPerSecond: number;
  /** The first search after the import, in the worker that imported (its index followed the writes). */
  firstSearchMs: number;
  /** Of which loading or building the index then. */
  firstSearchLoadMs: number;
  /**
   * The worker stopped and the saved index deleted: the first search, which builds the index from the
   * store; and, the bound under it, the page reading the same records from IndexedDB and nothing else
   * (`storeReadMs`, absent before 2026-11-29).
   */
  noSnapshot: { firstSearchMs: number; loadMs: number; storeReadMs?: number };
  /**
   * At 100,000 only, another build from the store (stopped, deleted again): creates sent into it one after
   * another from 1 s on, each until its body is read, and that build's first search (absent before
   * 2026-11-29, when a write waited for the whole build).
   */
  createsDuringBuild?: { creates: Stats; firstSearchMs: number };
  /**
   * At 100,000 only: one edit after a worker stop (the worker starts, follows it, saves its snapshots
   * once quiet), then an echo every 10 ms for EDIT_WINDOW_MS: the longest any of them waited, each round,
   * and whether the search snapshot was saved within the window (absent before 2026-11-29, when the
   * snapshots were made at once, about 2 s without an answer).
   */
  editStalls?: { longestMs: number[]; savedInWindow: boolean[] };
  snapshotSavedAfterMs: number | null;
  /**
   * At 10,000 only, after the worker-stop figures (the worker idle): the page writing the records the import
   * stored into a fresh IndexedDB itself, in as many transactions (library-import.ts `timeStoreWrite`),
   * the import's floor in this browser; and the same with the vectors the worker stored as it followed
   * the import, as they are stored when measured (absent before 2026-12-02; one record an asset until
   * 1ca9201, since then the vector snapshot and the chunks after it).
   */
  writeFloor?: { perSecond: number; records: number; withVectors: { perSecond: number; records: number } };
  /** Time in the worker: query analysis and ranking (Server-Timing `rank`). */
  index: Stats;
  /** Page fetch until the body is read. */
  endToEnd: Stats;
  /** Reading the result assets in the worker (Server-Timing `assets`). */
  assetsRead: Stats;
  meanResults: number;
  coldStart?: {
    firstAnswer: Stats;
    load: Stats;
    catchup: Stats;
    rank: Stats;
    assets: Stats;
    /** The worker's own start: a stopped worker answering `GET /api/__echo` (no app, no IndexedDB). */
    echo: Stats;
    unconfirmedStops: number;
  };
}

export interface SearchBenchResult {
  sizes: SearchSizeResult[];
  targets: { indexP95At10k: number; coldFirstAnswerAt10k: number; importPerSecond: number };
}

export interface SearchBenchOptions {
  browser: Browser;
  origin: string;
  /** Stops every service worker of the page's context (CDP) and says whether it saw them stop. */
  stopWorkers: (page: Page) => Promise<boolean>;
  log?: (line?: string) => void;
  sizes?: number[];
  queries?: number;
  seed?: number;
  /**
   * Runs after a size's search figures, in the same page, on the same library (before its context
   * closes); `query` draws more queries from the size's generator.
   */
  onLibrary?: (library: { page: Page; size: number; query: () => string }) => Promise<void>;
  /** Run right after the first search that follows the import, before anything waits for the background. */
  onImported?: (library: { page: Page; size: number; query: () => string }) => Promise<void>;
}

const WARMUP = 20;
/** The collections an import writes: its commit's scope (assets/import.ts) and the change log commit adds. */
const IMPORT_WRITES: StoreSlice[] = [...STORE_ASSET_SCOPE, ...LOG_SCOPE].map((store) => ({ store }));
/** Where the vectors are stored: per-asset records of libraries from before chunks, and the snapshot and chunks (stored-vectors.ts). */
const VECTOR_RECORDS: StoreSlice[] = [{ store: 'snippets' }, { store: 'indexes', from: VECTORS_STATE_ID, to: `${VECTORS_STATE_ID}\uffff` }];
/**
 * The share of snippets that carry tags, in libraries of up to 10,000 (none in bigger ones, as in the
 * figures so far). Linking once rewrote the tag's list of every asset, so tagged imports slowed as the
 * library grew; a link is one record now (links/link-records.ts), but the sizes keep their libraries.
 */
const TAG_SHARE = Number(process.env.BENCH_TAG_SHARE ?? 0.2);
/** At most this many creates sent into a build from the store at 100,000 (one after another while it runs). */
const CREATES_DURING_BUILD = 20;
/** Edits measured at 100,000 (each after a worker stop), and how long echoes are sent after each. */
const EDIT_ROUNDS = 3;
const EDIT_WINDOW_MS = 8000;
/** Worker stops measured at 10,000 (each: a first search and, after another stop, an echo). */
const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES || 15);

export async function runSearchBench(options: SearchBenchOptions): Promise<SearchBenchResult> {
  const log = options.log ?? ((line = '') => console.log(line));
  const sizes = options.sizes ?? [10_000, 100_000];
  const queryCount = options.queries ?? 200;
  const seed = options.seed ?? 1;
  const out: SearchSizeResult[] = [];
  log(`\nSearch — GET /api/assets/search?transferables=false over generated snippets (${queryCount} queries after ${WARMUP} warm-up, a fresh IndexedDB per size)`);
  for (const size of sizes) {
    const context = await options.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${options.origin}/?ui=off`); // no live UI refetching between the measurements
      await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
      const gen = new SnippetGen(seed + size, size <= 10_000 ? TAG_SHARE : 0);

      const importSeconds = (await importSeeds(page, size, () => gen.seed())) / 1000;

      const queries = Array.from({ length: WARMUP + queryCount }, () => gen.query());
      const first = await page.evaluate(searchEach, [queries[0]!]);
      await options.onImported?.({ page, size, query: () => gen.query() });
      const savedAfter = await waitForSnapshot(page, 60_000 + size);
      const timed = await page.evaluate(searchEach, queries);
      const measured = timed.slice(WARMUP);
      // No snapshot at all (a first start after an upgrade that changed its format, say): stopped, deleted.
      await options.stopWorkers(page);
      await deleteSearchSnapshot(page);
      const [rebuilt] = await page.evaluate(searchEach, [gen.query()]);
      // The worker saves the index it rebuilt; the stops below measure a start from that snapshot.
      const resaved = await waitForSnapshot(page, 60_000 + size);
      if (resaved === null) log(`  (the rebuilt index was NOT saved within ${60 + size / 1000} s: the stops below rebuild it)`);
      const storeReadMs = await timeStoreRead(page, DOCUMENT_SCOPE);
      let createsDuringBuild: SearchSizeResult['createsDuringBuild'];
      let editStalls: SearchSizeResult['editStalls'];
      if (size >= 100_000) {
        await options.stopWorkers(page);
        await deleteSearchSnapshot(page);
        const bodies = Array.from({ length: CREATES_DURING_BUILD }, (_, i) => seedBody(`def written_during_build_${i}(x):\n    return x * ${i}`));
        const during = await page.evaluate(createsDuringSearch, { query: gen.query(), startMs: 1000, gapMs: 250, bodies });
        createsDuringBuild = { creates: stats(during.creates), firstSearchMs: round(during.searchMs) };
        if ((await waitForSnapshot(page, 60_000 + size)) === null) log(`  (the index rebuilt with creates under way was NOT saved within ${60 + size / 1000} s)`);
        editStalls = { longestMs: [], savedInWindow: [] };
        for (let i = 0; i < EDIT_ROUNDS; i++) {
          await options.stopWorkers(page);
          const body = seedBody(`def edited_after_a_stop_${i}(x):\n    return x - ${i}`);
          editStalls.longestMs.push(round(await page.evaluate(longestEchoAfterEdit, { body, windowMs: EDIT_WINDOW_MS })));
          editStalls.savedInWindow.push((await waitForSnapshot(page, 1)) !== null); // looked at once
        }
      }
      const result: SearchSizeResult = {
        assets: size,
        importSeconds: round(importSeconds),
        importPerSecond: Math.round(size / importSeconds),
        firstSearchMs: round(first[0]!.total),
        firstSearchLoadMs: round(first[0]!.load),
        noSnapshot: { firstSearchMs: round(rebuilt!.total), loadMs: round(rebuilt!.load), storeReadMs: round(storeReadMs) },
        ...(createsDuringBuild ? { createsDuringBuild } : {}),
        ...(editStalls ? { editStalls } : {}),
        snapshotSavedAfterMs: savedAfter === null ? null : Math.round(savedAfter),
        index: stats(measured.map((m) => m.rank)),
        endToEnd: stats(measured.map((m) => m.total)),
        assetsRead: stats(measured.map((m) => m.assets)),
        meanResults: round(measured.reduce((s, m) => s + m.results, 0) / measured.length),
      };

      log(`  ${size.toLocaleString('en')} assets: imported in ${importSeconds.toFixed(1)} s (${result.importPerSecond}/s); first search after it ${ms(result.firstSearchMs)} (of which loading the index ${ms(result.firstSearchLoadMs)}), snapshot saved ${savedAfter === null ? 'NOT within the wait' : `${ms(savedAfter)} later`}; with no snapshot (worker stopped, saved index deleted) ${ms(result.noSnapshot.firstSearchMs)} (building the index ${ms(result.noSnapshot.loadMs)}; the page reading the records it is built from, alone: ${ms(storeReadMs)})`);
      if (createsDuringBuild) log(line('  creates sent into another such build', createsDuringBuild.creates, `; that first search ${ms(createsDuringBuild.firstSearchMs)}`));
      if (editStalls) log(`  an edit after a worker stop: the longest echo wait in the ${EDIT_WINDOW_MS / 1000} s after it ${editStalls.longestMs.map(ms).join(', ')} (search snapshot saved within: ${editStalls.savedInWindow.join(', ')})`);
      log(line('  in the worker (rank)', result.index));
      log(line('  end to end (page fetch)', result.endToEnd, `, ${result.meanResults.toFixed(0)} results a query`));
      log(line('  of which reading the results', result.assetsRead));

      if (size === 10_000) {
        const cold: { total: number[]; load: number[]; catchup: number[]; rank: number[]; assets: number[]; echo: number[] } = { total: [], load: [], catchup: [], rank: [], assets: [], echo: [] };
        let unconfirmed = 0;
        const stop = async () => {
          if (!(await options.stopWorkers(page))) unconfirmed++;
          await new Promise((r) => setTimeout(r, 50));
        };
        for (let i = 0; i < COLD_SAMPLES; i++) {
          await stop();
          const [answer] = await page.evaluate(searchEach, [gen.query()]);
          cold.total.push(answer!.total);
          cold.load.push(answer!.load);
          cold.catchup.push(answer!.catchup);
          cold.rank.push(answer!.rank);
          cold.assets.push(answer!.assets);
          await stop();
          cold.echo.push(await page.evaluate(pageEcho));
        }
        result.coldStart = {
          firstAnswer: stats(cold.total),
          load: stats(cold.load),
          catchup: stats(cold.catchup),
          rank: stats(cold.rank),
          assets: stats(cold.assets),
          echo: stats(cold.echo),
          unconfirmedStops: unconfirmed,
        };
        log(line('  worker stopped -> first search answer', result.coldStart.firstAnswer, ', median is p50'));
        log(line('    of which restoring the saved index', result.coldStart.load));
        log(line('    of which catching up (change log)', result.coldStart.catchup));
        log(line('    of which ranking', result.coldStart.rank));
        log(line('    of which reading the results', result.coldStart.assets));
        log(line('  worker stopped -> GET /api/__echo (no app)', result.coldStart.echo));
        if (unconfirmed) log(`    note: ${unconfirmed} stop(s) not confirmed by CDP`);
        const alone = await timeStoreWrite(page, IMPORT_WRITES, importRequests(size));
        const withVectors = await timeStoreWrite(page, [...IMPORT_WRITES, ...VECTOR_RECORDS], importRequests(size));
        const rate = (w: { ms: number }) => Math.round(size / (w.ms / 1000));
        result.writeFloor = { perSecond: rate(alone), records: alone.records, withVectors: { perSecond: rate(withVectors), records: withVectors.records } };
        log(
          `  the import's floor: the page writing the records it stored (${alone.records.toLocaleString('en')}) to a fresh IndexedDB itself, in as many transactions: ${rate(alone)} assets/s ` +
            `(the import ${round(result.importPerSecond / rate(alone))}× that); with the vectors the worker stored (${withVectors.records.toLocaleString('en')} records): ${rate(withVectors)} assets/s (the import ${round(result.importPerSecond / rate(withVectors))}×)`,
        );
      }
      out.push(result);
      await options.onLibrary?.({ page, size, query: () => gen.query() });
    } finally {
      await context.close();
    }
  }
  const at10k = out.find((r) => r.assets === 10_000);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  if (at10k) {
    log(`  targets at 10,000: p95 in the worker ${ms(at10k.index.p95)} (<= 5 ms: ${verdict(at10k.index.p95 <= 5)}); first answer after a stop p50 ${ms(at10k.coldStart?.firstAnswer.p50 ?? NaN)} (<= 150 ms: ${verdict((at10k.coldStart?.firstAnswer.p50 ?? Infinity) <= 150)})`);
  }
  if (out.length) {
    const rates = out.map((r) => `${r.importPerSecond}/s at ${r.assets.toLocaleString('en')}`).join(', ');
    log(`  target import >= ${IMPORT_TARGET.toLocaleString('en')} assets/s at every size: ${rates} (${verdict(out.every((r) => r.importPerSecond >= IMPORT_TARGET))})`);
  }
  return { sizes: out, targets: { indexP95At10k: 5, coldFirstAnswerAt10k: 150, importPerSecond: IMPORT_TARGET } };
}

// ---------------------------------------------------------------------------------------------------
// Page-side functions: serialised into the page, so self-contained.

export interface TimedSearch {
  /** The fetch until its body is read. */
  total: number;
  /** Waiting for the index's turn (a background catch-up or snapshot under way). */
  wait: number;
  /** Restoring or rebuilding the index (a worker's first search only; 0 otherwise). */
  load: number;
  rank: number;
  catchup: number;
  assets: number;
  results: number;
  /** Characters of the answer's JSON. */
  bytes: number;
}

/**
 * `GET /assets/search?query=…&transferables=false` for each query in turn: each fetch until its body is
 * read, with its Server-Timing. In the page (also app.ts's baseline), and in Node against the Node host
 * (node-host.ts, `base` its URL).
 */
export function searchEach(queries: readonly string[] | { queries: readonly string[]; params: string }, base = '/api'): Promise<TimedSearch[]> {
  // From the page (`page.evaluate` passes one argument), other parameters come with the queries.
  const { queries: list, params } = 'params' in queries ? queries : { queries, params: 'transferables=false' };
  return (async () => {
    const out: TimedSearch[] = [];
    for (const query of list) {
      const t0 = performance.now();
      const response = await fetch(`${base}/assets/search?query=${encodeURIComponent(query)}&${params}`);
      const text = await response.text();
      const total = performance.now() - t0;
      if (!response.ok) throw new Error(`search ${query}: ${response.status} ${text.slice(0, 300)}`);
      const timing = Object.fromEntries(
        (response.headers.get('server-timing') ?? '').split(',').map((part) => {
          const [name, dur] = part.trim().split(';dur=');
          return [name, Number(dur)];
        }),
      );
      out.push({ total, wait: timing.wait ?? NaN, load: timing.load ?? 0, rank: timing.rank ?? NaN, catchup: timing.catchup ?? NaN, assets: timing.assets ?? NaN, results: JSON.parse(text).iterable.length, bytes: text.length });
    }
    return out;
  })();
}

/**
 * A search (the worker's first: it builds the index) and, from `startMs` into it until it answers, creates
 * of `bodies` one after another `gapMs` apart, each timed until its body is read.
 */
function createsDuringSearch({ query, startMs, gapMs, bodies }: { query: string; startMs: number; gapMs: number; bodies: string[] }): Promise<{ creates: number[]; searchMs: number }> {
  return (async () => {
    const t0 = performance.now();
    let searchMs: number | undefined;
    const searching = fetch(`/api/assets/search?query=${encodeURIComponent(query)}&transferables=false`)
      .then((r) => r.text())
      .then(() => void (searchMs = performance.now() - t0));
    const creates: number[] = [];
    await new Promise((r) => setTimeout(r, startMs));
    for (let i = 0; searchMs === undefined && i < bodies.length; i++) {
      const t = performance.now();
      const response = await fetch('/api/assets/create?transferables=false', { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[i] });
      await response.text();
      if (!response.ok) throw new Error(`create during the build: ${response.status}`);
      creates.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, gapMs));
    }
    await searching;
    return { creates, searchMs: searchMs! };
  })();
}

/** One create, then an echo every 10 ms for `windowMs`: the longest an echo waited (ms). */
function longestEchoAfterEdit({ body, windowMs }: { body: string; windowMs: number }): Promise<number> {
  return (async () => {
    const response = await fetch('/api/assets/create?transferables=false', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.text();
    if (!response.ok) throw new Error(`create: ${response.status} ${text.slice(0, 300)}`);
    const t0 = performance.now();
    let longest = 0;
    while (performance.now() - t0 < windowMs) {
      const t = performance.now();
      await (await fetch('/api/__echo')).text();
      longest = Math.max(longest, performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
    return longest;
  })();
}

function pageEcho(): Promise<number> {
  return (async () => {
    const t0 = performance.now();
    const response = await fetch('/api/__echo');
    await response.text();
    return performance.now() - t0;
  })();
}

// ---------------------------------------------------------------------------------------------------
// Standalone run: serve a build, launch Chromium, run the section.

async function standalone(): Promise<number> {
  const sizes = (argValue('--sizes') ?? '10000,100000').split(',').map(Number);
  return runSectionAlone(Number(process.env.BENCH_SEARCH_PORT || 4186), async (browser, origin) => {
    const stopWorkers = stopWorkersOf();
    const log = (text = '') => console.log(text);
    const result = await runSearchBench({
      browser,
      origin,
      stopWorkers,
      sizes,
      log,
      ...(process.argv.includes('--relevance') ? relevanceHooks(stopWorkers, log) : {}),
    });
    if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  });
}

if (process.argv[1] && /^search(-[^/]*)?\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();

/**
 * The relevance section's hooks: its first call right after the import (what the background has not
 * embedded yet), the rest once the search figures are taken.
 */
export function relevanceHooks(
  stopWorkers: (page: Page) => Promise<boolean>,
  log: (line?: string) => void,
  done: (result: RelevanceLatency) => void = () => undefined,
): Pick<SearchBenchOptions, 'onImported' | 'onLibrary'> {
  let first: FirstRelevance | undefined;
  return {
    onImported: async ({ page, size, query }) => {
      if (size === 10_000) first = await measureFirstRelevance(page, query());
    },
    onLibrary: async ({ page, size, query }) => {
      if (size === 10_000) done(await measureRelevanceLatency({ page, assets: size, query, stopWorkers, log, ...(first ? { first } : {}) }));
    },
  };
}
