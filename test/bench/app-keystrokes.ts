/** The app section's keystroke -> results shown measurement (app.ts's header describes it). */
import type { Page } from 'playwright-core';
import type { Query } from './app.ts';
import { searchEach } from './search.ts';
import { line, round, stats, type Stats } from './stats.ts';

/** Keystrokes a size that are typed but not measured. */
export const KEYSTROKE_WARMUP = 3;
const KEY_TIMEOUT_MS = 10_000;
/** What the app's search as you type asks for (app/client api.ts `searchHits`): the baseline asks the same. */
export const APP_SEARCH_PARAMS = 'assets=false';

export interface KeystrokeResult {
  assets: number;
  /** Keydown -> first frame after the list shows the query's results. */
  ui: Stats;
  /** The bare `fetch()` of the app's own search request (APP_SEARCH_PARAMS) from the page, until its body is read. */
  baseline: Stats;
  /** The baseline's Server-Timing `assets` (reading the results in the worker). */
  baselineAssetsRead: Stats;
  /** Mean size of a search answer (characters of JSON): 50 whole assets, of which the list uses ids and scores. */
  searchBodyChars: number;
  /** ui / baseline, at p50 and p95. */
  ratio: { p50: number; p95: number };
  /** Where the time goes, from the app's own search request (Resource Timing). */
  breakdown: {
    inputToRequest: Stats;
    request: Stats;
    /** Server-Timing of the app's request: ranking and reading the result assets in the worker. */
    rank: Stats;
    assetsRead: Stats;
    responseToRows: Stats;
    rowsToFrame: Stats;
  };
  /** Keydown -> the rendered rows' first lines filled (GET /api/library/previews), within 2 s. */
  previews: Stats;
  meanResults: number;
  zeroResultQueries: number;
  typos: number;
  timeouts: number;
  /** Rows matched before the app's request had its Resource Timing entry (then caught at the next frame). */
  lateEntries: number;
  queries: string[];
}


export async function openApp(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('list', { name: 'Library' }).waitFor({ state: 'attached', timeout: 30_000 });
  await page.evaluate(pageInstallHarness);
  const settled = await page.evaluate(pageSettle, { query: '', timeoutMs: 30_000 });
  if (!settled.ok) throw new Error(`app: the library did not show its rows: ${settled.seen}`);
}

export async function measureKeystrokes(page: Page, size: number, list: Query[], log: (line?: string) => void): Promise<KeystrokeResult> {
  const box = page.getByRole('searchbox', { name: 'Search' });
  const samples: KeySample[] = [];
  const baseline: number[] = [];
  const baselineAssets: number[] = [];
  const baselineBytes: number[] = [];
  let timeouts = 0;
  let late = 0;
  let value = '';
  for (const [i, query] of list.entries()) {
    const prefix = query.text.slice(0, -1);
    // (A box that already holds the prefix runs no search on a fill: the app's request for it is the last one.)
    if (prefix !== value) {
      await page.evaluate(() => performance.clearResourceTimings());
      await box.fill(prefix);
    }
    const settled = await page.evaluate(pageSettle, { query: prefix, timeoutMs: KEY_TIMEOUT_MS });
    if (!settled.ok) throw new Error(`app: the list did not settle on "${prefix}": ${settled.seen}`);
    await page.evaluate(pageArm, { query: query.text, timeoutMs: KEY_TIMEOUT_MS });
    await page.keyboard.type(query.text.slice(-1));
    value = query.text;
    const sample = await page.evaluate(() => (window as unknown as { __appBench: { result: Promise<KeySample> } }).__appBench.result);
    const [bare] = await page.evaluate(searchEach, { queries: [query.text], params: APP_SEARCH_PARAMS });
    if (i < KEYSTROKE_WARMUP) continue;
    if (!sample.ok) {
      timeouts++;
      log(`    keystroke timed out for "${query.text}": expected ${sample.expected}, saw ${sample.seen}`);
      continue;
    }
    if (sample.late) late++;
    samples.push({ ...sample, typo: query.typo });
    baseline.push(bare!.total);
    baselineAssets.push(bare!.assets);
    baselineBytes.push(bare!.bytes);
  }
  const ui = stats(samples.map((s) => s.frame));
  const base = stats(baseline);
  const result: KeystrokeResult = {
    assets: size,
    ui,
    baseline: base,
    baselineAssetsRead: stats(baselineAssets.filter(Number.isFinite)),
    searchBodyChars: Math.round(baselineBytes.reduce((a, b) => a + b, 0) / Math.max(1, baselineBytes.length)),
    ratio: { p50: round(ui.p50 / base.p50), p95: round(ui.p95 / base.p95) },
    breakdown: {
      inputToRequest: stats(samples.map((s) => s.requestStart)),
      request: stats(samples.map((s) => s.responseEnd - s.requestStart)),
      rank: stats(samples.map((s) => s.rank).filter(Number.isFinite)),
      assetsRead: stats(samples.map((s) => s.assets).filter(Number.isFinite)),
      responseToRows: stats(samples.map((s) => s.rows - s.responseEnd)),
      rowsToFrame: stats(samples.map((s) => s.frame - s.rows)),
    },
    previews: stats(samples.map((s) => s.previews).filter((x): x is number => x !== null)),
    meanResults: round(samples.reduce((s, x) => s + x.count, 0) / Math.max(1, samples.length)),
    zeroResultQueries: samples.filter((s) => s.count === 0).length,
    typos: samples.filter((s) => s.typo).length,
    timeouts,
    lateEntries: late,
    queries: list.slice(KEYSTROKE_WARMUP).map((q) => q.text),
  };
  const b = result.breakdown;
  log(`  ${size.toLocaleString('en')} assets, ${samples.length} keystrokes (${result.typos} typos, ${result.meanResults.toFixed(0)} results a query, ${result.zeroResultQueries} with none):`);
  log(line('keystroke -> results shown (frame)', ui));
  log(line('bare fetch of the same search', base, `, ~${Math.round(result.searchBodyChars / 1000)} kB body; ui/fetch p50 ${result.ratio.p50.toFixed(2)}, p95 ${result.ratio.p95.toFixed(2)}`));
  log(line('  keydown -> app request sent', b.inputToRequest));
  log(line('  the app request (fetch)', b.request));
  log(line('    in the worker: rank', b.rank));
  log(line('    in the worker: reading results', b.assetsRead));
  log(line('  response -> rows rendered', b.responseToRows));
  log(line('  rows rendered -> frame', b.rowsToFrame));
  log(line('  bare fetch: reading results', result.baselineAssetsRead));
  log(line('keystroke -> rows with first lines', result.previews));
  if (timeouts || late) log(`    ${timeouts} keystroke(s) timed out; ${late} matched before the request's timing entry (caught a frame later)`);
  return result;
}

interface KeySample {
  ok: boolean;
  /** Milliseconds after the keydown. */
  frame: number;
  rows: number;
  requestStart: number;
  responseEnd: number;
  rank: number;
  assets: number;
  previews: number | null;
  count: number;
  late: boolean;
  typo?: boolean;
  expected?: string;
  seen?: string;
}

// Page-side functions: serialised into the page, so self-contained; the harness is kept on `window.__appBench`.

interface Expected {
  query: string;
  /** Rows the list shows. */
  count: number;
  total: number;
  /** Names of the first rows (up to three). */
  names: string[];
}

interface Harness {
  expected(query: string): Promise<Expected>;
  matches(e: Expected): boolean;
  describe(): string;
  /** The app's own search request for `query` that started after `since` and has completed. */
  searchEntry(query: string, since: number): PerformanceResourceTiming | undefined;
  list(): HTMLElement | null;
  /** Every rendered row shows its first lines (the app's GET /api/library/previews answered). */
  previewsFilled(): boolean;
  result?: Promise<KeySample>;
}

/** Installs `window.__appBench`: the expected state of a query and the check of the rendered list against it. */
function pageInstallHarness(): void {
  performance.setResourceTimingBufferSize(100_000);
  let rows: { id: string; name: string }[] | undefined;
  const list = () => document.querySelector<HTMLElement>('ul[aria-label="Library"]');
  const counter = () => list()?.closest('section')?.querySelector<HTMLElement>('[aria-live="polite"]') ?? null;
  const harness: Harness = {
    list,
    previewsFilled() {
      const items = [...(list()?.querySelectorAll(':scope > li') ?? [])];
      return items.every((li) => (li.querySelector('pre')?.textContent ?? '') !== '');
    },
    async expected(query) {
      if (!rows) {
        const response = await fetch('/api/library');
        rows = ((await response.json()) as { rows: { id: string; name: string }[] }).rows;
      }
      const all = rows;
      const name = (r: { name: string }) => r.name || 'Untitled';
      if (!query) return { query, count: all.length, total: all.length, names: all.slice(0, 3).map(name) };
      // `bench` (ignored by the worker) tells this request from the app's own in Resource Timing.
      const response = await fetch(`/api/assets/search?query=${encodeURIComponent(query)}&assets=false&bench=expected`);
      const found = (await response.json()) as { iterable: { identifier: string; score: number }[] };
      const scores = new Map(found.iterable.map((r) => [r.identifier, r.score]));
      // As the app ranks them (library-state.ts): the library's rows that are hits, by score, stable.
      const hits = all.filter((r) => scores.has(r.id)).sort((a, b) => scores.get(b.id)! - scores.get(a.id)!);
      return { query, count: hits.length, total: all.length, names: hits.slice(0, 3).map(name) };
    },
    matches(e) {
      const ul = list();
      if (!ul) return false;
      const unit = e.total === 1 ? 'asset' : 'assets';
      const want = e.query ? `${e.count} of ${e.total} ${unit}` : `${e.total} ${unit}`;
      if (counter()?.textContent?.trim() !== want) return false;
      const items = [...ul.querySelectorAll<HTMLElement>(':scope > li')];
      if (e.count === 0) return items.length === 0;
      if (items.length === 0) return false;
      const byPosition = new Map<number, string>();
      for (const li of items) {
        if (li.getAttribute('aria-setsize') !== String(e.count)) return false;
        byPosition.set(Number(li.getAttribute('aria-posinset')), li.querySelector('button')?.textContent ?? '');
      }
      return e.names.every((n, i) => byPosition.get(i + 1) === n);
    },
    describe() {
      const ul = list();
      const items = ul ? [...ul.querySelectorAll<HTMLElement>(':scope > li')] : [];
      const first = items
        .filter((li) => Number(li.getAttribute('aria-posinset')) <= 3)
        .map((li) => `${li.getAttribute('aria-posinset')}/${li.getAttribute('aria-setsize')} ${li.querySelector('button')?.textContent}`);
      return `"${counter()?.textContent?.trim()}" [${first.join('; ')}]`;
    },
    searchEntry(query, since) {
      for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
        if (entry.startTime < since || entry.responseEnd === 0) continue;
        const url = new URL(entry.name);
        if (url.pathname === '/api/assets/search' && url.searchParams.get('query') === query && !url.searchParams.has('bench')) return entry;
      }
      return undefined;
    },
  };
  (window as unknown as { __appBench: Harness }).__appBench = harness;
}

/** Waits (each frame) until the list shows `query`'s results and the app's search for it has completed. */
function pageSettle(args: { query: string; timeoutMs: number }): Promise<{ ok: boolean; seen: string }> {
  return (async () => {
    const h = (window as unknown as { __appBench: Harness }).__appBench;
    const e = await h.expected(args.query);
    const t0 = performance.now();
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    let shownAt: number | undefined;
    while (performance.now() - t0 < args.timeoutMs) {
      // Rows, the app's request done, and the rows' first lines filled (2 s at most): no request of the app's still runs.
      const shown = h.matches(e) && (!args.query || h.searchEntry(args.query, 0) !== undefined);
      if (shown) shownAt ??= performance.now();
      if (shown && (h.previewsFilled() || performance.now() - shownAt! > 2000)) {
        await frame();
        await frame();
        return { ok: true, seen: '' };
      }
      await frame();
    }
    return { ok: false, seen: `expected ${JSON.stringify(e)}, saw ${h.describe()}` };
  })();
}

/**
 * Computes the expected state of `query`, then arms a capturing keydown listener: from the keydown, a
 * MutationObserver on the list's section (and a check each frame) waits for the expected rows and the
 * app's completed request; `__appBench.result` resolves with the times, in ms after the keydown.
 */
function pageArm(args: { query: string; timeoutMs: number }): Promise<void> {
  return (async () => {
    const h = (window as unknown as { __appBench: Harness }).__appBench;
    const e = await h.expected(args.query);
    performance.clearResourceTimings();
    let resolveResult!: (s: KeySample) => void;
    h.result = new Promise<KeySample>((r) => (resolveResult = r));
    const onKey = (event: KeyboardEvent) => {
      if (!(event.target instanceof HTMLInputElement)) return;
      window.removeEventListener('keydown', onKey, true);
      const t0 = performance.now();
      const section = h.list()?.closest('section') ?? document.body;
      let done = false;
      let domFirst = false;
      const finish = (sample: KeySample) => {
        done = true;
        observer.disconnect();
        clearTimeout(timer);
        resolveResult(sample);
      };
      const check = (inFrame: boolean) => {
        if (done || !h.matches(e)) return;
        const entry = h.searchEntry(e.query, t0);
        if (!entry) {
          domFirst = true;
          return;
        }
        const rows = performance.now();
        done = true;
        observer.disconnect();
        const timing = Object.fromEntries(entry.serverTiming.map((t) => [t.name, t.duration]));
        const sample = (frameAt: number): KeySample => ({
          ok: true,
          frame: frameAt - t0,
          rows: rows - t0,
          requestStart: entry.startTime - t0,
          responseEnd: entry.responseEnd - t0,
          rank: timing.rank ?? NaN,
          assets: timing.assets ?? NaN,
          previews: null,
          count: e.count,
          late: domFirst,
        });
        const withPreviews = (s: KeySample) => {
          // Diagnostic: until every rendered row shows its first lines (GET /api/library/previews), 2 s at most.
          const filled = () => h.previewsFilled();
          const until = performance.now() + 2000;
          const poll = () => {
            if (filled()) resolveResult({ ...s, previews: performance.now() - t0 });
            else if (performance.now() > until) resolveResult(s);
            else requestAnimationFrame(poll);
          };
          clearTimeout(timer);
          poll();
        };
        // Rows seen in a frame callback are painted in that frame; else the next frame paints them.
        if (inFrame) withPreviews(sample(rows));
        else requestAnimationFrame(() => withPreviews(sample(performance.now())));
      };
      const observer = new MutationObserver(() => check(false));
      observer.observe(section, { subtree: true, childList: true, characterData: true, attributes: true });
      const poll = () => {
        if (done) return;
        check(true);
        if (!done) requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
      const timer = setTimeout(() => {
        if (done) return;
        finish({ ok: false, frame: NaN, rows: NaN, requestStart: NaN, responseEnd: NaN, rank: NaN, assets: NaN, previews: null, count: e.count, late: domFirst, expected: JSON.stringify(e), seen: h.describe() });
      }, args.timeoutMs);
    };
    window.addEventListener('keydown', onKey, true);
  })();
}
