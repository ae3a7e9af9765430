/**
 * The app section of the benchmark (test/bench/run.ts calls `runAppBench`): the Preact app (app/ui) as a
 * person sees it, in Chromium against the built app and worker: its first visits, then on one library of generated snippets
 * (names and words, from library-snippets.ts's generator) loaded with `POST /api/assets/import` in a fresh context,
 * first 1,000 assets, then grown to 10,000:
 *
 *  0. first visits, each in a fresh context (app-first-visit.ts says what is measured);
 *  1. keystroke -> results shown, at each size: the app open at `/`, the list (role `list` named
 *     "Library") loaded; for each query (words that occur in the library, identifiers, a few typos) the
 *     searchbox (role `searchbox` named "Search") holds the query but its last character (unmeasured), then
 *     that one character is typed (`page.keyboard`, a real keydown/input). Measured inside the page, from
 *     the keydown (`performance.now()` in a capturing listener) to the first animation frame after the
 *     list shows the expected result: before the keystroke the page computes it itself from the same
 *     search API (`GET /api/assets/search`, the rows of `GET /api/library` ranked as the app ranks them),
 *     and a MutationObserver on the list's section (and a check each frame) waits until the count reads
 *     exactly "N of M assets" (not "searching…"), every rendered row says N in `aria-setsize`, the first
 *     rows (`aria-posinset` 1..3) bear the expected names, and the app's own search request for the new
 *     query has completed (its Resource Timing entry), so an earlier render can never stop it. The
 *     baseline, measured right after each keystroke in the same page: the bare
 *     `fetch('/api/assets/search?query=…&assets=false')` of the same query (the app's own request: the hits alone) until its body is read.
 *     Where the time goes, from the app's request's Resource Timing entry: keydown -> request start,
 *     the request (with its Server-Timing `rank` and `assets`), response -> rows rendered, rows -> frame.
 *  2. first rows after a reload at 10,000 (the worker running): `page.reload()` with an init script that
 *     records `performance.now()` (milliseconds since navigation start, `performance.timeOrigin`) at the
 *     first mutation where the list holds a listitem with a button, then the next animation frame; with
 *     the milestones of the load (document served by the worker, DOMContentLoaded, `GET /api/library`
 *     sent and answered). Baseline: `GET /api/library` alone from the page (fetch until the body is read).
 *  3. search while an import runs, at the largest size (then 6,000 more imported, on a page without the
 *     UI): the app's search request (`assets=false`) sent again 30 ms after each answer for as long as the
 *     import runs (the last one sent is waited for), each timed until its body is read. Baseline: the
 *     same requests, 40 of them, just before with nothing else running.
 *
 * Targets (from the issue): keystroke -> results shown <= 50 ms at 10,000; first rows after a reload
 * <= 300 ms at 10,000. About a minute on 2 cores (40-70 s: 10 first visits, the import, 66 keystrokes, 21 reloads).
 *
 * Runs on its own too, against a build:
 *   npx vite build --outDir /work/hbench/.bench/dist        (or any folder; --dist names it)
 *   npx esbuild test/bench/app.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/app.mjs
 *   node .bench/app.mjs --dist .bench/dist [--sizes 1000,10000] [--queries 30] [--reloads 20] [--visits 10] [--json]
 * (BENCH_APP_PORT sets the port, default 4187; BENCH_SEED the generator seed, default 1.)
 */
import { cpus, loadavg } from 'node:os';
import { basename } from 'node:path';
import type { Browser } from 'playwright-core';
import { importSeeds, waitForSnapshot } from './library-import.ts';
import { SnippetGen } from './library-snippets.ts';
import { argValue, runSectionAlone } from './server.ts';
import { APP_SEARCH_PARAMS, KEYSTROKE_WARMUP, measureKeystrokes, openApp, type KeystrokeResult } from './app-keystrokes.ts';
import { measureSearchDuringImport, type DuringImportResult } from './app-during-import.ts';
import { measureReloads, type ReloadResult } from './app-reloads.ts';
import { measureFirstVisits, type FirstVisitResult } from './app-first-visit.ts';
import { ms, round } from './stats.ts';

export interface AppBenchResult {
  /** The machine's load average (1 min) when the section started and ended: other work inflates every figure. */
  loadavg: { start: number; end: number };
  /** Fresh contexts opening the app: the worker installed (its offline copy made) and ready, the first create. */
  firstVisit: FirstVisitResult;
  sizes: { assets: number; importSeconds: number; keystroke: KeystrokeResult }[];
  reload?: ReloadResult;
  /** Search as you type while more assets are imported, after the reloads at the largest size. */
  duringImport?: DuringImportResult;
  targets: { keystrokeAt10k: number; firstRowsAt10k: number };
}

export interface AppBenchOptions {
  browser: Browser;
  origin: string;
  log?: (line?: string) => void;
  /** Library sizes, ascending; one library grown from one to the next. Default 1,000 and 10,000. */
  sizes?: number[];
  /** Measured keystrokes per size (after KEYSTROKE_WARMUP). */
  queries?: number;
  /** Measured reloads at the largest size (after one warm-up). */
  reloads?: number;
  /** First visits measured, each in a fresh context. */
  visits?: number;
  seed?: number;
}

/** Tagged snippets slow the import as the library grows (see search.ts); a few are enough for the rows' chips. */
const TAG_SHARE = 0.05;
const TARGET_KEYSTROKE = 50;
const TARGET_FIRST_ROWS = 300;
/**
 * Imported after the reloads, while the app's search request runs one after another: enough for 20
 * searches or more (a p95) at this machine's import rate (2,000 took 0.7 s, 6 searches).
 */
const DURING_IMPORT_COUNT = 6_000;

export async function runAppBench(options: AppBenchOptions): Promise<AppBenchResult> {
  const log = options.log ?? ((text = '') => console.log(text));
  const sizes = [...(options.sizes ?? [1_000, 10_000])].sort((a, b) => a - b);
  const queryCount = Math.max(20, options.queries ?? 30);
  const reloadCount = Math.max(10, options.reloads ?? 20);
  const seed = options.seed ?? 1;
  const loadStart = round(loadavg()[0]!);
  log(`\nApp — the Preact UI at / in Chromium: first visits, keystroke -> results shown (${queryCount} keystrokes after ${KEYSTROKE_WARMUP} warm-up a size), first rows after a reload (one library grown from ${sizes.map((s) => s.toLocaleString('en')).join(' to ')}, fresh context)`);
  const firstVisit = await measureFirstVisits(options.browser, options.origin, options.visits ?? 10, log);
  const out: AppBenchResult = { loadavg: { start: loadStart, end: NaN }, firstVisit, sizes: [], targets: { keystrokeAt10k: TARGET_KEYSTROKE, firstRowsAt10k: TARGET_FIRST_ROWS } };

  const context = await options.browser.newContext();
  try {
    const page = await context.newPage();
    const gen = new SnippetGen(seed + 7, TAG_SHARE);
    let imported = 0;
    for (const size of sizes) {
      // Import on the page without the UI (`/?ui=off`): the live list would re-read every row after each import.
      await page.goto(`${options.origin}/?ui=off`);
      await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
      const importSeconds = (await importSeeds(page, size - imported, () => namedSeed(gen))) / 1000;
      // The index caught up and saved, so no snapshot write runs under the measurements.
      await page.evaluate(async () => void (await (await fetch('/api/assets/search?query=warm&assets=false')).text()));
      const savedAfter = await waitForSnapshot(page, 60_000);
      log(`  ${size.toLocaleString('en')} assets: ${(size - imported).toLocaleString('en')} imported in ${importSeconds.toFixed(1)} s${savedAfter === null ? ' (index snapshot NOT saved within 60 s)' : ''}`);
      imported = size;

      await openApp(page, options.origin);
      const keystroke = await measureKeystrokes(page, size, queries(gen, KEYSTROKE_WARMUP + queryCount), log);
      out.sizes.push({ assets: size, importSeconds: round(importSeconds), keystroke });

      if (size === sizes[sizes.length - 1]) {
        out.reload = await measureReloads(page, size, reloadCount, log);
        await page.goto(`${options.origin}/?ui=off`);
        await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
        const search = { queries: queries(gen, 20).map((q) => q.text), params: APP_SEARCH_PARAMS };
        out.duringImport = await measureSearchDuringImport(page, size, DURING_IMPORT_COUNT, () => namedSeed(gen), search, log);
      }
    }
  } finally {
    await context.close();
  }

  out.loadavg.end = round(loadavg()[0]!);
  log(`  load average (1 min) ${out.loadavg.start.toFixed(2)} at the start, ${out.loadavg.end.toFixed(2)} at the end (${cpus().length} CPUs)`);
  const top = out.sizes.find((s) => s.assets === 10_000);
  const verdict = (x: number, target: number) => (x <= target ? 'met' : 'NOT met');
  if (top) {
    const k = top.keystroke.ui;
    log(`  target keystroke -> results shown at 10,000 <= ${TARGET_KEYSTROKE} ms: p50 ${ms(k.p50)} ${verdict(k.p50, TARGET_KEYSTROKE)}, p95 ${ms(k.p95)} ${verdict(k.p95, TARGET_KEYSTROKE)}`);
  }
  if (out.reload?.assets === 10_000) {
    const r = out.reload.firstFrame;
    log(`  target first rows after a reload at 10,000 <= ${TARGET_FIRST_ROWS} ms: p50 ${ms(r.p50)} ${verdict(r.p50, TARGET_FIRST_ROWS)}, p95 ${ms(r.p95)} ${verdict(r.p95, TARGET_FIRST_ROWS)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Library and queries

/** A generated snippet with a name of a few words (the rows show names; search weighs them). */
function namedSeed(gen: SnippetGen) {
  const seed = gen.seed();
  const name = `${gen.cap(gen.verb())} ${gen.noun()}${gen.int(0, 1) ? ` ${gen.noun()}` : ''}`;
  return { asset: { ...seed.asset, metadata: { ...(seed.asset as { metadata?: object }).metadata, name } } };
}

export interface Query {
  text: string;
  typo: boolean;
}

/** Distinct queries of words from the generator's vocabulary: single words, two words, identifiers, typos. */
function queries(gen: SnippetGen, count: number): Query[] {
  const out: Query[] = [];
  const seen = new Set<string>();
  while (out.length < count) {
    const kind = gen.int(0, 9);
    let text: string;
    let typo = false;
    if (kind <= 3) text = gen.noun();
    else if (kind <= 5) text = `${gen.verb()} ${gen.noun()}`;
    else if (kind <= 7) text = gen.camel();
    else {
      let w = gen.noun();
      while (w.length < 5) w = gen.noun();
      const i = gen.int(1, w.length - 3); // two inner letters swapped, the last one left: it is the one typed
      text = `${w.slice(0, i)}${w[i + 1]}${w[i]}${w.slice(i + 2)}`;
      typo = true;
    }
    // The measured keystroke is the last character: a letter (never a space).
    if (text.length < 3 || !/[a-z]$/i.test(text) || seen.has(text)) continue;
    seen.add(text);
    out.push({ text, typo });
  }
  // A typo among the warm-up ones: the first typo lookup loads FlexSearch's script in the worker.
  const firstTypo = out.findIndex((q) => q.typo);
  if (firstTypo > 0) out.unshift(...out.splice(firstTypo, 1));
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Standalone run: serve a build, launch Chromium, run the section.

async function standalone(): Promise<number> {
  const sizes = argValue('--sizes')?.split(',').map(Number);
  const queries = argValue('--queries') ? Number(argValue('--queries')) : undefined;
  const reloads = argValue('--reloads') ? Number(argValue('--reloads')) : undefined;
  const visits = argValue('--visits') ? Number(argValue('--visits')) : undefined;
  return runSectionAlone(Number(process.env.BENCH_APP_PORT || 4187), async (browser, origin) => {
    const t0 = Date.now();
    const result = await runAppBench({
      browser,
      origin,
      seed: Number(process.env.BENCH_SEED || 1),
      ...(sizes && { sizes }),
      ...(queries !== undefined && { queries }),
      ...(reloads !== undefined && { reloads }),
      ...(visits !== undefined && { visits }),
    });
    console.log(`\n(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  });
}

if (process.argv[1] && /^app(-[^/]*)?\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();
