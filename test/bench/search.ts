/**
 * The search section of the benchmark (test/bench/run.ts calls `runSearchBench`), in Chromium against the
 * built service worker:
 *
 *  - for a library of 10,000 and one of 100,000 generated snippets (each in a fresh browser context, so a
 *    fresh IndexedDB), loaded with `POST /api/assets/import` (1,000 seeds a request, one transaction each):
 *    - the first search, which builds the index from the store (no snapshot yet), and the time until the
 *      index snapshot is saved;
 *    - `GET /api/assets/search?query=…&transferables=false` p50/p95 over a mix of realistic queries:
 *      in the worker (`rank` of the Server-Timing header: query analysis and ranking, no transport, no
 *      asset reads) and end to end (page fetch until the body is read, up to 100 results each);
 *  - at 10,000: the worker stopped through CDP, then the time to the first search answer (the worker
 *    starts, opens IndexedDB, restores the saved index, applies the change log, searches, reads the results);
 *  - then whatever the caller's `onLibrary` measures on the same library, in the same page (run.ts:
 *    relevance latency at 10,000, test/bench/relevance.ts), so the library is imported once.
 *
 * Runs on its own too, against a build:
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/search.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/search.mjs
 *   node .bench/search.mjs --dist /tmp/tessera-bench-dist [--sizes 10000,100000]
 * (`--sizes 10000` alone measures the first search after a worker stop in about 40 s; `--relevance` adds
 * the relevance latency at each size; BENCH_SEARCH_PORT sets the port, default 4186; BENCH_COLD_SAMPLES
 * the number of stops, default 15.)
 */
import { basename } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.ts';
import { APPLICATION } from '../support/seeds.ts';
import { measureRelevanceLatency } from './relevance.ts';
import { argValue, distFolder, repoRoot, serveBuild } from './server.ts';
import { ms, stats as sharedStats } from './stats.ts';

export interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

export interface SearchSizeResult {
  assets: number;
  importSeconds: number;
  importPerSecond: number;
  firstSearchMs: number;
  /** Of which building the index from the store. */
  firstSearchLoadMs: number;
  snapshotSavedAfterMs: number | null;
  /** Time in the worker: query analysis and ranking (Server-Timing `rank`). */
  index: LatencyStats;
  /** Page fetch until the body is read. */
  endToEnd: LatencyStats;
  /** Reading the result assets in the worker (Server-Timing `assets`). */
  assetsRead: LatencyStats;
  meanResults: number;
  coldStart?: {
    firstAnswer: LatencyStats;
    load: LatencyStats;
    catchup: LatencyStats;
    rank: LatencyStats;
    assets: LatencyStats;
    /** The worker's own start: a stopped worker answering `GET /api/__echo` (no app, no IndexedDB). */
    echo: LatencyStats;
    unconfirmedStops: number;
  };
}

export interface SearchBenchResult {
  sizes: SearchSizeResult[];
  targets: { indexP95At10k: number; coldFirstAnswerAt10k: number };
}

export interface SearchBenchOptions {
  browser: Browser;
  origin: string;
  /** Stops every service worker of the page's context (CDP) and says whether it saw them stop. */
  stopWorkers: (page: Page) => Promise<boolean>;
  log?: (line?: string) => void;
  sizes?: number[];
  queries?: number;
  seed?: number;
  /**
   * Runs after a size's search figures, in the same page, on the same library (before its context
   * closes); `query` draws more queries from the size's generator.
   */
  onLibrary?: (library: { page: Page; size: number; query: () => string }) => Promise<void>;
}

const WARMUP = 20;
/**
 * The share of snippets that carry tags, in libraries of up to 10,000 (none in bigger ones): linking a
 * tag reads every tag record and rewrites the tag's list of assets (links/labels.ts), which grows with the
 * library, so tagged imports slow down as it grows; that cost is the asset service's, not search's.
 */
const TAG_SHARE = Number(process.env.BENCH_TAG_SHARE ?? 0.2);
const IMPORT_BATCH = 1000;
const IMPORTS_IN_FLIGHT = 3;
/** Worker stops measured at 10,000 (each: a first search and, after another stop, an echo). */
const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES || 15);

export async function runSearchBench(options: SearchBenchOptions): Promise<SearchBenchResult> {
  const log = options.log ?? ((line = '') => console.log(line));
  const sizes = options.sizes ?? [10_000, 100_000];
  const queryCount = options.queries ?? 200;
  const seed = options.seed ?? 1;
  const out: SearchSizeResult[] = [];
  log(`\nSearch — GET /api/assets/search?transferables=false over generated snippets (${queryCount} queries after ${WARMUP} warm-up, a fresh IndexedDB per size)`);
  for (const size of sizes) {
    const context = await options.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${options.origin}/?ui=off`); // no live UI refetching between the measurements
      await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
      const gen = new SnippetGen(seed + size, size <= 10_000 ? TAG_SHARE : 0);

      const t0 = Date.now();
      // A few imports in flight: one prepares its seeds while another's transaction waits on IndexedDB.
      const bodies: string[] = [];
      for (let done = 0; done < size; done += IMPORT_BATCH) {
        bodies.push(JSON.stringify({ iterable: Array.from({ length: Math.min(IMPORT_BATCH, size - done) }, () => gen.seed()) }));
      }
      for (let i = 0; i < bodies.length; i += IMPORTS_IN_FLIGHT) {
        await Promise.all(bodies.slice(i, i + IMPORTS_IN_FLIGHT).map((body) => page.evaluate(pageImport, body)));
      }
      const importSeconds = (Date.now() - t0) / 1000;

      const queries = Array.from({ length: WARMUP + queryCount }, () => gen.query());
      const first = await page.evaluate(pageSearch, [queries[0]!]);
      const savedAfter = await page.evaluate(pageWaitForSnapshot, { timeoutMs: 60_000 + size });
      const timed = await page.evaluate(pageSearch, queries);
      const measured = timed.slice(WARMUP);
      const result: SearchSizeResult = {
        assets: size,
        importSeconds: round(importSeconds),
        importPerSecond: Math.round(size / importSeconds),
        firstSearchMs: round(first[0]!.total),
        firstSearchLoadMs: round(first[0]!.load),
        snapshotSavedAfterMs: savedAfter === null ? null : Math.round(savedAfter),
        index: stats(measured.map((m) => m.rank)),
        endToEnd: stats(measured.map((m) => m.total)),
        assetsRead: stats(measured.map((m) => m.assets)),
        meanResults: round(measured.reduce((s, m) => s + m.results, 0) / measured.length),
      };

      log(`  ${size.toLocaleString('en')} assets: imported in ${importSeconds.toFixed(1)} s (${result.importPerSecond}/s); first search ${ms(result.firstSearchMs)} (of which building the index from the store ${ms(result.firstSearchLoadMs)}), snapshot saved ${savedAfter === null ? 'NOT within the wait' : `${ms(savedAfter)} later`}`);
      log(line('    in the worker (rank)', result.index));
      log(line('    end to end (page fetch)', result.endToEnd, `, ${result.meanResults.toFixed(0)} results a query`));
      log(line('    of which reading the results', result.assetsRead));

      if (size === 10_000) {
        const cold: { total: number[]; load: number[]; catchup: number[]; rank: number[]; assets: number[]; echo: number[] } = { total: [], load: [], catchup: [], rank: [], assets: [], echo: [] };
        let unconfirmed = 0;
        const stop = async () => {
          if (!(await options.stopWorkers(page))) unconfirmed++;
          await new Promise((r) => setTimeout(r, 50));
        };
        for (let i = 0; i < COLD_SAMPLES; i++) {
          await stop();
          const [answer] = await page.evaluate(pageSearch, [gen.query()]);
          cold.total.push(answer!.total);
          cold.load.push(answer!.load);
          cold.catchup.push(answer!.catchup);
          cold.rank.push(answer!.rank);
          cold.assets.push(answer!.assets);
          await stop();
          cold.echo.push(await page.evaluate(pageEcho));
        }
        result.coldStart = {
          firstAnswer: stats(cold.total),
          load: stats(cold.load),
          catchup: stats(cold.catchup),
          rank: stats(cold.rank),
          assets: stats(cold.assets),
          echo: stats(cold.echo),
          unconfirmedStops: unconfirmed,
        };
        log(line('    worker stopped -> first search answer', result.coldStart.firstAnswer, ', median is p50'));
        log(line('      of which restoring the saved index', result.coldStart.load));
        log(line('      of which catching up (change log)', result.coldStart.catchup));
        log(line('      of which ranking', result.coldStart.rank));
        log(line('      of which reading the results', result.coldStart.assets));
        log(line('    worker stopped -> GET /api/__echo (no app)', result.coldStart.echo));
        if (unconfirmed) log(`    note: ${unconfirmed} stop(s) not confirmed by CDP`);
      }
      out.push(result);
      await options.onLibrary?.({ page, size, query: () => gen.query() });
    } finally {
      await context.close();
    }
  }
  const at10k = out.find((r) => r.assets === 10_000);
  if (at10k) {
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    log(`  targets at 10,000: p95 in the worker ${ms(at10k.index.p95)} (<= 5 ms: ${verdict(at10k.index.p95 <= 5)}); first answer after a stop p50 ${ms(at10k.coldStart?.firstAnswer.p50 ?? NaN)} (<= 150 ms: ${verdict((at10k.coldStart?.firstAnswer.p50 ?? Infinity) <= 150)})`);
  }
  return { sizes: out, targets: { indexP95At10k: 5, coldFirstAnswerAt10k: 150 } };
}

// ---------------------------------------------------------------------------------------------------
// Page-side functions: serialised into the page, so self-contained.

export function pageImport(body: string): Promise<number> {
  return (async () => {
    const response = await fetch('/api/assets/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.text();
    if (!response.ok) throw new Error(`import: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text).iterable.length as number;
  })();
}

interface Timed {
  total: number;
  /** Restoring or rebuilding the index (a worker's first search only; 0 otherwise). */
  load: number;
  rank: number;
  catchup: number;
  assets: number;
  results: number;
}

function pageSearch(queries: string[]): Promise<Timed[]> {
  return (async () => {
    const out: Timed[] = [];
    for (const query of queries) {
      const t0 = performance.now();
      const response = await fetch(`/api/assets/search?query=${encodeURIComponent(query)}&transferables=false`);
      const text = await response.text();
      const total = performance.now() - t0;
      if (!response.ok) throw new Error(`search ${query}: ${response.status} ${text.slice(0, 300)}`);
      const timing = Object.fromEntries(
        (response.headers.get('server-timing') ?? '').split(',').map((part) => {
          const [name, dur] = part.trim().split(';dur=');
          return [name, Number(dur)];
        }),
      );
      out.push({ total, load: timing.load ?? 0, rank: timing.rank ?? NaN, catchup: timing.catchup ?? NaN, assets: timing.assets ?? NaN, results: JSON.parse(text).iterable.length });
    }
    return out;
  })();
}

function pageEcho(): Promise<number> {
  return (async () => {
    const t0 = performance.now();
    const response = await fetch('/api/__echo');
    await response.text();
    return performance.now() - t0;
  })();
}

/** Waits until the saved search index has caught up with the change log; the wait in ms, or null on time-out (also used by app.ts). */
export function pageWaitForSnapshot(args: { timeoutMs: number }): Promise<number | null> {
  return (async () => {
    const db: IDBDatabase = await new Promise((resolve, reject) => {
      const request = indexedDB.open('tessera');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const get = (store: string, key: string) =>
      new Promise<any>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const t0 = performance.now();
    try {
      while (performance.now() - t0 < args.timeoutMs) {
        const [snapshot, seq] = await Promise.all([get('indexes', 'search'), get('meta', 'seq')]);
        if (snapshot && seq && snapshot.seq === seq.value) return performance.now() - t0;
        await new Promise((r) => setTimeout(r, 50));
      }
      return null;
    } finally {
      db.close();
    }
  })();
}

// ---------------------------------------------------------------------------------------------------
// Generated snippets: code in several languages and prose notes, identifiers compounded from a vocabulary
// drawn with a Zipf-like skew (a few words everywhere, most words rare), comments in plain words.

const NOUNS = (
  'user account order invoice payment cart item product price discount tax total customer address email phone session token ' +
  'cookie header request response client server handler route controller service repository model schema table column index ' +
  'query filter sort page cursor offset limit cache buffer queue stream channel message event listener subscriber topic worker ' +
  'task job schedule timer retry backoff timeout deadline lock mutex semaphore thread pool connection socket port host proxy ' +
  'file folder path directory archive image thumbnail video audio frame pixel color font style layout widget button form field ' +
  'input output config setting option flag feature toggle environment secret key hash digest signature certificate credential ' +
  'permission role group team project issue ticket comment review commit branch merge tag release version build artifact ' +
  'package module plugin extension dependency graph node edge tree leaf root parent child sibling list array map set vector ' +
  'matrix tensor batch chunk block segment record entry row document field metric counter gauge histogram trace span log ' +
  'report summary dashboard chart alert notification webhook callback promise future result error exception warning status ' +
  'state transition machine parser lexer token grammar compiler interpreter template renderer serializer decoder encoder ' +
  'checksum compression encryption locale timezone date calendar currency inventory shipment warehouse supplier vendor'
).split(' ');
const VERBS = (
  'get set load save fetch send parse render build create update delete remove find search match merge split join sort filter ' +
  'map reduce validate normalize format convert encode decode encrypt decrypt compress upload download sync refresh reset ' +
  'start stop open close read write flush commit rollback retry schedule cancel publish subscribe notify emit handle resolve ' +
  'register unregister apply compute count sum average group index cache evict expire lock unlock'
).split(' ');
const PROSE = (
  'the a this that when before after every each only never always should must can will we you it because so then ' +
  'remember note check make sure keep move use avoid prefer try first last next previous new old small large fast slow ' +
  'safe simple clear careful quick weekly daily release team meeting review deploy production staging backup migration'
).split(' ');

export class SnippetGen {
  private state: number;
  constructor(
    seed: number,
    private tagShare: number,
  ) {
    this.state = seed >>> 0 || 1;
  }
  private rnd(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }
  /** Zipf-like: index i drawn with weight ~ 1/(i+1). */
  zipf<T>(xs: readonly T[]): T {
    const i = Math.floor(Math.exp(this.rnd() * Math.log(xs.length + 1))) - 1;
    return xs[Math.min(xs.length - 1, Math.max(0, i))]!;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)]!;
  }
  noun(): string {
    return this.zipf(NOUNS);
  }
  verb(): string {
    return this.zipf(VERBS);
  }
  cap(s: string): string {
    return s[0]!.toUpperCase() + s.slice(1);
  }
  camel(): string {
    return this.verb() + this.cap(this.noun()) + (this.rnd() < 0.35 ? this.cap(this.noun()) : '');
  }
  snake(): string {
    return `${this.verb()}_${this.noun()}${this.rnd() < 0.35 ? `_${this.noun()}` : ''}`;
  }
  pascal(): string {
    return this.cap(this.noun()) + this.cap(this.pick(['Service', 'Store', 'Manager', 'Client', 'Handler', 'Builder', 'Repository', 'Cache']));
  }
  sentence(lo = 5, hi = 14): string {
    const words = Array.from({ length: this.int(lo, hi) }, () => (this.rnd() < 0.45 ? this.pick(PROSE) : this.rnd() < 0.5 ? this.noun() : this.verb()));
    return `${this.cap(words.join(' '))}.`;
  }
  lines(lo: number, hi: number, f: () => string): string {
    return Array.from({ length: this.int(lo, hi) }, f).join('\n');
  }

  snippet(): { raw: string; specific: string } {
    const kind = this.int(0, 8);
    const a = this.noun();
    const b = this.noun();
    switch (kind) {
      case 0:
        return {
          specific: 'py',
          raw: `def ${this.snake()}(${a}s, ${b}=None):\n    """${this.sentence()}"""\n    result = []\n    for ${a} in ${a}s:\n${this.lines(1, 4, () => `        if ${a}.${this.noun()} is not None:\n            result.append(${this.snake()}(${a}.${this.noun()}))`)}\n    return result\n`,
        };
      case 1:
        return {
          specific: 'js',
          raw: `// ${this.sentence()}\nexport async function ${this.camel()}(${a}Id, options = {}) {\n  const response = await fetch(\`/api/${a}s/\${${a}Id}/${b}s\`);\n  if (!response.ok) throw new Error('${this.camel()} failed');\n  const ${a} = await response.json();\n${this.lines(1, 4, () => `  ${a}.${this.noun()} = options.${this.noun()} ?? ${this.camel()}(${a});`)}\n  return ${a};\n}\n`,
        };
      case 2: {
        const iface = this.pascal();
        return {
          specific: 'ts',
          raw: `/** ${this.sentence()} */\nexport interface ${iface} {\n${this.lines(2, 5, () => `  ${this.noun()}: ${this.pick(['string', 'number', 'boolean', 'Date', 'string[]'])};`)}\n}\n\nexport function ${this.camel()}(items: readonly ${iface}[]): Map<string, ${iface}> {\n  return new Map(items.map((item) => [item.${a}, item]));\n}\n`,
        };
      }
      case 3:
        return {
          specific: 'go',
          raw: `package ${a}\n\n// ${this.cap(this.camel())} ${this.sentence().toLowerCase()}\nfunc (s *${this.pascal()}) ${this.cap(this.camel())}(ctx context.Context, id int64) (*${this.cap(b)}, error) {\n\tif id <= 0 {\n\t\treturn nil, fmt.Errorf("invalid ${a} id %d", id)\n\t}\n\treturn s.${this.camel()}(ctx, id)\n}\n`,
        };
      case 4:
        return {
          specific: 'java',
          raw: `public class ${this.pascal()} {\n    // ${this.sentence()}\n    public List<${this.cap(a)}> ${this.camel()}(String ${b}) {\n        return ${a}s.stream().filter(x -> x.get${this.cap(b)}().equals(${b})).collect(Collectors.toList());\n    }\n}\n`,
        };
      case 5:
        return {
          specific: 'rs',
          raw: `/// ${this.sentence()}\npub fn ${this.snake()}(${a}: &${this.cap(a)}, ${b}: u64) -> Result<${this.cap(b)}, Error> {\n    let ${this.noun()} = ${a}.${this.snake()}(${b})?;\n    Ok(${this.cap(b)}::new(${this.noun()}))\n}\n`,
        };
      case 6:
        return {
          specific: 'sql',
          raw: `-- ${this.sentence()}\nSELECT ${a}s.id, ${a}s.${this.noun()}, COUNT(${b}s.id) AS ${b}_count\nFROM ${a}s\nJOIN ${b}s ON ${b}s.${a}_id = ${a}s.id\nWHERE ${a}s.${this.noun()} > ${this.int(1, 500)}\nGROUP BY ${a}s.id\nORDER BY ${b}_count DESC;\n`,
        };
      case 7:
        return {
          specific: 'sh',
          raw: `#!/usr/bin/env bash\n# ${this.sentence()}\nset -euo pipefail\nfor f in ./${a}s/*.${this.pick(['log', 'json', 'csv'])}; do\n  ${this.pick(['gzip -k', 'jq .', 'wc -l'])} "$f"\ndone\n`,
        };
      default:
        return { specific: 'md', raw: `# ${this.cap(a)} ${b} notes\n\n${this.lines(2, 5, () => this.sentence(8, 20))}\n` };
    }
  }

  seed() {
    const { raw, specific } = this.snippet();
    const tags = this.rnd() < this.tagShare ? [{ text: this.noun() }, ...(this.rnd() < 0.3 ? [{ text: this.verb() }] : [])] : [];
    return {
      asset: {
        application: APPLICATION,
        format: { fragment: { string: { raw } }, classification: { specific } },
        ...(tags.length ? { metadata: { tags } } : {}),
      },
    };
  }

  /** A query as people type them: identifiers, words, a typo now and then, an unfinished word. */
  query(): string {
    const kind = this.rnd();
    if (kind < 0.25) return this.camel();
    if (kind < 0.4) return this.snake();
    if (kind < 0.65) return `${this.verb()} ${this.noun()}${this.rnd() < 0.5 ? ` ${this.noun()}` : ''}`;
    if (kind < 0.8) {
      const w = this.noun();
      const i = this.int(1, w.length - 2);
      return `${this.verb()} ${w.slice(0, i)}${w[i + 1]}${w[i]}${w.slice(i + 2)}`; // two letters swapped
    }
    if (kind < 0.9) return `${this.noun()} ${this.noun().slice(0, this.int(3, 5))}`; // still typing
    return `how to ${this.verb()} the ${this.noun()} ${this.pick(PROSE)}`;
  }
}

// ---------------------------------------------------------------------------------------------------

/** The shared statistics (test/bench/stats.ts) of the finite samples: a failed measurement is NaN. */
function stats(samples: readonly number[]): LatencyStats {
  return sharedStats(samples.filter((x) => Number.isFinite(x)));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function line(label: string, s: LatencyStats, extra = ''): string {
  return `${label.padEnd(44)} p50 ${ms(s.p50).padStart(9)}   p95 ${ms(s.p95).padStart(9)}   mean ${ms(s.mean).padStart(9)}   max ${ms(s.max).padStart(9)}   (n=${s.n}${extra})`;
}

// ---------------------------------------------------------------------------------------------------
// Standalone run: serve a build, launch Chromium, run the section.

async function standalone(): Promise<number> {
  const root = repoRoot();
  const dist = distFolder(root);
  const port = Number(process.env.BENCH_SEARCH_PORT || 4186);
  const sizes = (argValue('--sizes') ?? '10000,100000').split(',').map(Number);
  const server = await serveBuild(root, dist, port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const stopWorkers = async (page: Page) => {
      const cdp = await page.context().newCDPSession(page);
      const status = new Map<string, string>();
      cdp.on('ServiceWorker.workerVersionUpdated', (e) => e.versions.forEach((v) => status.set(v.versionId, v.runningStatus)));
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        if (status.size > 0 && [...status.values()].every((s) => s === 'stopped')) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await cdp.detach();
      return [...status.values()].every((s) => s === 'stopped');
    };
    const log = (text = '') => console.log(text);
    const result = await runSearchBench({
      browser,
      origin: `http://localhost:${port}`,
      stopWorkers,
      sizes,
      log,
      ...(process.argv.includes('--relevance')
        ? { onLibrary: async ({ page, size, query }) => void (await measureRelevanceLatency({ page, assets: size, query, stopWorkers, log })) }
        : {}),
    });
    if (process.argv.includes('--json')) console.log(JSON.stringify(result));
    return 0;
  } finally {
    await browser.close();
    server.kill();
  }
}

if (process.argv[1] && /^search(-[^/]*)?\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();
