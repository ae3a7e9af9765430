/**
 * Relevance quality on CoSQA: nDCG@10, MRR@10, Recall@10 and Recall@100 of `POST /qgpt/relevance` with
 * `options.database: true` (and `?limit=100`), the whole 6,267-function corpus loaded as assets, one
 * relevant function per query; plus the relevance latency p50/p95 at that size (Node, in-memory store,
 * through app.request). The embedder is the hosts' built-in one, as the Node host reads it: the code vectors
 * (worker/models/code-vectors) beside the hashing embedder. A query's rank
 * is the rank of the first snippet of its function. Tuned on the tuning half of the dev queries only; the
 * target is on the held-out half (search-quality.ts `splitOf`).
 *
 *   npx esbuild test/bench/relevance-quality.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=.bench/relevance-quality.mjs && node .bench/relevance-quality.mjs [--verbose]
 *
 * (`npm run bench` runs it as one of its sections.)
 */
import { basename } from 'node:path';
import { formatSplit, loadCosqa, rankMetrics, round, splitMetrics, type SplitMetrics } from './search-quality.ts';
import { ms, quantile } from './stats.ts';
import type { Embedder } from '../../worker/core/embed/embedder.ts';
import { builtInEmbedder } from '../../worker/core/embed/select.ts';
import { codeVectorsFile } from '../../worker/node/model-files.ts';

const LATENCY_QUERIES = 200;

export interface RelevanceQuality {
  /** The id of the embedder the library was embedded with (absent in results written before it was recorded: hashing). */
  embedder?: string;
  queries: number;
  ndcg10: number;
  mrr10: number;
  recall10: number;
  recall100: number;
  split: SplitMetrics;
  loadSeconds: number;
  /** The first relevance call: embeds the whole library. */
  firstCallMs: number;
  /** Latency at `?limit=100` (the quality pass). */
  p50Ms: number;
  p95Ms: number;
  /** Latency at the default limit (10 snippets), what a client asks by default. */
  defaultP50Ms: number;
  defaultP95Ms: number;
  /** Calls at the default limit timed (`defaultP50Ms`, `defaultP95Ms`). */
  defaultCalls: number;
  /** The nDCG@10 to reach on the held-out half (NDCG_TARGET). */
  target: number;
}

/** nDCG@10 of relevance on CoSQA's held-out half must reach this. */
export const NDCG_TARGET = 0.48;

export async function measureRelevanceQuality(options: { data?: string; verbose?: boolean; embedder?: Embedder } = {}): Promise<RelevanceQuality> {
  const embedder = options.embedder ?? (await builtInEmbedder(codeVectorsFile(), 'the bench'));
  const { app, queries, idxOf, loadSeconds } = await loadCosqa({ ...options, embedder });
  const ranks: number[] = [];
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    const response = await app.request('/api/qgpt/relevance?limit=100', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: q.doc, options: { database: true } }),
    });
    const body = (await response.json()) as { relevant: { iterable: { asset?: { id: string } }[] } };
    times.push(performance.now() - t);
    if (!response.ok) throw new Error(`relevance: ${response.status} ${JSON.stringify(body)}`);
    const order = [...new Set(body.relevant.iterable.map((r) => r.asset?.id))];
    const rank = order.findIndex((id) => id !== undefined && idxOf.get(id) === q.retrieval_idx);
    ranks.push(rank);
    if (options.verbose) console.log(`${rank < 0 ? '-' : rank + 1}\t${q.doc}`);
  }
  const defaultTimes: number[] = [];
  for (const q of queries.slice(0, LATENCY_QUERIES)) {
    const t = performance.now();
    const response = await app.request('/api/qgpt/relevance', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: q.doc, options: { database: true } }),
    });
    await response.arrayBuffer();
    defaultTimes.push(performance.now() - t);
  }
  defaultTimes.sort((a, b) => a - b);
  const m = rankMetrics(ranks);
  const steady = times.slice(1).sort((a, b) => a - b);
  return {
    embedder: embedder.id,
    queries: queries.length,
    ndcg10: m.ndcg10,
    mrr10: m.mrr10,
    recall10: m.recall10,
    recall100: m.recallAll,
    split: splitMetrics(queries, ranks),
    loadSeconds,
    firstCallMs: round(times[0] ?? 0),
    p50Ms: round(quantile(steady, 0.5)),
    p95Ms: round(quantile(steady, 0.95)),
    defaultP50Ms: round(quantile(defaultTimes, 0.5)),
    defaultP95Ms: round(quantile(defaultTimes, 0.95)),
    defaultCalls: defaultTimes.length,
    target: NDCG_TARGET,
  };
}

export function formatRelevanceQuality(r: RelevanceQuality): string {
  return [
    `CoSQA (${r.queries} dev queries, 6,267 functions as assets, POST /qgpt/relevance database:true, embedder ${r.embedder}):`,
    `  all: nDCG@10 ${r.ndcg10.toFixed(4)}   MRR@10 ${r.mrr10.toFixed(4)}   Recall@10 ${r.recall10.toFixed(3)}   Recall@100 ${r.recall100.toFixed(3)}`,
    formatSplit(r.split),
    `  target held-out nDCG@10 >= ${r.target}: ${r.split.heldOut.ndcg10 >= r.target ? 'met' : 'NOT met'}`,
    `  relevance latency at 6,267 assets (Node, in memory): default limit (10) p50 ${ms(r.defaultP50Ms)}, p95 ${ms(r.defaultP95Ms)}; limit=100 p50 ${ms(r.p50Ms)}, p95 ${ms(r.p95Ms)}`,
    `  first call (embeds the whole library) ${ms(r.firstCallMs)}; corpus loaded in ${r.loadSeconds.toFixed(1)} s`,
  ].join('\n');
}

if (process.argv[1] && /relevance-quality[^/]*\.(ts|mjs|js)$/.test(basename(process.argv[1]))) {
  const result = await measureRelevanceQuality({ verbose: process.argv.includes('--verbose') });
  console.log(formatRelevanceQuality(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
}
