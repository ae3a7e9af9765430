/**
 * PostgreSQL's own full-text search against Tessera's search, on CoSQA (issue 16: "use the database's own
 * full-text where that ranks as well: measure before you choose"). The corpus is loaded as assets into the
 * core app (test/bench/search-quality.ts's `loadCosqa`); each asset's name, description and code then go
 * into one table with a weighted `tsvector` (name A, description B, code C; 'english', GIN index), and
 * each dev query is ranked by `ts_rank` two ways:
 *  - `websearch_to_tsquery` as it is (every word must match: what a search box built on it does);
 *  - the same lexemes OR-ed (any word may match), which lets ts_rank order partial matches.
 * Tessera's figure is `GET /assets/search` on the same app, same queries, in the same run.
 * On the PostgreSQL server of DATABASE_URL (a fresh schema, dropped after), else on an in-memory PGlite
 * (the same engine: the same ranks). Also says whether the server offers pgvector.
 *
 * Alone: npx esbuild test/bench/node-host-fts.ts --bundle --platform=node --format=esm --packages=external \
 *   --outfile=.bench/node-host-fts.mjs && [DATABASE_URL=postgres://…] node .bench/node-host-fts.mjs
 */
import { basename } from 'node:path';
import { PgliteDatabase, PostgresDatabase, type Database } from '../../worker/node/pg/database.ts';
import { MAX_RANKED_RESULTS } from '../../worker/core/search/service.ts';
import { loadCosqa, rankMetrics, searchCosqa } from './search-quality.ts';

export interface RankFigures {
  ndcg10: number;
  mrr10: number;
  recall10: number;
  /** Queries that matched at least one function. */
  answered: number;
  queryMsMean: number;
}

export interface FullTextResult {
  engine: 'postgres' | 'pglite';
  queries: number;
  functions: number;
  tessera: RankFigures;
  websearch: RankFigures;
  anyWord: RankFigures;
  /** `vector` in pg_available_extensions of the engine used. */
  pgvector: boolean;
}

const LIMIT = MAX_RANKED_RESULTS;

export async function measureFullText(options: { databaseUrl?: string } = {}): Promise<FullTextResult> {
  const cosqa = await loadCosqa();
  const { app, queries, idxOf } = cosqa;
  // Tessera's search on the same app.
  const tessera = await searchCosqa(cosqa);

  // Name, description and code of each asset, as the service made them.
  const rows: { idx: number; name: string; description: string; code: string }[] = [];
  for (const [id, idx] of idxOf) {
    const asset = (await (await app.request(`/api/asset/${id}?transferables=false`)).json()) as {
      name?: string;
      description?: string;
      formats: { iterable: { fragment?: { string?: { raw?: string } } }[] };
    };
    rows.push({ idx, name: asset.name ?? '', description: asset.description ?? '', code: asset.formats.iterable[0]?.fragment?.string?.raw ?? '' });
  }

  const db: Database = options.databaseUrl ? await PostgresDatabase.open({ url: options.databaseUrl, max: 1 }) : await PgliteDatabase.open();
  const schema = `fts_${process.pid}_${Date.now().toString(36)}`;
  const lease = await db.lease();
  const sql = lease.client;
  try {
    await sql.script(`CREATE SCHEMA "${schema}"; SET search_path TO "${schema}";
      CREATE TABLE docs (idx integer PRIMARY KEY, name text, description text, code text, tsv tsvector)`);
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      await sql.query('INSERT INTO docs (idx, name, description, code) SELECT i::integer, n, d, c FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(i, n, d, c)', [
        batch.map((r) => String(r.idx)),
        batch.map((r) => r.name),
        batch.map((r) => r.description),
        batch.map((r) => r.code),
      ]);
    }
    await sql.script(`UPDATE docs SET tsv = setweight(to_tsvector('english', name), 'A') || setweight(to_tsvector('english', description), 'B') || setweight(to_tsvector('english', code), 'C');
      CREATE INDEX docs_tsv ON docs USING gin (tsv); ANALYZE docs`);

    const rank = async (tsquery: string) => {
      const ranks: number[] = [];
      let elapsed = 0;
      let answered = 0;
      for (const q of queries) {
        const t = performance.now();
        const found = await sql.query<{ idx: number }>(`SELECT idx FROM docs, ${tsquery} AS q WHERE tsv @@ q ORDER BY ts_rank(tsv, q) DESC, idx LIMIT ${LIMIT}`, [q.doc]);
        elapsed += performance.now() - t;
        if (found.length) answered++;
        ranks.push(found.findIndex((r) => Number(r.idx) === q.retrieval_idx));
      }
      return figures(ranks, answered, elapsed / queries.length);
    };
    const websearch = await rank(`websearch_to_tsquery('english', $1)`);
    // The query's lexemes, OR-ed: the text form of a plainto_tsquery with its '&' turned to '|' (cast back, not re-parsed).
    const anyWord = await rank(`CAST(replace(CAST(plainto_tsquery('english', $1) AS text), ' & ', ' | ') AS tsquery)`);
    const vector = await sql.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    return {
      engine: db.kind,
      queries: queries.length,
      functions: rows.length,
      tessera: figures(tessera.ranks, tessera.answered, tessera.queryMsMean),
      websearch,
      anyWord,
      pgvector: vector.length > 0,
    };
  } finally {
    await sql.script(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; SET search_path TO DEFAULT`).catch(() => undefined);
    lease.release();
    await db.close();
  }
}

function figures(ranks: number[], answered: number, queryMsMean: number): RankFigures {
  const m = rankMetrics(ranks);
  return { ndcg10: m.ndcg10, mrr10: m.mrr10, recall10: m.recall10, answered, queryMsMean: Math.round(queryMsMean * 100) / 100 };
}

export function formatFullText(r: FullTextResult): string {
  const row = (label: string, f: RankFigures) =>
    `    ${label.padEnd(44)} nDCG@10 ${f.ndcg10.toFixed(4)}   MRR@10 ${f.mrr10.toFixed(4)}   Recall@10 ${f.recall10.toFixed(3)}   answered ${f.answered}/${r.queries}   ${f.queryMsMean.toFixed(2)} ms a query`;
  return [
    `    CoSQA, ${r.queries} dev queries over ${r.functions.toLocaleString('en')} functions; full text on ${r.engine === 'postgres' ? 'the PostgreSQL server' : 'PGlite (no PostgreSQL server)'}:`,
    row('Tessera (GET /assets/search)', r.tessera),
    row("ts_rank, websearch_to_tsquery (all words)", r.websearch),
    row('ts_rank, the same lexemes OR-ed (any word)', r.anyWord),
    `    pgvector: ${r.pgvector ? 'available on this server' : 'not available on this server (no `vector` in pg_available_extensions)'}`,
  ].join('\n');
}

if (process.argv[1] && /^node-host-fts\.(ts|mjs|js)$/.test(basename(process.argv[1]))) {
  console.log(formatFullText(await measureFullText({ databaseUrl: process.env.DATABASE_URL || undefined })));
}
