/**
 * Embedding inference in the service worker (issue 5, item 2: inference must not block the worker's other
 * requests for long), in Chromium against the built worker:
 *
 *  - generates a MiniLM-shaped model with test/support/tiny-model.ts (random weights, the real file
 *    layout): 384 wide, 9 feed-forward blocks of 384 -> 1536 -> 384, which is all-MiniLM-L6-v2's
 *    multiply-adds per token (6 layers of attention projections and feed-forward; the generated graph has
 *    no attention, whose sequence-length term is small at 100 tokens), and MiniLM's 30,522-row
 *    embedding table: fp32, about 90 MB, like MiniLM's `onnx/model.onnx` (slower than its int8 file);
 *  - serves it as `/models/tessera-bench/minilm-shaped/` (a symlink from the build's models folder to a
 *    temporary folder, both removed afterwards) and registers the worker with
 *    `/sw.js?embedding-model=tessera-bench/minilm-shaped` in a fresh context;
 *  - times the model's load (`POST /api/embeddings {texts: []}`), also again after each of 3 worker stops;
 *  - one `POST /api/embeddings` of 64 snippets of 100 tokens (98 vocabulary words + [CLS] [SEP]): ms a
 *    snippet; and meanwhile sequential `GET /api/__echo` pings from the page, against the same pings
 *    when the worker is idle: how long inference keeps the worker from answering other requests.
 */
import { mkdir, mkdtemp, rm, rmdir, symlink } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { mulberry32 } from '../support/random.ts';
import { tinyVocabulary, writeTinyModel, type TinyModelOptions } from '../support/tiny-model.ts';
import { line, ms, stats, type Stats } from './stats.ts';

export const BENCH_MODEL_ID = 'tessera-bench/minilm-shaped';
/** all-MiniLM-L6-v2's shape in the generator's terms (see the header). */
const MODEL: TinyModelOptions = { hidden: 384, layers: 9, intermediate: 1536, embeddingRows: 30522, seed: 5 };
const SNIPPETS = 64;
const TOKENS = 100;
const IDLE_WARMUP = 20;
const IDLE_PINGS = 200;
const RELOADS = 3;
const BLANK = '/embed-bench.html';

export interface EmbeddingBenchResult {
  model: { id: string; hidden: number; blocks: number; intermediate: number; embeddingRows: number; bytes: number; generateSeconds: number };
  /** First `POST /api/embeddings {texts: []}`: fetches the lazy script, the wasm and the model, builds the session. */
  loadMs: number;
  /** The worker's own figure for that load (GET /api/embeddings stats.loadMs). */
  workerLoadMs: number;
  /** The same after a worker stop (the worker keeps no model across a stop). */
  reload: Stats;
  unconfirmedStops: number;
  batch: { snippets: number; tokens: number; totalMs: number; embedMs: number; msPerSnippet: number; inferenceBatches: number; longestSliceMs: number };
  echoIdle: Stats;
  echoDuringBatch: Stats;
}

export interface EmbeddingBenchOptions {
  browser: Browser;
  origin: string;
  /** The build folder the server serves (the model is linked into its `models/`). */
  dist: string;
  stopWorkers: (page: Page) => Promise<boolean>;
  log: (line?: string) => void;
  seed?: number;
}

interface EmbedderInfo {
  id: string;
  kind: string;
  status: string;
  reason?: string;
  error?: string;
  stats?: { texts: number; batches: number; inferenceMs: number; loadMs: number; longestSliceMs: number };
}

export async function runEmbeddingBench(options: EmbeddingBenchOptions): Promise<EmbeddingBenchResult> {
  const { log } = options;
  const folder = await mkdtemp(join(tmpdir(), 'tessera-bench-model-'));
  const link = join(options.dist, 'models', BENCH_MODEL_ID);
  const created = await missingAncestors(link, options.dist);
  const context = await options.browser.newContext();
  try {
    const t0 = Date.now();
    await writeTinyModel(folder, MODEL);
    const generateSeconds = (Date.now() - t0) / 1000;
    const bytes = statSync(join(folder, 'onnx', 'model.onnx')).size;
    await mkdir(dirname(link), { recursive: true });
    await symlink(folder, link, 'dir');

    const page = await context.newPage();
    await context.route(`**${BLANK}`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>embedding bench</title>' }));
    await page.goto(`${options.origin}${BLANK}`);
    await page.evaluate(async (url) => {
      const controlled = new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
      await navigator.serviceWorker.register(url, { scope: '/' });
      if (!navigator.serviceWorker.controller) await controlled;
    }, `/sw.js?embedding-model=${BENCH_MODEL_ID}`);
    const before = await page.evaluate(pageInfo);
    if (before.kind !== 'transformers') throw new Error(`embedding bench: the worker did not pick the generated model: ${before.reason ?? JSON.stringify(before)}`);

    const load = await page.evaluate(pageEmbed, []);
    const loaded = await page.evaluate(pageInfo);
    if (loaded.status !== 'ready') throw new Error(`embedding bench: the model did not load: ${loaded.error ?? loaded.status}`);
    const idle = await page.evaluate(pagePings, IDLE_WARMUP + IDLE_PINGS);
    const texts = snippetTexts(options.seed ?? 1);
    const busy = await page.evaluate(pageEmbedWhilePinging, texts);
    const after = await page.evaluate(pageInfo);
    const reloads: number[] = [];
    let unconfirmed = 0;
    for (let i = 0; i < RELOADS; i++) {
      if (!(await options.stopWorkers(page))) unconfirmed++;
      reloads.push((await page.evaluate(pageEmbed, [])).ms);
    }

    const inferenceBatches = (after.stats?.batches ?? 0) - (loaded.stats?.batches ?? 0);
    const result: EmbeddingBenchResult = {
      model: { id: BENCH_MODEL_ID, hidden: MODEL.hidden!, blocks: MODEL.layers!, intermediate: MODEL.intermediate!, embeddingRows: MODEL.embeddingRows!, bytes, generateSeconds },
      loadMs: round(load.ms),
      workerLoadMs: round(loaded.stats?.loadMs ?? NaN),
      reload: stats(reloads),
      unconfirmedStops: unconfirmed,
      batch: {
        snippets: SNIPPETS,
        tokens: TOKENS,
        totalMs: round(busy.totalMs),
        embedMs: round(busy.embedMs),
        msPerSnippet: round(busy.embedMs / SNIPPETS),
        inferenceBatches,
        longestSliceMs: round(after.stats?.longestSliceMs ?? NaN),
      },
      echoIdle: stats(idle.slice(IDLE_WARMUP)),
      echoDuringBatch: stats(busy.pings),
    };
    log(
      `  model: generated in ${generateSeconds.toFixed(1)} s (Node), ${(bytes / 1e6).toFixed(0)} MB fp32, random weights; 384 wide, ${MODEL.layers} feed-forward blocks 384-1536-384 ` +
        `(= all-MiniLM-L6-v2's multiply-adds per token), ${MODEL.embeddingRows!.toLocaleString('en')}-row embedding table; onnxruntime-web wasm, 1 thread`,
    );
    log(`  load (first POST /api/embeddings {texts: []}: lazy script, wasm, model files, session): ${ms(result.loadMs)} (worker's own figure ${ms(result.workerLoadMs)}); again after a worker stop: ${reloads.map(ms).join(', ')}`);
    if (unconfirmed) log(`  note: ${unconfirmed} stop(s) not confirmed by CDP`);
    log(
      `  ${SNIPPETS} snippets x ${TOKENS} tokens in one POST /api/embeddings: ${ms(result.batch.totalMs)} end to end, inference ${ms(result.batch.embedMs)}: ` +
        `${ms(result.batch.msPerSnippet)} a snippet; ${inferenceBatches} inference batches, longest ${ms(result.batch.longestSliceMs)}`,
    );
    log(line('GET /api/__echo, worker idle', result.echoIdle, `, after ${IDLE_WARMUP} warm-up`));
    log(line('GET /api/__echo, during that batch', result.echoDuringBatch, ', one at a time'));
    return result;
  } finally {
    await context.close();
    await rm(link, { force: true });
    for (const dir of created.reverse()) await rmdir(dir).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}

/** Folders between `root` and `path` (exclusive) that do not exist yet, outermost first: created here, removed after. */
async function missingAncestors(path: string, root: string): Promise<string[]> {
  const out: string[] = [];
  for (let dir = dirname(path); dir.startsWith(root) && dir !== root && !existsSync(dir); dir = dirname(dir)) out.unshift(dir);
  return out;
}

/** `SNIPPETS` texts of `TOKENS` tokens: whole vocabulary words are one WordPiece token each, plus [CLS] and [SEP]. */
function snippetTexts(seed: number): string[] {
  const words = tinyVocabulary().filter((w) => /^[a-z]{2,}$/.test(w));
  const random = mulberry32(seed);
  return Array.from({ length: SNIPPETS }, () => Array.from({ length: TOKENS - 2 }, () => words[Math.floor(random() * words.length)]!).join(' '));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------------------------------
// Page-side functions: serialised into the page, so self-contained.

function pageInfo(): Promise<EmbedderInfo> {
  return (async () => (await fetch('/api/embeddings')).json())();
}

function pageEmbed(texts: string[]): Promise<{ ms: number }> {
  return (async () => {
    const t0 = performance.now();
    const response = await fetch('/api/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ texts }) });
    const text = await response.text();
    if (!response.ok) throw new Error(`embeddings: ${response.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - t0 };
  })();
}

function pagePings(count: number): Promise<number[]> {
  return (async () => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      await (await fetch('/api/__echo')).text();
      out.push(performance.now() - t0);
    }
    return out;
  })();
}

/** One embedding request, and echo pings one after another until it has answered. */
function pageEmbedWhilePinging(texts: string[]): Promise<{ totalMs: number; embedMs: number; pings: number[] }> {
  return (async () => {
    let done = false;
    const t0 = performance.now();
    const big = fetch('/api/embeddings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ texts }) }).then(async (response) => {
      const text = await response.text();
      if (!response.ok) throw new Error(`embeddings: ${response.status} ${text.slice(0, 300)}`);
      const timing = response.headers.get('server-timing') ?? '';
      return { totalMs: performance.now() - t0, embedMs: Number(/embed;dur=([\d.]+)/.exec(timing)?.[1] ?? NaN) };
    });
    void big.finally(() => (done = true)).catch(() => undefined);
    const pings: number[] = [];
    while (!done) {
      const t = performance.now();
      await (await fetch('/api/__echo')).text();
      pings.push(performance.now() - t);
    }
    return { ...(await big), pings };
  })();
}
