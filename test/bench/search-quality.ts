/**
 * Search quality on CoSQA code search: nDCG@10, MRR@10 and Recall@10/@50 (the search answers its best 50) of `GET /assets/search` with the
 * whole 6,267-function corpus loaded as assets, one relevant function per query (test/fixtures/cosqa).
 *
 *   node --experimental-strip-types test/bench/search-quality.ts [--data <cosqa dir>] [--verbose]
 *
 * (Node 22.6+; on Node 20, which lacks the flag, bundle it first:
 *   npx esbuild test/bench/search-quality.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=node_modules/.cache/bench/search-quality.mjs && node node_modules/.cache/bench/search-quality.mjs)
 *
 * The corpus goes in through `POST /assets/create` of the core app on a MemoryStore, each function a
 * Python fragment (the seed names its language, so the language model is not needed; the name is the one
 * the service suggests), and every query through `GET /assets/search?query=…&transferables=false`, exactly
 * as a client would. The data is under C-UDA (evaluation only): it is read in place, never copied.
 * The 500 queries are the dev split, which the ranking was tuned on; the two halves are shown apart as a
 * check that the figure does not hang on a few queries.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../worker/core/app.ts';
import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { MemoryFeed } from '../../worker/core/feed/feed.ts';
import { MAX_RANKED_RESULTS } from '../../worker/core/search/service.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { fragmentSeed } from '../support/seeds.ts';

interface Query {
  doc: string;
  retrieval_idx: number;
}

export interface QualityResult {
  queries: number;
  ndcg10: number;
  mrr10: number;
  recall10: number;
  /** Recall over everything the search answers (its best MAX_RANKED_RESULTS). */
  recallAll: number;
  answered: number;
  halves: { ndcg10: number; mrr10: number }[];
  loadSeconds: number;
  queryMsMean: number;
  /** The nDCG@10 to reach (NDCG_TARGET). */
  target: number;
}

/** nDCG@10 of the search on CoSQA must reach this. */
export const NDCG_TARGET = 0.38;

/** The CoSQA data: `--data <dir>`, else the copy in test/fixtures/cosqa (evaluation only, see its README). */
function dataDir(): string {
  const i = process.argv.indexOf('--data');
  if (i > 0 && process.argv[i + 1]) return resolve(process.argv[i + 1]!);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'fixtures', 'cosqa');
    if (existsSync(join(candidate, 'code_idx_map.txt'))) return candidate;
    const up = dirname(dir);
    if (up === dir) throw new Error('search-quality: test/fixtures/cosqa not found; pass --data <dir>');
    dir = up;
  }
}

/** Never called: every seed names its language. */
const noClassifier: Classifier = {
  classify: async () => {
    throw new Error('search-quality: unexpected classification');
  },
};

/** The CoSQA corpus loaded into a fresh core app (in memory), each function an asset; and the dev queries. */
export async function loadCosqa(options: { data?: string } = {}) {
  const data = options.data ?? dataDir();
  const corpus: Record<string, number> = JSON.parse(readFileSync(join(data, 'code_idx_map.txt'), 'utf8'));
  const queries: Query[] = JSON.parse(readFileSync(join(data, 'cosqa-retrieval-dev-500.json'), 'utf8'));
  const app = createApp({ store: new MemoryStore(), feed: new MemoryFeed(), classifier: noClassifier });
  const t0 = performance.now();
  const idxOf = new Map<string, number>();
  const entries = Object.entries(corpus);
  for (let i = 0; i < entries.length; i += 50) {
    await Promise.all(
      entries.slice(i, i + 50).map(async ([code, idx]) => {
        const response = await app.request('/api/assets/create?transferables=false', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(fragmentSeed(code, undefined, { generic: 'CODE', specific: 'py' })),
        });
        if (!response.ok) throw new Error(`create: ${response.status} ${await response.text()}`);
        idxOf.set(((await response.json()) as { id: string }).id, idx);
      }),
    );
  }
  return { app, queries, idxOf, loadSeconds: round((performance.now() - t0) / 1000) };
}

/** nDCG@10, MRR@10, Recall@10 and recall over the whole answer, from the 0-based rank of each query's function (-1: not found). */
export function rankMetrics(ranks: readonly number[]) {
  return {
    ndcg10: round(mean(ranks.map((r) => (r >= 0 && r < 10 ? 1 / Math.log2(r + 2) : 0)))),
    mrr10: round(mean(ranks.map((r) => (r >= 0 && r < 10 ? 1 / (r + 1) : 0)))),
    recall10: round(mean(ranks.map((r) => (r >= 0 && r < 10 ? 1 : 0)))),
    recallAll: round(mean(ranks.map((r) => (r >= 0 ? 1 : 0)))),
  };
}

/** The metrics of each half of the queries, as a check that a figure does not hang on a few queries. */
export function halves(ranks: readonly number[]) {
  const half = Math.floor(ranks.length / 2);
  return [ranks.slice(0, half), ranks.slice(half)].map((h) => {
    const m = rankMetrics(h);
    return { ndcg10: m.ndcg10, mrr10: m.mrr10 };
  });
}

export async function measureSearchQuality(options: { data?: string; verbose?: boolean } = {}): Promise<QualityResult> {
  const { app, queries, idxOf, loadSeconds } = await loadCosqa(options);
  const ranks: number[] = [];
  let queryMs = 0;
  for (const q of queries) {
    const t = performance.now();
    const response = await app.request(`/api/assets/search?query=${encodeURIComponent(q.doc)}&transferables=false`);
    const body = (await response.json()) as { iterable: { identifier: string }[] };
    queryMs += performance.now() - t;
    if (!response.ok) throw new Error(`search: ${response.status} ${JSON.stringify(body)}`);
    const rank = body.iterable.findIndex((r) => idxOf.get(r.identifier) === q.retrieval_idx);
    ranks.push(rank);
    if (options.verbose) console.log(`${rank < 0 ? '-' : rank + 1}\t${q.doc}`);
  }
  return { queries: queries.length, answered: MAX_RANKED_RESULTS, ...rankMetrics(ranks), halves: halves(ranks), loadSeconds, queryMsMean: round(queryMs / queries.length), target: NDCG_TARGET };
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
export const round = (x: number) => Math.round(x * 10000) / 10000;

export function formatQuality(r: QualityResult): string {
  return [
    `CoSQA (${r.queries} dev queries, 6,267 functions as assets, GET /assets/search):`,
    `  nDCG@10 ${r.ndcg10.toFixed(4)}   MRR@10 ${r.mrr10.toFixed(4)}   Recall@10 ${r.recall10.toFixed(3)}   Recall@${r.answered} ${r.recallAll.toFixed(3)}   (target nDCG@10 >= ${r.target}: ${r.ndcg10 >= r.target ? 'met' : 'NOT met'})`,
    `  halves: nDCG@10 ${r.halves.map((h) => h.ndcg10.toFixed(4)).join(' / ')}, MRR@10 ${r.halves.map((h) => h.mrr10.toFixed(4)).join(' / ')}`,
    `  corpus loaded in ${r.loadSeconds.toFixed(1)} s; ${r.queryMsMean.toFixed(2)} ms a query through app.request (Node, in-memory store)`,
  ].join('\n');
}

if (process.argv[1] && /search-quality[^/]*\.(ts|mjs|js)$/.test(basename(process.argv[1]))) {
  const result = await measureSearchQuality({ verbose: process.argv.includes('--verbose') });
  console.log(formatQuality(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
}
