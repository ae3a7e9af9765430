/**
 * The Node host section of the benchmark (issue 16; test/bench/run.ts calls `runNodeHostBench`): the Node
 * host (`node bin/tessera.mjs serve`, as child processes) on PGlite and on PostgreSQL, beside the browser
 * worker, as a client on this machine sees each:
 *
 *  - create: p50 of sequential creates through the official SDK (one client; the language classifier runs
 *    on each), and assets/s with 8 clients in flight; the browser's the same way, same seeds, in a page;
 *  - search p95 at 100,000 generated snippets (the search bench's generator, library and queries, loaded
 *    with `POST /assets/import` in batches of 1,000, 3 in flight, into a fresh store): end to end (request
 *    until the body is read) and in the host (Server-Timing `rank`); the browser's figure is its search
 *    section's (test/bench/search.ts) from the same run;
 *  - stream latency across two instances on one PostgreSQL: `POST /asset/{id}/scores/increment` on A, the
 *    frame on B's `/assets/stream/identifiers` WebSocket; the browser's is its streams section's (another
 *    tab of one browser) from the same run. PGlite has one process per data folder: no second instance.
 *  - full-text search of PostgreSQL against Tessera's own on CoSQA (test/bench/node-host-fts.ts).
 *
 * PostgreSQL is the server of DATABASE_URL, each run in fresh schemas that are dropped after; without
 * DATABASE_URL, or when it does not answer, its rows are skipped and the reason printed (a bench is not
 * a test). PGlite runs in a fresh temporary data folder.
 *
 * Alone (about 5 min with 100,000 assets):
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/node-host.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/node-host.mjs
 *   DATABASE_URL=postgres://… node .bench/node-host.mjs --dist /tmp/tessera-bench-dist [--sizes 10000] [--json]
 * (BENCH_NODE_PORT: the first of the hosts' ports, default 39410; BENCH_PORT serves the build, default
 * 4175.) Alone it measures the browser's creates but not its search or stream figures (run.ts's sections).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Seed } from '@pieces.app/pieces-os-client';
import type { Browser } from 'playwright-core';
import { startHostProcess, type HostProcess } from '../support/node-host.ts';
import { PostgresDatabase } from '../../worker/node/pg/database.ts';
import { browserCreates } from './node-host-browser.ts';
import { measureFullText, formatFullText, type FullTextResult } from './node-host-fts.ts';
import { createInFlight, createSeeds, createSequential, frameLatencyAcross, importLibrary } from './node-host-measure.ts';
import { SnippetGen } from './library-snippets.ts';
import { searchEach, type SearchBenchResult } from './search.ts';
import { argValue, runSectionAlone } from './server.ts';
import { line, ms, stats, type Stats } from './stats.ts';
import type { benchStreams } from './streams.ts';

const CREATE_WARMUP = 10;
const CREATE_SAMPLES = 200;
const CLIENTS = 8;
const IN_FLIGHT_CREATES = 400;
const SEARCH_WARMUP = 20;
const SEARCH_QUERIES = 200;
const FRAME_WARMUP = 10;
const FRAME_SAMPLES = 100;

export interface CreateFigures {
  sequential: Stats;
  inFlight: { clients: number; assets: number; ms: number; perSecond: number };
}

export interface SearchFigures {
  assets: number;
  importSeconds: number;
  firstSearchMs: number;
  endToEnd: Stats;
  rank: Stats;
}

export interface StreamFigures {
  sent: Stats;
  afterAck: Stats;
}

export interface NodeHostRow {
  host: 'browser' | 'pglite' | 'postgres';
  /** Why this row has no figures (PostgreSQL absent), or why a column has none. */
  skipped?: string;
  create?: CreateFigures;
  search?: SearchFigures;
  stream?: StreamFigures;
  streamNote?: string;
}

export interface NodeHostBenchResult {
  rows: NodeHostRow[];
  fullText?: FullTextResult;
  settings: { createWarmup: number; clients: number; searchWarmup: number; frameWarmup: number };
}

export interface NodeHostBenchOptions {
  /** A browser and the origin serving the build, for the browser's create figures (none without). */
  browser?: Browser;
  origin?: string;
  /** The same run's browser figures, when run.ts measured them. */
  browserSearch?: SearchBenchResult;
  browserStreams?: Awaited<ReturnType<typeof benchStreams>>;
  sizes?: number[];
  seed?: number;
  log?: (line?: string) => void;
}

/** Where PostgreSQL is, or why its rows are skipped. */
async function findPostgres(): Promise<{ url: string } | { skipped: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { skipped: 'DATABASE_URL is not set (scripts/postgres.sh starts a server and prints one)' };
  try {
    const db = await PostgresDatabase.open({ url, max: 1 });
    await db.close();
    return { url };
  } catch (error) {
    return { skipped: `the server of DATABASE_URL does not answer (${error instanceof Error ? error.message : String(error)})` };
  }
}

export async function runNodeHostBench(options: NodeHostBenchOptions = {}): Promise<NodeHostBenchResult> {
  const log = options.log ?? ((text = '') => console.log(text));
  const seed = options.seed ?? 1;
  const size = (options.sizes ?? [100_000])[0]!;
  const basePort = Number(process.env.BENCH_NODE_PORT || 39410);
  // One set of seeds for every host: the create figures compare like with like.
  const gen = new SnippetGen(seed + 7, 0);
  const sequentialSeeds = createSeeds(gen, CREATE_WARMUP + CREATE_SAMPLES);
  const inFlightSeeds = createSeeds(gen, IN_FLIGHT_CREATES);

  log(`\nNode host — node bin/tessera.mjs serve, on PGlite and PostgreSQL, beside the browser worker (a Node client; times until the body is read)`);
  const rows: NodeHostRow[] = [];

  const browserRow: NodeHostRow = { host: 'browser' };
  if (options.browser && options.origin) {
    const measured = await browserCreates({ browser: options.browser, origin: options.origin, sequential: sequentialSeeds, inFlight: inFlightSeeds, clients: CLIENTS });
    browserRow.create = { sequential: stats(measured.sequential.slice(CREATE_WARMUP)), inFlight: { clients: CLIENTS, ...measured.inFlight } };
  }
  const browserSize = options.browserSearch?.sizes.find((s) => s.assets === size);
  if (browserSize) browserRow.search = { assets: size, importSeconds: browserSize.importSeconds, firstSearchMs: browserSize.noSnapshot.firstSearchMs, endToEnd: asStats(browserSize.endToEnd), rank: asStats(browserSize.index) };
  if (options.browserStreams) {
    const f = options.browserStreams.frameLatency.identifiers;
    browserRow.stream = { sent: asStats(f), afterAck: stats([]) };
    browserRow.streamNote = 'two tabs of one browser (one worker)';
  }
  rows.push(browserRow);
  logRow(log, browserRow);

  const temporary: string[] = [];
  const pgliteHost = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tessera-bench-'));
    temporary.push(dir);
    return (port: number) => startHostProcess(['--port', String(port), '--data', dir]);
  };
  try {
    const pglite = await measureHost({ host: 'pglite', start: await pgliteHost(), fresh: pgliteHost, basePort, sequentialSeeds, inFlightSeeds, size, seed, log });
    pglite.streamNote = 'one process per data folder: no second instance';
    rows.push(pglite);
    logRow(log, pglite);
  } finally {
    await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
  }

  const postgres = await findPostgres();
  if ('skipped' in postgres) {
    log(`  PostgreSQL rows skipped: ${postgres.skipped}`);
    rows.push({ host: 'postgres', skipped: postgres.skipped });
  } else {
    const schemas: string[] = [];
    const postgresHost = async () => {
      const schema = `bench_${process.pid}_${Date.now().toString(36)}_${schemas.length}`;
      schemas.push(schema);
      return (port: number) => startHostProcess(['--port', String(port), '--database-url', postgres.url, '--schema', schema]);
    };
    try {
      const row = await measureHost({ host: 'postgres', start: await postgresHost(), fresh: postgresHost, basePort, sequentialSeeds, inFlightSeeds, size, seed, log, second: true });
      rows.push(row);
      logRow(log, row);
    } finally {
      const db = await PostgresDatabase.open({ url: postgres.url, max: 1 });
      for (const schema of schemas) await db.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    }
  }

  log('  Full-text search of PostgreSQL against Tessera\'s own, on CoSQA (test/bench/node-host-fts.ts):');
  const fullText = await measureFullText({ databaseUrl: 'url' in postgres ? postgres.url : undefined });
  log(formatFullText(fullText));
  return { rows, fullText, settings: { createWarmup: CREATE_WARMUP, clients: CLIENTS, searchWarmup: SEARCH_WARMUP, frameWarmup: FRAME_WARMUP } };
}

interface HostRun {
  host: 'pglite' | 'postgres';
  /** Starts a host on the store of the creates (called twice for a second instance when `second`). */
  start: (port: number) => Promise<HostProcess>;
  /** A starter on a fresh, empty store (the search library). */
  fresh: () => Promise<(port: number) => Promise<HostProcess>>;
  basePort: number;
  sequentialSeeds: readonly Seed[];
  inFlightSeeds: readonly Seed[];
  size: number;
  seed: number;
  log: (line?: string) => void;
  /** Measure the stream latency to a second instance on the same store. */
  second?: boolean;
}

async function measureHost(run: HostRun): Promise<NodeHostRow> {
  const row: NodeHostRow = { host: run.host };
  const hosts: HostProcess[] = [];
  try {
    const a = await run.start(run.basePort);
    hosts.push(a);
    const sequential = await createSequential(a.url, run.sequentialSeeds);
    const inFlight = await createInFlight(a.url, run.inFlightSeeds, CLIENTS);
    row.create = { sequential: stats(sequential.slice(CREATE_WARMUP)), inFlight: { clients: CLIENTS, ...inFlight } };
    if (run.second) {
      const b = await run.start(run.basePort + 1);
      hosts.push(b);
      const frames = await frameLatencyAcross(a.url, b.url, FRAME_WARMUP + FRAME_SAMPLES);
      row.stream = { sent: stats(frames.sent.slice(FRAME_WARMUP)), afterAck: stats(frames.afterAck.slice(FRAME_WARMUP)) };
      row.streamNote = 'two host processes on one database (NOTIFY, then the change log)';
    }
  } finally {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
  }
  let c: HostProcess | undefined;
  try {
    c = await (await run.fresh())(run.basePort + 2);
    hosts.push(c);
    // The search bench's library and queries at this size: one generator, the queries drawn after the seeds.
    const gen = new SnippetGen(run.seed + run.size, 0);
    const importSeconds = await importLibrary(c.url, gen, run.size);
    const queries = Array.from({ length: SEARCH_WARMUP + SEARCH_QUERIES }, () => gen.query());
    const [first] = await searchEach(queries.slice(0, 1), c.url);
    const timed = (await searchEach(queries, c.url)).slice(SEARCH_WARMUP);
    row.search = { assets: run.size, importSeconds: round(importSeconds), firstSearchMs: round(first!.total), endToEnd: stats(timed.map((t) => t.total)), rank: stats(timed.map((t) => t.rank)) };
  } catch (error) {
    // What the host printed says why (it may have died).
    throw new Error(`${run.host}, search at ${run.size}: ${error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error)}\nthe host printed:\n${c?.output().slice(-3000) ?? '(it did not start)'}`);
  } finally {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
  }
  return row;
}

function logRow(log: (line?: string) => void, row: NodeHostRow): void {
  const name = { browser: 'browser worker (IndexedDB)', pglite: 'Node host on PGlite', postgres: 'Node host on PostgreSQL' }[row.host];
  if (row.skipped) return log(`  ${name}: skipped (${row.skipped})`);
  log(`  ${name}:`);
  if (row.create) {
    log(line('    create (one SDK client)', row.create.sequential));
    log(`    create, ${row.create.inFlight.clients} clients in flight: ${row.create.inFlight.perSecond} assets/s (${row.create.inFlight.assets} in ${ms(row.create.inFlight.ms)})`);
  }
  if (row.search) {
    log(`    search at ${row.search.assets.toLocaleString('en')}: imported in ${row.search.importSeconds.toFixed(1)} s, first search ${ms(row.search.firstSearchMs)}`);
    log(line('      end to end', row.search.endToEnd));
    log(line('      in the host (rank)', row.search.rank));
  }
  if (row.stream) log(line(`    write -> frame (${row.streamNote})`, row.stream.sent));
  else if (row.streamNote) log(`    stream across instances: ${row.streamNote}`);
}

/** A LatencyStats of another section as Stats (`min` unknown there). */
function asStats(s: { n: number; p50: number; p95: number; mean: number; max: number }): Stats {
  return { n: s.n, p50: s.p50, p95: s.p95, mean: s.mean, max: s.max, min: NaN };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------------------------------
// Alone: serve a build for the browser's creates, then the section.

async function standalone(): Promise<number> {
  const port = Number(process.env.BENCH_PORT || 4175);
  return runSectionAlone(port, async (browser, origin) => {
    const sizes = argValue('--sizes')?.split(',').map(Number);
    const result = await runNodeHostBench({ browser, origin, ...(sizes ? { sizes } : {}) });
    if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  });
}

if (process.argv[1] && /^node-host\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();
