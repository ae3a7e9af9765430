/** The app section's search while an import runs (app.ts's header describes it). */
import type { Page } from 'playwright-core';
import { stageImport, runImport } from './library-import.ts';
import { line, round, stats, type Stats } from './stats.ts';

/** A person typing: a search every this many ms, each after the previous one answered. */
const PAUSE_MS = 30;
const IDLE_SEARCHES = 40;

export interface DuringImportResult {
  /** The library's size before the import. */
  assets: number;
  imported: number;
  importSeconds: number;
  /** The app's search request (`fetch()` until its body is read), one after another while the import runs. */
  during: Stats;
  /** The same requests with nothing else running, just before: the baseline. */
  idle: Stats;
  /** during / idle, at p50 and p95. */
  ratio: { p50: number; p95: number };
}

export async function measureSearchDuringImport(
  page: Page,
  assets: number,
  count: number,
  seed: () => unknown,
  search: { queries: readonly string[]; params: string },
  log: (line?: string) => void,
): Promise<DuringImportResult> {
  await stageImport(page, count, seed);
  await page.evaluate(pageStartSearching, { ...search, pauseMs: PAUSE_MS, count: IDLE_SEARCHES });
  const idle = stats(await page.evaluate(pageStopSearching, { wait: true }));
  await page.evaluate(pageStartSearching, { ...search, pauseMs: PAUSE_MS });
  const importSeconds = (await runImport(page)) / 1000;
  const during = stats(await page.evaluate(pageStopSearching, { wait: false }));
  const result = { assets, imported: count, importSeconds: round(importSeconds), during, idle, ratio: { p50: round(during.p50 / idle.p50), p95: round(during.p95 / idle.p95) } };
  log(`  search while ${count.toLocaleString('en')} more are imported (in ${importSeconds.toFixed(1)} s), the app's request one after another:`);
  log(line('during the import', during));
  log(line('nothing else running (baseline)', idle, `, during/idle p50 ${result.ratio.p50.toFixed(2)}x`));
  return result;
}

// Page-side functions: serialised into the page, so self-contained.

type Searching = { stop: boolean; samples: number[]; done: Promise<void> };

/** The searches, one after another until stopped (or `count` of them). */
function pageStartSearching({ queries, params, pauseMs, count = Infinity }: { queries: readonly string[]; params: string; pauseMs: number; count?: number }): void {
  const state: Searching = { stop: false, samples: [], done: Promise.resolve() };
  state.done = (async () => {
    for (let i = 0; !state.stop && i < count; i++) {
      const t = performance.now();
      await (await fetch(`/api/assets/search?query=${encodeURIComponent(queries[i % queries.length]!)}&${params}`)).text();
      state.samples.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  (window as unknown as { __duringImport: Searching }).__duringImport = state;
}

/**
 * Their times, once the one under way has answered (it was sent during the import); `wait`: once all of
 * their `count` have, else stopped now.
 */
async function pageStopSearching({ wait }: { wait: boolean }): Promise<number[]> {
  const state = (window as unknown as { __duringImport: Searching }).__duringImport;
  if (!wait) state.stop = true;
  await state.done;
  return state.samples;
}

