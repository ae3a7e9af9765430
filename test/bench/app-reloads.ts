/** The app section's first rows after a reload measurement (app.ts's header describes it). */
import type { Page } from 'playwright-core';
import { line, stats, type Stats } from './stats.ts';

const RELOAD_TIMEOUT_MS = 30_000;
const LIBRARY_FETCHES = 10;

export interface ReloadResult {
  assets: number;
  /** Navigation start -> the first listitem with a button in the list. */
  firstRows: Stats;
  /** Navigation start -> the first animation frame after it. */
  firstFrame: Stats;
  /** Navigation start -> the list's rows all there (a listitem says the library's size in `aria-setsize`). */
  allRows: Stats;
  /** Milestones of the same loads, ms since navigation start. */
  milestones: {
    documentServed: Stats;
    domContentLoaded: Stats;
    /** `GET /api/library?first=…`, the list's first screen (the app asks for it alone while it loads). */
    firstScreenRequestStart: Stats;
    firstScreenResponseEnd: Stats;
    /** `GET /api/library`, every row. */
    libraryRequestStart: Stats;
    libraryResponseEnd: Stats;
    /** Main-thread time in long tasks (> 50 ms) before that frame. */
    longTasks: Stats;
  };
  /** `GET /api/library` alone from the page, fetch until the body is read; and JSON.parse of the body. */
  libraryFetch: Stats;
  libraryHeaders: Stats;
  libraryBody: Stats;
  libraryParse: Stats;
  libraryBytes: number;
  timeouts: number;
}


interface FirstRows {
  rowsAt: number | null;
  frameAt: number | null;
  allRowsAt: number | null;
  /** Long tasks (over 50 ms) of the page's main thread: [start, duration]. */
  longTasks: [number, number][];
}

/**
 * Init script: the first mutation where the list holds a listitem with a button, then the next frame; and
 * the first where a listitem counts `size` rows (all of them).
 */
function initFirstRows(size: number): void {
  if (window.top !== window) return;
  const rec: FirstRows = { rowsAt: null, frameAt: null, allRowsAt: null, longTasks: [] };
  (window as unknown as { __firstRows: FirstRows }).__firstRows = rec;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) rec.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no Long Tasks API: the figure is left out
  }
  const observer = new MutationObserver(() => {
    if (rec.rowsAt === null && document.querySelector('ul[aria-label="Library"] > li button')) {
      rec.rowsAt = performance.now();
      requestAnimationFrame(() => (rec.frameAt = performance.now()));
    }
    if (rec.rowsAt !== null && document.querySelector(`ul[aria-label="Library"] > li[aria-setsize="${size}"]`)) {
      rec.allRowsAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-setsize'] });
}

interface LoadSample extends FirstRows {
  documentServed: number;
  domContentLoaded: number;
  firstScreenRequestStart: number;
  firstScreenResponseEnd: number;
  libraryRequestStart: number;
  libraryResponseEnd: number;
  /** Main-thread time in long tasks before the first frame with rows. */
  longTaskMs: number;
}

function pageLoadSample(): LoadSample {
  const rec = (window as unknown as { __firstRows: FirstRows }).__firstRows;
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
  const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({ e, url: new URL(e.name) }));
  const firstScreen = entries.find(({ url }) => url.pathname === '/api/library' && url.searchParams.has('first'))?.e;
  const library = entries.find(({ url }) => url.pathname === '/api/library' && url.search === '')?.e;
  return {
    ...rec,
    documentServed: nav.responseEnd,
    domContentLoaded: nav.domContentLoadedEventEnd,
    firstScreenRequestStart: firstScreen?.startTime ?? NaN,
    firstScreenResponseEnd: firstScreen?.responseEnd ?? NaN,
    libraryRequestStart: library?.startTime ?? NaN,
    libraryResponseEnd: library?.responseEnd ?? NaN,
    longTaskMs: rec.longTasks.filter(([start]) => start < (rec.frameAt ?? Infinity)).reduce((sum, [start, d]) => sum + Math.min(d, (rec.frameAt ?? Infinity) - start), 0),
  };
}

interface LibraryFetches {
  fetch: number[];
  /** Request start -> response headers (the worker builds the whole JSON body before it answers). */
  headers: number[];
  /** Response headers -> body read. */
  body: number[];
  parse: number[];
  bytes: number;
}

function pageLibraryFetches(n: number): Promise<LibraryFetches> {
  return (async () => {
    const out: LibraryFetches = { fetch: [], headers: [], body: [], parse: [], bytes: 0 };
    for (let i = 0; i < n; i++) {
      performance.clearResourceTimings();
      const t0 = performance.now();
      const response = await fetch('/api/library');
      const text = await response.text();
      const t1 = performance.now();
      JSON.parse(text);
      out.parse.push(performance.now() - t1);
      out.fetch.push(t1 - t0);
      out.bytes = text.length;
      const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => new URL(e.name).pathname === '/api/library');
      if (entry && entry.responseStart > 0) {
        out.headers.push(entry.responseStart - entry.startTime);
        out.body.push(entry.responseEnd - entry.responseStart);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return out;
  })();
}

export async function measureReloads(page: Page, size: number, count: number, log: (line?: string) => void): Promise<ReloadResult> {
  // The list of every asset (no query in the URL), then the init script for the reloads.
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await page.waitForURL((url) => url.search === '');
  await page.addInitScript(initFirstRows, size);
  const samples: LoadSample[] = [];
  let timeouts = 0;
  for (let i = 0; i < count + 1; i++) {
    await page.reload();
    try {
      await page.waitForFunction(() => {
        const r = (window as unknown as { __firstRows?: FirstRows }).__firstRows;
        return r?.frameAt != null && r.allRowsAt != null;
      }, undefined, { timeout: RELOAD_TIMEOUT_MS, polling: 50 });
    } catch {
      timeouts++;
      continue;
    }
    const sample = await page.evaluate(pageLoadSample);
    if (i > 0) samples.push(sample);
    // Let the page finish what it does after the first rows (first lines, the change stream) before the next reload.
    await page.waitForTimeout(300);
  }
  const library = await page.evaluate(pageLibraryFetches, LIBRARY_FETCHES);
  const pick = (f: (s: LoadSample) => number | null) => stats(samples.map(f).filter((x): x is number => x !== null && Number.isFinite(x)));
  const result: ReloadResult = {
    assets: size,
    firstRows: pick((s) => s.rowsAt),
    firstFrame: pick((s) => s.frameAt),
    allRows: pick((s) => s.allRowsAt),
    milestones: {
      documentServed: pick((s) => s.documentServed),
      domContentLoaded: pick((s) => s.domContentLoaded),
      firstScreenRequestStart: pick((s) => s.firstScreenRequestStart),
      firstScreenResponseEnd: pick((s) => s.firstScreenResponseEnd),
      libraryRequestStart: pick((s) => s.libraryRequestStart),
      libraryResponseEnd: pick((s) => s.libraryResponseEnd),
      longTasks: pick((s) => s.longTaskMs),
    },
    libraryFetch: stats(library.fetch),
    libraryHeaders: stats(library.headers),
    libraryBody: stats(library.body),
    libraryParse: stats(library.parse),
    libraryBytes: library.bytes,
    timeouts,
  };
  const m = result.milestones;
  log(`  reload at ${size.toLocaleString('en')} assets (worker running), ms since navigation start, ${samples.length} reloads after 1 warm-up:`);
  log(line('first rows shown (frame)', result.firstFrame));
  log(line('  first listitem in the list', result.firstRows));
  log(line('  document served (responseEnd)', m.documentServed));
  log(line('  DOMContentLoaded', m.domContentLoaded));
  log(line('  GET /api/library?first= sent', m.firstScreenRequestStart));
  log(line('  GET /api/library?first= answered', m.firstScreenResponseEnd));
  log(line('  GET /api/library sent', m.libraryRequestStart));
  log(line('  GET /api/library answered', m.libraryResponseEnd));
  log(line('  all rows in the list', result.allRows));
  log(line('  main thread in long tasks until then', m.longTasks));
  log(line('GET /api/library alone (page fetch)', result.libraryFetch, `, ${(library.bytes / 1e6).toFixed(2)} MB body`));
  log(line('  request -> response headers', result.libraryHeaders));
  log(line('  headers -> body read', result.libraryBody));
  log(line('  JSON.parse of its body', result.libraryParse));
  if (timeouts) log(`    ${timeouts} reload(s) showed no row within ${RELOAD_TIMEOUT_MS / 1000} s`);
  return result;
}
