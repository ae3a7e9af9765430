/** docs/performance.md's section for the Node host beside the browser (test/bench/node-host.ts's figures). */
import { code, num, table, time } from './markdown-tables.ts';
import type { RankFigures } from './node-host-fts.ts';
import type { NodeHostBenchResult, NodeHostRow } from './node-host.ts';
import type { Stats } from './stats.ts';

const COLUMNS: [NodeHostRow['host'], string][] = [
  ['browser', 'browser worker (IndexedDB)'],
  ['pglite', 'Node host, PGlite'],
  ['postgres', 'Node host, PostgreSQL'],
];

/** A p50 (or p95) with its n; a p95 only from 20 samples up. */
function quantileCell(s: Stats | undefined, which: 'p50' | 'p95'): string {
  if (!s || s.n === 0) return 'not measured';
  if (which === 'p95' && s.n < 20) return `– (n=${s.n})`;
  return `${time(s[which])} (n=${num(s.n)})`;
}

export function nodeHostSection(r: NodeHostBenchResult | undefined): string | undefined {
  if (!r) return undefined;
  const byHost = new Map(r.rows.map((row) => [row.host, row]));
  const size = r.rows.find((row) => row.search)?.search?.assets ?? 100_000;
  const cells = (f: (row: NodeHostRow) => string) =>
    COLUMNS.map(([host]) => {
      const row = byHost.get(host);
      if (!row) return 'not measured';
      return row.skipped ? 'skipped' : f(row);
    });
  const rows: string[][] = [
    ['create p50, official SDK, one client (classifier on each)', ...cells((row) => quantileCell(row.create?.sequential, 'p50'))],
    ['create p95, one client', ...cells((row) => quantileCell(row.create?.sequential, 'p95'))],
    [
      `creates with ${r.settings.clients} clients in flight`,
      ...cells((row) => (row.create ? `${num(row.create.inFlight.perSecond)} assets/s (n=${num(row.create.inFlight.assets)})` : 'not measured')),
    ],
    [`import of ${num(size)} assets (${code('POST /assets/import')}, 1,000 a request)`, ...cells((row) => (row.search ? `${row.search.importSeconds.toFixed(1)} s` : 'not measured'))],
    [`first search at ${num(size)} (builds the index)`, ...cells((row) => (row.search ? `${time(row.search.firstSearchMs)} (n=1)` : 'not measured'))],
    [`search p50 at ${num(size)}, end to end`, ...cells((row) => quantileCell(row.search?.endToEnd, 'p50'))],
    [`search p95 at ${num(size)}, end to end`, ...cells((row) => quantileCell(row.search?.endToEnd, 'p95'))],
    [`search p95 at ${num(size)}, ranking in the server (Server-Timing ${code('rank')})`, ...cells((row) => quantileCell(row.search?.rank, 'p95'))],
    ['write → frame on another instance, p50', ...cells((row) => (row.stream ? quantileCell(row.stream.sent, 'p50') : `none: ${row.streamNote ?? 'not measured'}`))],
    ['write → frame on another instance, p95', ...cells((row) => (row.stream ? quantileCell(row.stream.sent, 'p95') : '–'))],
  ];
  const out = [
    '## The Node host beside the browser',
    '',
    `The same API from the Node host (${code('node bin/tessera.mjs serve')}, a child process, at the root path) on PGlite (a fresh data folder) and on PostgreSQL (fresh schemas, dropped after), and from the browser's service worker, each as a client on this machine sees it: the Node host through Node's ${code('fetch')} and the official SDK, the worker through a page's ${code('fetch')}. Creates: the same ${num(r.rows.find((row) => row.create)?.create?.sequential.n ?? 0)} generated snippets everywhere after ${r.settings.createWarmup} warm-up, the language classifier on each. Search: the search section's library and queries (${r.settings.searchWarmup} warm-up); the browser's figures are that section's, from this run. Stream: ${code('POST /asset/{id}/scores/increment')} on one instance to the frame on another's ${code('/assets/stream/identifiers')} WebSocket (the browser's: another tab of the same browser, from the streams section of this run), ${r.settings.frameWarmup} warm-up. n on every figure; a p95 only where n ≥ 20.`,
    '',
    table(['', ...COLUMNS.map(([, label]) => label)], rows),
  ];
  const stream = byHost.get('postgres')?.stream;
  if (stream) out.push('', `On PostgreSQL the frame reaches the other instance p50 ${time(stream.afterAck.p50)} after the writer answered (n=${num(stream.afterAck.n)}): the NOTIFY, then a read of the change log.`);
  const skipped = r.rows.filter((row) => row.skipped);
  for (const row of skipped) out.push('', `The ${COLUMNS.find(([host]) => host === row.host)![1]} column was skipped: ${row.skipped}.`);
  if (r.fullText) out.push('', fullTextPart(r.fullText));
  return out.join('\n');
}

function fullTextPart(f: NonNullable<NodeHostBenchResult['fullText']>): string {
  const row = (label: string, x: RankFigures) => [label, x.ndcg10.toFixed(4), x.mrr10.toFixed(4), x.recall10.toFixed(3), `${num(x.answered)} / ${num(f.queries)}`, `${x.queryMsMean.toFixed(2)} ms`];
  const best = Math.max(f.websearch.ndcg10, f.anyWord.ndcg10);
  return [
    `### PostgreSQL's full-text search against Tessera's, on CoSQA`,
    '',
    `${num(f.queries)} dev queries over ${num(f.functions)} functions loaded as assets; each asset's name (weight A), description (B) and code (C) in one ${code('tsvector')} (${code("'english'")}, GIN index) on ${f.engine === 'postgres' ? 'the PostgreSQL server' : 'PGlite (no PostgreSQL server in this run)'}, ranked by ${code('ts_rank')} (test/bench/node-host-fts.ts):`,
    '',
    table(
      ['ranking', 'nDCG@10', 'MRR@10', 'Recall@10', 'queries with any match', 'mean time a query'],
      [
        row(`Tessera, ${code('GET /assets/search')} (in process)`, f.tessera),
        row(`${code('websearch_to_tsquery')} (every word must match)`, f.websearch),
        row('the same lexemes OR-ed (any word may match)', f.anyWord),
      ],
    ),
    '',
    `Tessera keeps its own search index on every store: PostgreSQL's full text ranks these queries at nDCG@10 ${best.toFixed(4)} at best, against ${f.tessera.ndcg10.toFixed(4)} for Tessera's search, which splits identifiers, forgives typos and ranks the same in the browser and on both Node stores.`,
    '',
    f.pgvector
      ? `pgvector is available on this server, but not yet measured here: relevance keeps Tessera's own vector index.`
      : `pgvector is not available on this server (no ${code('vector')} in ${code('pg_available_extensions')}), so the database's vector search was not measured: relevance keeps Tessera's own vector index.`,
  ].join('\n');
}
