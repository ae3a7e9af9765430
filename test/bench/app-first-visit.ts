/**
 * The app section's first visit (app.ts runs it first): a fresh browser context (no worker, no caches, no
 * IndexedDB) opens the app at `/`, as a person's first visit does. Measured inside the page, from
 * navigation start: the page's `load` event (the baseline: the page and its scripts from the network),
 * `ready()` resolved (the worker installed, active, controlling the page and answering its health check),
 * the app mounted (its first element in `#root` in place of the boot line); then, from `ready()`, the
 * first `POST /api/assets/create` answered (the first snippet a person saves). The worker's install keeps
 * the shell, the lazy scripts and the language model offline before it activates, so `ready()` includes
 * that copy.
 */
import type { Browser } from 'playwright-core';
import { fragmentSeed } from '../support/seeds.ts';
import { line, stats, type Stats } from './stats.ts';

export interface FirstVisitResult {
  /** Navigation start -> the page's `load` event. */
  load: Stats;
  /** Navigation start -> `ready()` resolved. */
  ready: Stats;
  /** Navigation start -> the app's first element in `#root` (in place of the page's boot line). */
  mounted: Stats;
  /** The first create, sent once `ready()` resolved, until its body is read. */
  firstCreate: Stats;
}

interface Marks {
  ready?: number;
  mounted?: number;
}

/** Init script: when `window.tessera` appears, the time `ready()` resolves; the app's first element in `#root`. */
function initMarks(): void {
  if (window.top !== window) return;
  const marks: Marks = {};
  (window as unknown as { __visit: Marks }).__visit = marks;
  const poll = setInterval(() => {
    const tessera = (window as unknown as { tessera?: { ready(): Promise<void> } }).tessera;
    if (!tessera) return;
    clearInterval(poll);
    void tessera.ready().then(() => (marks.ready = performance.now()));
  }, 1);
  const observer = new MutationObserver(() => {
    // The page's boot line (`#status`) until the app replaces it.
    const first = document.getElementById('root')?.firstElementChild;
    if (marks.mounted !== undefined || !first || first.id === 'status') return;
    marks.mounted = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

export async function measureFirstVisits(browser: Browser, origin: string, count: number, log: (line?: string) => void): Promise<FirstVisitResult> {
  const samples = { load: [] as number[], ready: [] as number[], mounted: [] as number[], firstCreate: [] as number[] };
  for (let i = 0; i < count; i++) {
    const context = await browser.newContext();
    try {
      await context.addInitScript(initMarks);
      const page = await context.newPage();
      await page.goto(`${origin}/`, { waitUntil: 'load' });
      const visit = await page.evaluate(async (seed) => {
        const w = window as unknown as { __visit: Marks; tessera: { ready(): Promise<void> } };
        await w.tessera.ready();
        const t = performance.now();
        const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) });
        await response.text();
        if (!response.ok) throw new Error(`create answered ${response.status}`);
        const firstCreate = performance.now() - t;
        while (w.__visit.mounted === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return { ...w.__visit, load: nav.loadEventStart, firstCreate };
      }, fragmentSeed('def first_visit(path):\n    return open(path).read()\n'));
      samples.load.push(visit.load);
      samples.ready.push(visit.ready!);
      samples.mounted.push(visit.mounted!);
      samples.firstCreate.push(visit.firstCreate);
    } finally {
      await context.close();
    }
  }
  const out: FirstVisitResult = {
    load: stats(samples.load),
    ready: stats(samples.ready),
    mounted: stats(samples.mounted),
    firstCreate: stats(samples.firstCreate),
  };
  log(`  first visit (fresh context), ms since navigation start, ${count} visits:`);
  log(line('the page\'s load event (baseline)', out.load));
  log(line('ready() resolved', out.ready));
  log(line('the app mounted', out.mounted));
  log(line('the first create, from ready()', out.firstCreate));
  return out;
}
