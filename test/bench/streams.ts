/**
 * Benchmark section: live streams and the RPC path (issue 4). `npm run bench` runs it as one section
 * of test/bench/run.ts (`benchStreams`); it also runs alone on a library of its own:
 *
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/streams.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/streams.mjs
 *   node .bench/streams.mjs --dist /tmp/tessera-bench-dist
 *
 * What it measures (Chromium, two tabs of one browser context):
 *  1. write-to-frame latency in ANOTHER tab: tab A sends `POST /api/asset/{id}/scores/increment` (a small
 *     committed write, one change event each), tab B holds `new WebSocket('ws://…/api/assets/stream/identifiers')`
 *     (the page's shim) and notes when each delta frame arrives. Latency = frame arrival in B minus the
 *     moment A called fetch() (both as performance.timeOrigin + performance.now(), one clock). The same for
 *     `/assets/stream` (its frames carry the asset, fetched by B's catch-up request). Writes are sequential,
 *     the next one after the previous frame arrived.
 *  2. reading one asset: `rpc().getAsset(id)` (MessageChannel + comlink) against `fetch('/api/asset/{id}')`
 *     until the JSON is parsed, interleaved (which goes first alternates), and the ratio of their p50s.
 */
import type { Browser, Page } from 'playwright-core';
import { fragmentSeed } from '../support/seeds.ts';
import { freePort, runSectionAlone } from './server.ts';
import { line, stats, type Stats } from './stats.ts';

export type { Stats };

const FRAME_WARMUP = 10;
const FRAME_SAMPLES = 200;
const ASSET_FRAME_SAMPLES = 100;
const RPC_WARMUP = 50;
const RPC_SAMPLES = 600; // pairs


// ---------------------------------------------------------------------------------------------------
// Page-side code: serialised into the pages, self-contained.

/** Tab B: opens a socket with the page's `new WebSocket` (the shim) and records frame arrival times. */
function pageOpenRecorder(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const w = window as unknown as { __arrivals: number[]; __socket?: WebSocket };
    w.__socket?.close();
    w.__arrivals = [];
    const socket = new WebSocket(`ws://${location.host}/api${path}`);
    w.__socket = socket;
    let first = true;
    socket.onmessage = () => {
      const t = performance.timeOrigin + performance.now();
      if (first) {
        first = false; // the snapshot
        resolve();
        return;
      }
      w.__arrivals.push(t);
    };
    socket.onclose = () => reject(new Error(`socket ${path} closed`));
  });
}

function pageArrivals(): number[] {
  return (window as unknown as { __arrivals: number[] }).__arrivals;
}

function pageCloseRecorder(): void {
  const w = window as unknown as { __socket?: WebSocket };
  if (w.__socket) {
    w.__socket.onclose = null;
    w.__socket.close();
  }
}

/** Tab A: one small write; returns the wall-clock moment fetch() was called. */
function pageIncrement(id: string): Promise<number> {
  return (async () => {
    const t0 = performance.timeOrigin + performance.now();
    const response = await fetch(`/api/asset/${id}/scores/increment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ asset: { reuse: true } }),
    });
    await response.text();
    if (!response.ok) throw new Error(`increment: ${response.status}`);
    return t0;
  })();
}

/** Tab A: RPC getAsset and fetch GET /api/asset/{id}, interleaved; ms each. */
export function pageRpcVsFetch(args: { ids: string[]; warmup: number; samples: number }): Promise<{ rpc: number[]; fetch: number[]; equal: boolean }> {
  return (async () => {
    const client = (window as unknown as { tessera: { rpc(): { getAsset(id: string): Promise<unknown> } } }).tessera.rpc();
    const rpc: number[] = [];
    const viaFetch: number[] = [];
    const timeRpc = async (id: string) => {
      const t0 = performance.now();
      const value = await client.getAsset(id);
      return [performance.now() - t0, value] as const;
    };
    const timeFetch = async (id: string) => {
      const t0 = performance.now();
      const response = await fetch(`/api/asset/${id}`);
      const value = await response.json();
      const t = performance.now() - t0;
      if (!response.ok) throw new Error(`GET /api/asset/${id}: ${response.status}`);
      return [t, value] as const;
    };
    let equal = true;
    for (let i = 0; i < args.warmup + args.samples; i++) {
      const id = args.ids[(i * 7919) % args.ids.length]!;
      let r: readonly [number, unknown];
      let f: readonly [number, unknown];
      if (i % 2 === 0) {
        r = await timeRpc(id);
        f = await timeFetch(id);
      } else {
        f = await timeFetch(id);
        r = await timeRpc(id);
      }
      if (i < 3 && JSON.stringify(r[1]) !== JSON.stringify(f[1])) equal = false;
      if (i >= args.warmup) {
        rpc.push(r[0]);
        viaFetch.push(f[0]);
      }
    }
    return { rpc, fetch: viaFetch, equal };
  })();
}

// ---------------------------------------------------------------------------------------------------

async function frameLatency(writer: Page, reader: Page, path: string, id: string, warmup: number, samples: number): Promise<number[]> {
  await reader.evaluate(pageOpenRecorder, path);
  const latencies: number[] = [];
  for (let i = 0; i < warmup + samples; i++) {
    const sent = await writer.evaluate(pageIncrement, id);
    const deadline = Date.now() + 5000;
    let arrivals: number[] = [];
    while ((arrivals = await reader.evaluate(pageArrivals)).length <= i) {
      if (Date.now() > deadline) throw new Error(`no frame on ${path} for write ${i} within 5 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
    if (i >= warmup) latencies.push(arrivals[i]! - sent);
  }
  await reader.waitForTimeout(100);
  const extra = (await reader.evaluate(pageArrivals)).length - (warmup + samples);
  if (extra !== 0) throw new Error(`${path}: ${extra} frames more than writes`);
  await reader.evaluate(pageCloseRecorder);
  return latencies;
}

/**
 * Runs the section on `page` (ready, library `ids`): opens a second tab of the same context for the
 * frames. Logs through `log`/`phase` and returns the figures for results.json.
 */
export async function benchStreams(args: { page: Page; ids: string[]; log: (text?: string) => void; phase: (title: string) => void }) {
  const { page, ids, log, phase } = args;
  const reader = await page.context().newPage();
  await reader.goto(page.url());
  await reader.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
  const target = ids[0]!;
  // wake the worker, warm both paths
  await page.evaluate(pageIncrement, target);

  const identifiers = stats(await frameLatency(page, reader, '/assets/stream/identifiers', target, FRAME_WARMUP, FRAME_SAMPLES));
  const assets = stats(await frameLatency(page, reader, '/assets/stream', target, FRAME_WARMUP, ASSET_FRAME_SAMPLES));
  await reader.close();
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  phase(`Live streams — write in tab A (POST /api/asset/{id}/scores/increment) to delta frame in tab B (new WebSocket, the shim), sequential`);
  log(line('/assets/stream/identifiers', identifiers, `, after ${FRAME_WARMUP} warm-up`));
  log(line('/assets/stream (frame carries the asset)', assets, `, after ${FRAME_WARMUP} warm-up`));
  log(`  target p50 ≤ 10 ms (identifiers): ${verdict(identifiers.p50 <= 10)}; every write gave exactly one frame`);

  const read = await page.evaluate(pageRpcVsFetch, { ids, warmup: RPC_WARMUP, samples: RPC_SAMPLES });
  if (!read.equal) throw new Error('RPC and fetch answered different objects');
  const rpc = stats(read.rpc);
  const viaFetch = stats(read.fetch);
  const ratio = { p50: viaFetch.p50 / rpc.p50, p95: viaFetch.p95 / rpc.p95 };
  phase(`Reading one asset — RPC (MessageChannel + comlink) vs fetch, ${RPC_SAMPLES} interleaved pairs after ${RPC_WARMUP} warm-up, library of ${ids.length}`);
  log(line('rpc().getAsset(id)', rpc));
  log(line('fetch GET /api/asset/{id} + json()', viaFetch));
  log(`  fetch / rpc                              p50 ${ratio.p50.toFixed(2)}×   p95 ${ratio.p95.toFixed(2)}×   target ≥ 4× faster: ${verdict(ratio.p50 >= 4)}`);
  return {
    frameLatency: {
      write: 'POST /api/asset/{id}/scores/increment',
      identifiers: { ...identifiers, unit: 'ms', warmup: FRAME_WARMUP, target: 10 },
      assets: { ...assets, unit: 'ms', warmup: FRAME_WARMUP },
    },
    readOneAsset: {
      librarySize: ids.length,
      rpc: { ...rpc, unit: 'ms' },
      fetch: { ...viaFetch, unit: 'ms' },
      ratio: { p50: Math.round(ratio.p50 * 1000) / 1000, p95: Math.round(ratio.p95 * 1000) / 1000, target: 4 },
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Alone: node .bench/streams.mjs --dist <build>   (BENCH_STREAMS_PORT, else a free loopback port)

/** A fresh page of the build at `origin`, ready, with 200 small Python snippets created through it. */
export async function pageWithSnippets(browser: Browser, origin: string): Promise<{ page: Page; ids: string[] }> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/?ui=off`);
  await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
  const bodies = Array.from({ length: 200 }, (_, n) => JSON.stringify(fragmentSeed(`def f${n}(x):\n    return x * ${n}\n`, undefined, { specific: 'py' })));
  const ids = await page.evaluate(async (bodies) => {
    const out: string[] = [];
    for (const body of bodies) {
      const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      out.push(((await response.json()) as { id: string }).id);
    }
    return out;
  }, bodies);
  return { page, ids };
}

async function standalone(): Promise<number> {
  const port = Number(process.env.BENCH_STREAMS_PORT) || (await freePort());
  return runSectionAlone(port, async (browser, origin, dist) => {
    const { page, ids } = await pageWithSnippets(browser, origin);
    console.log(`Tessera streams and RPC benchmark — Chromium ${browser.version()}, build ${dist}`);
    await benchStreams({ page, ids, log: (text = '') => console.log(text), phase: (title) => console.log(`\n${title}`) });
  });
}

if (/streams\.(m?js|ts)$/.test(process.argv[1] ?? '')) process.exitCode = await standalone();
