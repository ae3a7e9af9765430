/**
 * Relevance latency in Chromium, through the real service worker: `POST /api/qgpt/relevance
 * {query, options: {database: true}}` (default limit, 10 snippets) from the page, on a library the caller
 * has already imported (test/bench/search.ts runs this on its 10,000 generated assets, in the same page,
 * after its search figures, so the library is imported once):
 *
 *  - the first relevance call after the import (measured by search.ts right after its first search, when
 *    the caller asks: `measureFirstRelevance`): the worker embeds writes in the background as they land
 *    (worker/core/qgpt/vectors/snippet-vectors.ts, `follow`), so this call finds most of the library embedded (how many
 *    assets were, just before it, is reported) and embeds the rest before it answers;
 *  - p50/p95 of the following calls, after a warm-up;
 *  - the worker stopped through CDP, then the first relevance call: the worker starts and reloads every
 *    snippet vector from IndexedDB (and the search index) before it ranks.
 */
import type { Page } from 'playwright-core';
import { line, ms, stats, type Stats } from './stats.ts';

export interface RelevanceLatency {
  assets: number;
  /** The first call after the import: embeds what the background has not embedded yet. */
  firstCallMs: number;
  /**
   * Assets the running worker's vector index held just before that call (GET /api/embeddings/library):
   * 0 when the worker restarted since the import, whose vectors the background then stored but this
   * worker has not loaded yet.
   */
  embeddedBefore?: number;
  /** The library's vectors after that call (GET /api/embeddings/library). */
  embedder: string;
  snippets: number;
  /** Steady calls at the default limit. */
  steady: Stats;
  /** Worker stopped, then one relevance call (reloads the vectors from IndexedDB). */
  afterStop: Stats;
  /** Those calls' parts, from their Server-Timing (worker/core/qgpt/rank.ts, RelevanceTiming). */
  afterStopParts?: Record<RelevancePart, Stats>;
  unconfirmedStops: number;
}

/** The parts of a relevance call the worker times (its `Server-Timing`), and what the output calls them. */
export const RELEVANCE_PARTS = {
  load: 'loading the index and the vectors',
  rank: 'ranking',
  texts: 'reading the top assets\' texts',
  store: 'storing the snippets',
} as const;
export type RelevancePart = keyof typeof RELEVANCE_PARTS;

export interface RelevanceLatencyOptions {
  page: Page;
  /** Library size, for the output. */
  assets: number;
  /** A query as people type them (the caller's generator). */
  query: () => string;
  /** Stops the page's service workers through CDP; says whether it saw them stop. */
  stopWorkers: (page: Page) => Promise<boolean>;
  log: (line?: string) => void;
  warmup?: number;
  samples?: number;
  stops?: number;
  /** The first call, measured by the caller right after the import (`measureFirstRelevance`); else measured here. */
  first?: FirstRelevance;
}

export interface FirstRelevance {
  firstCallMs: number;
  /** Assets the running worker's vector index held just before it. */
  embeddedBefore: number;
}

/** One relevance call, and how many assets the running worker had embedded just before it. */
export async function measureFirstRelevance(page: Page, query: string): Promise<FirstRelevance> {
  const before = await page.evaluate(async () => (await fetch('/api/embeddings/library')).json() as Promise<{ embedded: number }>);
  const [first] = await page.evaluate(pageRelevance, [query]);
  return { firstCallMs: Math.round(first!.ms), embeddedBefore: before.embedded };
}

export async function measureRelevanceLatency(options: RelevanceLatencyOptions): Promise<RelevanceLatency> {
  const { page, log } = options;
  const warmup = options.warmup ?? 10;
  const samples = options.samples ?? 100;
  const stops = options.stops ?? 8;
  const { firstCallMs, embeddedBefore } = options.first ?? (await measureFirstRelevance(page, options.query()));
  const timed = (await page.evaluate(pageRelevance, Array.from({ length: warmup + samples }, options.query))).map((call) => call.ms);
  // After the calls, which loaded the vectors (the worker may have restarted since the first call).
  const library = await page.evaluate(async () => (await fetch('/api/embeddings/library')).json() as Promise<{ embedder: string; embedded: number; snippets: number }>);
  const afterStop: { ms: number; timing: string }[] = [];
  let unconfirmed = 0;
  for (let i = 0; i < stops; i++) {
    if (!(await options.stopWorkers(page))) unconfirmed++;
    await new Promise((r) => setTimeout(r, 50));
    afterStop.push((await page.evaluate(pageRelevance, [options.query()]))[0]!);
  }
  const result: RelevanceLatency = {
    assets: options.assets,
    firstCallMs,
    embeddedBefore,
    embedder: library.embedder,
    snippets: library.snippets,
    steady: stats(timed.slice(warmup)),
    afterStop: stats(afterStop.map((call) => call.ms)),
    afterStopParts: Object.fromEntries(
      Object.keys(RELEVANCE_PARTS).map((part) => [part, stats(afterStop.map((call) => serverTimingOf(call.timing, part)))]),
    ) as Record<RelevancePart, Stats>,
    unconfirmedStops: unconfirmed,
  };
  log(`  relevance at ${options.assets.toLocaleString('en')} assets (same library) — POST /api/qgpt/relevance {query, options:{database:true}}, default limit (10), ${library.embedder}:`);
  log(
    `    first call after the import (${library.embedded.toLocaleString('en')} assets, ${library.snippets.toLocaleString('en')} snippets; ` +
      `the running worker's index held ${embeddedBefore.toLocaleString('en')} before it): ${ms(result.firstCallMs)} (target ≤ 1 s: ${result.firstCallMs <= 1000 ? 'met' : 'NOT met'})`,
  );
  // Indented like search.ts's lines, which this block follows.
  log(`  ${line('  steady (page fetch)', result.steady, `, after ${warmup} warm-up`)}`);
  log(`  ${line('  worker stopped -> first relevance', result.afterStop, ', reloads the vectors from IndexedDB')}`);
  for (const [part, what] of Object.entries(RELEVANCE_PARTS)) log(`  ${line(`    of which ${what}`, result.afterStopParts![part as RelevancePart])}`);
  if (unconfirmed) log(`    note: ${unconfirmed} stop(s) not confirmed by CDP`);
  return result;
}

/** Page side (serialised, so self-contained): each relevance call's time until its body is read, and its Server-Timing. */
function pageRelevance(queries: string[]): Promise<{ ms: number; timing: string }[]> {
  return (async () => {
    const out: { ms: number; timing: string }[] = [];
    for (const query of queries) {
      const t0 = performance.now();
      const response = await fetch('/api/qgpt/relevance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, options: { database: true } }),
      });
      const text = await response.text();
      out.push({ ms: performance.now() - t0, timing: response.headers.get('server-timing') ?? '' });
      if (!response.ok) throw new Error(`relevance ${query}: ${response.status} ${text.slice(0, 300)}`);
    }
    return out;
  })();
}

/** One part's milliseconds in a Server-Timing header (`load;dur=12.3, rank;dur=4.5`); 0 when it is not there. */
function serverTimingOf(header: string, part: string): number {
  const found = header.split(',').map((entry) => entry.trim().split(';dur=')).find(([name]) => name === part);
  return found ? Number(found[1]) : 0;
}
