/**
 * Benchmark section: the read paths without the asset cache (issue 17, bench honesty). A section of
 * test/bench/run.ts (`benchUncachedReads`), run on its page once the cached figures are taken: the page
 * registers `/sw.js?asset-cache=off` (a worker that keeps nothing it read, worker/browser/service-app.ts),
 * measures, and registers the ordinary worker again. Same library, same IndexedDB, same page:
 *  1. `GET /api/assets?transferables=false` (every listing built from IndexedDB and serialised);
 *  2. `GET /api/asset/{id}` against `GET /api/__echo`, interleaved;
 *  3. `rpc().getAsset(id)` against `fetch('/api/asset/{id}')` + `json()`, interleaved: both read IndexedDB,
 *     so the ratio is the transport's, not the cache's;
 *  4. the parts of a floor under the uncached listing, both in the page: its read of the records a listing
 *     is built from, and its `JSON.stringify` of the listing's body parsed (performance-sections.ts
 *     `uncachedListFloor` adds them to the cached listing, which only sends its body).
 */
import type { Page } from 'playwright-core';
import { assetScope } from '../../worker/core/assets/read.ts';
import { timeStoreRead } from './library-import.ts';
import { pageList, pageReadInterleaved } from './page-requests.ts';
import { line, stats, type Stats } from './stats.ts';
import { pageRpcVsFetch } from './streams.ts';

const UNCACHED_SCRIPT = '/sw.js?asset-cache=off';
const LIST_WARMUP = 2;
const LIST_SAMPLES = 20;
const READ_WARMUP = 40;
const READ_SAMPLES = 300;
const RPC_WARMUP = 40;
const RPC_SAMPLES = 300;
/** The collections a listing reads: those an asset is built from (`readAssets` reads them whole), contents left out. */
const LISTING_STORES = assetScope({ transferables: false });
const STRINGIFY_ROUNDS = 9;

export interface UncachedReads {
  librarySize: number;
  list: Stats & {
    unit: 'ms';
    assets: number;
    bodyBytes: number;
    /** The page's own read of the records a listing is built from, in one transaction (the best of 3), ms. */
    pageReadMs?: number;
    /** The page's `JSON.stringify` of the listing's body parsed (the median of STRINGIFY_ROUNDS), ms. */
    pageStringifyMs?: number;
  };
  read: { asset: Stats & { unit: 'ms' }; echo: Stats & { unit: 'ms' }; ratio: { p50: number; p95: number } };
  rpc: { rpc: Stats & { unit: 'ms' }; fetch: Stats & { unit: 'ms' }; ratio: { p50: number; p95: number; target: number } };
}

/** Page side: the plain listing's body parsed, then serialised again `rounds` times; the median ms. */
function pageStringifyListing(rounds: number): Promise<number> {
  return (async () => {
    const listing: unknown = await (await fetch('/api/assets?transferables=false')).json();
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      if (JSON.stringify(listing).length === 0) throw new Error('empty listing');
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
  })();
}

/** The page registers `scriptUrl` and waits until that worker controls it, then reloads under it, ready. */
async function switchWorker(page: Page, scriptUrl: string): Promise<void> {
  const origin = new URL(page.url()).origin;
  const manual = `${origin}/?ui=off&register=manual`;
  await page.goto(manual);
  await page.evaluate(async (url) => {
    await (window as unknown as { tessera: { register(o: { scriptUrl: string }): Promise<void> } }).tessera.register({ scriptUrl: url });
    const wanted = new URL(url, location.href).href;
    const deadline = Date.now() + 15_000;
    while (navigator.serviceWorker.controller?.scriptURL !== wanted) {
      if (Date.now() > deadline) throw new Error(`${url} did not take control within 15 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }, scriptUrl);
  await page.goto(manual); // a fresh page under the new worker: its RPC port is that worker's
  await page.evaluate(async (url) => {
    const tessera = (window as unknown as { tessera: { register(o: { scriptUrl: string }): Promise<void>; ready(): Promise<void> } }).tessera;
    await tessera.register({ scriptUrl: url });
    await tessera.ready();
    if (navigator.serviceWorker.controller?.scriptURL !== new URL(url, location.href).href) throw new Error(`not controlled by ${url}`);
  }, scriptUrl);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function benchUncachedReads(args: { page: Page; ids: string[]; seed: number; log: (text?: string) => void; phase: (title: string) => void }): Promise<UncachedReads> {
  const { page, ids, seed, log, phase } = args;
  await switchWorker(page, UNCACHED_SCRIPT);
  try {
    const list = await page.evaluate(pageList, { warmup: LIST_WARMUP, samples: LIST_SAMPLES });
    const listStats = stats(list.plain);
    const pageReadMs = await timeStoreRead(page, LISTING_STORES, 3);
    const pageStringifyMs = await page.evaluate(pageStringifyListing, STRINGIFY_ROUNDS);
    const read = await page.evaluate(pageReadInterleaved, { ids, warmup: READ_WARMUP, samples: READ_SAMPLES, seed });
    const asset = stats(read.asset);
    const echo = stats(read.echo);
    const rpcRead = await page.evaluate(pageRpcVsFetch, { ids, warmup: RPC_WARMUP, samples: RPC_SAMPLES });
    if (!rpcRead.equal) throw new Error('RPC and fetch answered different objects (no asset cache)');
    const rpc = stats(rpcRead.rpc);
    const viaFetch = stats(rpcRead.fetch);
    phase(`Reads without the asset cache — ${UNCACHED_SCRIPT}, the same library (${ids.length} assets read, ${list.count} listed)`);
    log(line('GET /api/assets?transferables=false', listStats, `, ${(list.plainBytes / 1e6).toFixed(2)} MB body`));
    log(`  the page reading its records ${pageReadMs.toFixed(1)} ms; JSON.stringify of its body in the page ${pageStringifyMs.toFixed(1)} ms`);
    log(line('GET /api/asset/{id}', asset));
    log(line('GET /api/__echo, interleaved with it', echo));
    log(`  ratio asset/echo                         p50 ${(asset.p50 / echo.p50).toFixed(2)}   p95 ${(asset.p95 / echo.p95).toFixed(2)}`);
    log(line('rpc().getAsset(id)', rpc));
    log(line('fetch GET /api/asset/{id} + json()', viaFetch));
    const rpcRatio = { p50: viaFetch.p50 / rpc.p50, p95: viaFetch.p95 / rpc.p95 };
    log(`  fetch / rpc                              p50 ${rpcRatio.p50.toFixed(2)}×   p95 ${rpcRatio.p95.toFixed(2)}×   target p50 ≥ 4×: ${rpcRatio.p50 >= 4 ? 'met' : 'NOT met'}`);
    return {
      librarySize: ids.length,
      list: { ...listStats, unit: 'ms', assets: list.count, bodyBytes: list.plainBytes, pageReadMs: round3(pageReadMs), pageStringifyMs: round3(pageStringifyMs) },
      read: { asset: { ...asset, unit: 'ms' }, echo: { ...echo, unit: 'ms' }, ratio: { p50: round3(asset.p50 / echo.p50), p95: round3(asset.p95 / echo.p95) } },
      rpc: { rpc: { ...rpc, unit: 'ms' }, fetch: { ...viaFetch, unit: 'ms' }, ratio: { p50: round3(rpcRatio.p50), p95: round3(rpcRatio.p95), target: 4 } },
    };
  } finally {
    await switchWorker(page, '/sw.js');
  }
}
