/**
 * Benchmark section: the embedded mode (a dedicated Worker the page starts, `startEmbedded()`) against the
 * service worker mode, reading one asset. `npm run bench` runs it as one section of test/bench/run.ts
 * (`benchEmbedded`); it also runs alone on a library of its own:
 *
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/embedded.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/embedded.mjs
 *   node .bench/embedded.mjs --dist /tmp/tessera-bench-dist        (BENCH_EMBEDDED_PORT, else a free port)
 *
 * One page, `/embedded.html`, opened in the context whose service worker is already running: the page is
 * controlled, so its own `fetch('/api/asset/{id}')` goes through the service worker, while the embedded
 * mode's `fetch` goes to its Worker; both read the same IndexedDB store. Each pair is timed until the body
 * is read, interleaved (which goes first alternates), and the ratio embedded / worker of p50 and p95.
 */
import type { Page } from 'playwright-core';
import { freePort, runSectionAlone } from './server.ts';
import { pageWithSnippets } from './streams.ts';
import { line, stats, type Stats } from './stats.ts';

const WARMUP = 50;
const SAMPLES = 500; // pairs

// Page-side code: serialised into the page, self-contained.

function pageStartEmbedded(): Promise<void> {
  const w = window as unknown as { tesseraEmbedded: { startEmbedded(): { ready(): Promise<void> } }; __embedded: unknown };
  const embedded = w.tesseraEmbedded.startEmbedded();
  w.__embedded = embedded;
  return embedded.ready();
}

function pageEmbeddedVsWorker(args: { ids: string[]; warmup: number; samples: number }): Promise<{ embedded: number[]; worker: number[]; equal: boolean; controlled: boolean }> {
  return (async () => {
    const embedded = (window as unknown as { __embedded: { fetch: typeof fetch } }).__embedded;
    const timed = async (fetchApi: typeof fetch, url: string): Promise<[number, string]> => {
      const t0 = performance.now();
      const response = await fetchApi(url);
      const text = await response.text();
      const t = performance.now() - t0;
      if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
      return [t, text];
    };
    const out = { embedded: [] as number[], worker: [] as number[], equal: true, controlled: navigator.serviceWorker.controller !== null };
    for (let i = 0; i < args.warmup + args.samples; i++) {
      const url = `/api/asset/${args.ids[i % args.ids.length]}`;
      const first = i % 2 === 0;
      const a = first ? await timed(embedded.fetch, url) : undefined;
      const w = await timed(fetch, url);
      const e = a ?? (await timed(embedded.fetch, url));
      if (e[1] !== w[1]) out.equal = false;
      if (i >= args.warmup) {
        out.embedded.push(e[0]);
        out.worker.push(w[0]);
      }
    }
    return out;
  })();
}

export interface EmbeddedBenchResult {
  librarySize: number;
  warmupPairs: number;
  embedded: Stats & { unit: 'ms' };
  worker: Stats & { unit: 'ms' };
  ratio: { p50: number; p95: number };
}

/** Opens `/embedded.html` beside `page` (same context, its service worker running) and measures. */
export async function benchEmbedded(options: { page: Page; ids: string[]; log: (text?: string) => void; phase: (title: string) => void }): Promise<EmbeddedBenchResult> {
  const { page, ids, log, phase } = options;
  const embeddedPage = await page.context().newPage();
  try {
    await embeddedPage.goto(new URL('/embedded.html', page.url()).href);
    await embeddedPage.evaluate(pageStartEmbedded);
    const read = await embeddedPage.evaluate(pageEmbeddedVsWorker, { ids, warmup: WARMUP, samples: SAMPLES });
    if (!read.controlled) throw new Error('the embedded page is not controlled by the service worker: its fetch would not reach it');
    if (!read.equal) throw new Error('the embedded mode and the service worker answered different bodies');
    const embedded = stats(read.embedded);
    const worker = stats(read.worker);
    const ratio = { p50: embedded.p50 / worker.p50, p95: embedded.p95 / worker.p95 };
    phase(`Embedded mode — GET /api/asset/{id} through startEmbedded()'s Worker vs the service worker, one page, ${SAMPLES} interleaved pairs after ${WARMUP} warm-up, library of ${ids.length}`);
    log(line('embedded: tessera.fetch (dedicated Worker)', embedded));
    log(line('worker mode: fetch (service worker)', worker));
    log(`  embedded / worker                        p50 ${ratio.p50.toFixed(2)}×   p95 ${ratio.p95.toFixed(2)}×`);
    const round3 = (x: number) => Math.round(x * 1000) / 1000;
    return {
      librarySize: ids.length,
      warmupPairs: WARMUP,
      embedded: { ...embedded, unit: 'ms' },
      worker: { ...worker, unit: 'ms' },
      ratio: { p50: round3(ratio.p50), p95: round3(ratio.p95) },
    };
  } finally {
    await embeddedPage.close();
  }
}

// Alone: node .bench/embedded.mjs --dist <build>

async function standalone(): Promise<number> {
  const port = Number(process.env.BENCH_EMBEDDED_PORT) || (await freePort());
  return runSectionAlone(port, async (browser, origin, dist) => {
    const { page, ids } = await pageWithSnippets(browser, origin);
    console.log(`Tessera embedded-mode benchmark — Chromium ${browser.version()}, build ${dist}`);
    await benchEmbedded({ page, ids, log: (text = '') => console.log(text), phase: (title) => console.log(`\n${title}`) });
  });
}

if (/embedded\.(m?js|ts)$/.test(process.argv[1] ?? '')) process.exitCode = await standalone();
