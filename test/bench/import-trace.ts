/**
 * Where an import's time goes across Chromium's processes: a browser trace (CDP tracing) of one
 * `POST /api/assets/import` run into a library of 1,000, summed by process, thread and event name (the
 * thread time of each, nested events counted in their parents too). It shows how much of an import is
 * IndexedDB's work in the browser process (`Database::PutOperation`, `BackingStore::PutRecord`) against
 * the service worker's own (`ServiceWorker thread`), and how many puts an asset took.
 *
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/import-trace.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/import-trace.mjs
 *   node .bench/import-trace.mjs --dist /tmp/tessera-bench-dist [--assets 3000] [--top 30]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { importSeeds, runImport, stageImport } from './library-import.ts';
import { SnippetGen } from './library-snippets.ts';
import { argValue, freePort, runSectionAlone } from './server.ts';

const CATEGORIES = ['IndexedDB', 'toplevel', 'v8', 'ServiceWorker', 'mojom'];

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

/** Thread time by "process/thread event", largest first. */
export function sumTrace(events: TraceEvent[]): { key: string; n: number; ms: number }[] {
  const processes = new Map<number, string>();
  const threads = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'process_name') processes.set(e.pid, e.args?.name ?? String(e.pid));
    if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? String(e.tid));
  }
  const sums = new Map<string, { n: number; us: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
    const key = `${processes.get(e.pid) ?? e.pid}/${threads.get(`${e.pid}:${e.tid}`) ?? e.tid} ${e.name}`;
    const sum = sums.get(key) ?? { n: 0, us: 0 };
    sum.n++;
    sum.us += e.dur;
    sums.set(key, sum);
  }
  return [...sums].map(([key, s]) => ({ key, n: s.n, ms: s.us / 1000 })).sort((a, b) => b.ms - a.ms);
}

async function standalone(): Promise<number> {
  const assets = Number(argValue('--assets') ?? 3000);
  const top = Number(argValue('--top') ?? 30);
  return runSectionAlone(await freePort(), async (browser, origin) => {
    const page = await browser.newPage();
    await page.goto(`${origin}/?ui=off`);
    await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
    const gen = new SnippetGen(7, 0.2);
    await importSeeds(page, 1000, () => gen.seed());
    await stageImport(page, assets, () => gen.seed());
    const dir = mkdtempSync(join(tmpdir(), 'tessera-trace-'));
    const path = join(dir, 'trace.json');
    try {
      await browser.startTracing(page, { path, categories: CATEGORIES });
      const ms = await runImport(page);
      await browser.stopTracing();
      const trace = JSON.parse(readFileSync(path, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
      const sums = sumTrace(Array.isArray(trace) ? trace : (trace.traceEvents ?? []));
      const puts = sums.find((s) => s.key.endsWith(' Database::PutOperation'))?.n ?? 0;
      console.log(`import of ${assets.toLocaleString('en')} into 1,000: ${ms.toFixed(0)} ms (${Math.round(assets / (ms / 1000))} assets/s); ${puts.toLocaleString('en')} IndexedDB puts (${(puts / assets).toFixed(2)} an asset)`);
      console.log('thread time by process/thread and event (nested events also counted in their parents):');
      for (const s of sums.slice(0, top)) console.log(`  ${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(7)}  ${s.key}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

if (process.argv[1] && /^import-trace[^/]*\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();
