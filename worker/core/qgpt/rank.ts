/**
 * Hybrid ranking of snippets for relevance (design decision 8): a lexical score (BM25F over the code-aware
 * tokenizer, the search's own index and query analysis) and a vector score (cosine of the snippet's and the
 * query's embedding), each min-max normalised over the candidates and blended with the lexical side weighted
 * by the embedder's LEXICAL_WEIGHT. Min-max blending beat reciprocal rank fusion in every pairing measured.
 *
 * - The library (`database`, `assets`): assets are ranked (lexical from the search index, vector from the
 *   best of their snippets), then each top asset's best snippets are taken.
 * - Texts given with the request (`seeds`, `paths`): their snippets are ranked in an index made for the call.
 */
import { genericOf } from '../assets/content.ts';
import type { ServiceContext } from '../deps.ts';
import { timed, type Timing } from '../timing.ts';
import { describeEmbedder, dot, type EmbedderInfo } from '../embed/embedder.ts';
import type { ClassificationSpecificEnum } from '../model/schemas.ts';
import { PSEUDO, splitProse } from '../search/documents.ts';
import { FIELD_COUNT } from '../search/lexical/fields.ts';
import { LexicalIndex } from '../search/lexical/lexical-index.ts';
import type { Hits } from '../search/lexical/ranking.ts';
import { analyseQuery } from '../search/query.ts';
import { searchIndexFor } from '../search/search-index.ts';
import { isStopword, terms } from '../search/tokenize.ts';
import { looksLikeCode } from '../assets/language/shape.ts';
import { splitSnippets } from './vectors/snippets.ts';
import { dotQuantized } from './vectors/vector-matrix.ts';
import { embeddingText, libraryVectorsWithQuery, madeFrom, readAssetTexts, vectorIndexFor } from './vectors/snippet-vectors.ts';

/**
 * Weight of the lexical score in the blend, by the kind of embedder whose vectors it is blended with: the
 * better the vectors, the less weight the lexical side needs. Tuned on CoSQA (test/bench/relevance-quality.ts,
 * nDCG@10; docs/performance.md):
 * - hashing alone: 0.5 0.454, 0.55 0.454, 0.6 0.456, 0.65 0.454, 0.7 0.449, 0.8 0.445 with 3-5-grams; 0.6
 *   0.466 and 0.7 0.460 with the 2-4-grams the hashing embedder now uses. Also tried, no better: scores
 *   divided by their maximum instead of min-max (0.453), the language word left out of the lexical query too
 *   (0.455), stopwords left out of the vector query (0.448), comments weighted twice in the embedded text
 *   (0.455), the asset's name left out of it (0.450), 50 or 100 candidates a side (same). Vectors stored in
 *   8 bits (vector-matrix.ts) cost 0.0014 (0.466 -> 0.465).
 * - the code vectors beside hashing (embed/code-vectors.ts): chosen on the tuning half only; the figures
 *   are in docs/performance.md ("Code vectors").
 * - models and endpoints: not measured on code; the hashing embedder's weight.
 */
export const LEXICAL_WEIGHT: Record<EmbedderInfo['kind'], number> = {
  hashing: 0.6,
  'code-vectors': 0.4,
  transformers: 0.6,
  endpoint: 0.6,
  custom: 0.6,
};
/** Candidates taken from each side before blending. */
const CANDIDATES = 100;
/** At most this many snippets of one asset are answered. */
const PER_ASSET = 3;

/** A text of the query space given with the request. */
export interface SpaceText {
  text: string;
  specific?: ClassificationSpecificEnum;
  /** A name for it (the file's name, the seed's name). */
  source?: string;
  path?: string;
}

export interface RankedSnippet {
  text: string;
  start: number;
  end: number;
  /** Blended score in [0, 1]. */
  score: number;
  asset?: string;
  path?: string;
  source?: string;
  specific?: ClassificationSpecificEnum;
}

/**
 * Programming-language names in a query say which language, not what the code does (in a Python library
 * every function is Python), so the vector side leaves them out: they only blur the query's vector.
 */
const LANGUAGE_WORDS = new Set(
  'python py javascript js typescript ts java golang rust ruby php cpp csharp kotlin swift scala bash shell powershell perl lua haskell elixir erlang clojure dart julia matlab'.split(' '),
);

export function vectorQuery(query: string): string {
  const kept = query.split(/\s+/).filter((w) => !LANGUAGE_WORDS.has(w.toLowerCase().replace(/[^a-z]/g, '')));
  return kept.length > 0 ? kept.join(' ') : query;
}

/**
 * Starts loading what `rankLibrary` ranks with (the search index, the vectors) without waiting for it, the
 * first time a worker is asked (later calls find them loaded; asking again would only repeat their
 * catch-ups). A call's input is checked first, and in a new worker that first check builds the input's
 * schemas (a few ms; 10-15 ms before 64a00d5); the two loads read megabytes from the store meanwhile.
 * Failures are left to the call that waits for them.
 */
export function loadLibraryIndexes(ctx: ServiceContext): void {
  const vectors = vectorIndexFor(ctx);
  if (asked.has(vectors)) return;
  asked.add(vectors);
  searchIndexFor(ctx).current(undefined, { meta: false }).catch(() => undefined);
  vectors.current().catch(() => undefined);
}

/** The vector indexes whose library a relevance call has started loading early. */
const asked = new WeakSet<object>();

/**
 * Where a relevance call's time went (the route's `Server-Timing`): `load`, the search index and the vectors
 * ready (loaded by a new worker, caught up after writes) and the query embedded; `rank`, ranking and
 * choosing the snippets; `texts`, reading the top assets' texts; `store`, storing the answer's snippets.
 */
export type RelevanceTiming = Timing<'load' | 'rank' | 'texts' | 'store'>;

/** The library's best snippets for a query: the whole library (pseudo assets excluded) or the assets in `within`. */
export async function rankLibrary(
  ctx: ServiceContext,
  query: string,
  within: ReadonlySet<string> | undefined,
  limit: number,
  timing?: RelevanceTiming,
): Promise<RankedSnippet[]> {
  const search = searchIndexFor(ctx);
  const [index, { entries: vectors, matrix, query: queryVector }] = await timed(timing, 'load', () =>
    Promise.all([search.current(undefined, { meta: false, query }), libraryVectorsWithQuery(ctx, vectorQuery(query))]),
  );
  const ranking = performance.now();
  const pseudo = (id: string) => {
    const slot = index.slot(id);
    return slot !== undefined && (index.flags(slot) & PSEUDO) !== 0;
  };
  const wanted = Math.max(CANDIDATES, limit);

  const analysed = analyseQuery(index, search.typos, query);
  // The library leaves pseudo assets out; assets named in the query space count whatever they are.
  const accept = within ? (slot: number) => within.has(index.idOf(slot)!) : (slot: number) => (index.flags(slot) & PSEUDO) === 0;
  const hits = analysed.terms.length > 0 ? index.search(analysed.terms, wanted, accept) : undefined;
  const lexical = new Map<string, number>();
  hits?.slots.forEach((slot, i) => lexical.set(index.idOf(slot)!, hits.scores[i]!));

  // Each asset's vector score is its best snippet's.
  const best = queryVector ? matrix.bestByAsset(queryVector, within) : new Map<string, number>();
  const byVector = topKeys(best, wanted * 2).filter((id) => within || !pseudo(id)).slice(0, wanted);

  const blended = blend(lexical, best, [...new Set([...lexical.keys(), ...byVector])], lexicalWeightOf(ctx));
  const top = [...blended.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);

  const texts = await timed(timing, 'texts', () => ctx.store.read((tx) => readAssetTexts(tx, top.map(([id]) => id)), ['assets', 'formats', 'contents']));
  const byAsset = new Map(texts.map((t) => [t.asset.id, t]));
  const queryTerms = new Set(terms(query).filter((t) => !isStopword(t)));
  const out: RankedSnippet[] = [];
  for (const [id, score] of top) {
    const text = byAsset.get(id);
    const entry = vectors.get(id);
    // Offsets are into the text the vectors were made from: an asset whose text changed since is left out of this answer.
    if (!text || !entry || entry.snippets.length === 0 || !madeFrom(entry, text)) continue;
    const formatText = new Map(text.texts.map((t) => [t.format, t]));
    const scored = entry.snippets
      .map((s) => {
        const source = formatText.get(s.format);
        if (!source) return undefined;
        const snippet = source.text.slice(s.start, s.end);
        return { s, snippet, specific: source.specific, fit: 0.5 * (queryVector ? dotQuantized(queryVector, s.vector, s.scale) : 0) + 0.5 * overlap(queryTerms, snippet) };
      })
      .filter((x) => x !== undefined)
      .sort((a, b) => b.fit - a.fit);
    const bestFit = scored[0]?.fit ?? 0;
    scored.slice(0, PER_ASSET).forEach((x, k) => {
      if (k > 0 && x.fit < 0.6 * bestFit) return;
      out.push({
        text: x.snippet,
        start: x.s.start,
        end: x.s.end,
        // The asset's best snippet carries the asset's score; the others a little less.
        score: k === 0 ? score : score * (0.75 + (0.25 * x.fit) / (bestFit || 1)),
        asset: id,
        ...(text.asset.name ? { source: text.asset.name } : {}),
        specific: x.specific,
      });
    });
  }
  if (timing) timing.rank = performance.now() - ranking - (timing.texts ?? 0);
  return out.sort((a, b) => b.score - a.score).slice(0, limit);
}

/** The best snippets of texts given with the request, ranked in an index made for this call. */
export async function rankTexts(ctx: ServiceContext, query: string, texts: readonly SpaceText[], limit: number): Promise<RankedSnippet[]> {
  const snippets: (RankedSnippet & { code: boolean })[] = [];
  for (const t of texts) {
    const code = t.specific ? genericOf(t.specific) === 'CODE' : looksLikeCode(t.text);
    for (const span of splitSnippets(t.text, code)) {
      snippets.push({
        text: t.text.slice(span.start, span.end),
        ...span,
        score: 0,
        code,
        ...(t.path ? { path: t.path } : {}),
        ...(t.source ? { source: t.source } : {}),
        ...(t.specific ? { specific: t.specific } : {}),
      });
    }
  }
  if (snippets.length === 0) return [];
  const index = new LexicalIndex<null>();
  snippets.forEach((s, i) => {
    const { code, prose } = s.code ? splitProse(s.text) : { code: '', prose: s.text };
    const fields: string[][] = Array.from({ length: FIELD_COUNT }, () => []);
    fields[0] = terms(s.source ?? '');
    fields[1] = terms(code);
    fields[2] = terms(prose);
    index.set(String(i), fields, null);
  });
  const analysed = analyseQuery(index, undefined, query);
  const hits: Hits | undefined = analysed.terms.length > 0 ? index.search(analysed.terms, snippets.length) : undefined;
  const lexical = new Map<string, number>();
  hits?.slots.forEach((slot, i) => lexical.set(index.idOf(slot)!, hits.scores[i]!));
  const vectors = await ctx.embedder.embed([vectorQuery(query), ...snippets.map((s) => embeddingText(s.source, s.text))]);
  const vector = new Map(snippets.map((_, i) => [String(i), dot(vectors[0]!, vectors[i + 1]!)]));
  const blended = blend(lexical, vector, topKeys(vector, Math.max(CANDIDATES, limit)).concat([...lexical.keys()]), lexicalWeightOf(ctx));
  return [...blended.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, score]) => {
      const { code: _code, ...snippet } = snippets[Number(key)]!;
      return { ...snippet, score };
    });
}

/** The lexical score's weight for the vectors of the embedder in use (after a call has embedded with it). */
function lexicalWeightOf(ctx: ServiceContext): number {
  return LEXICAL_WEIGHT[describeEmbedder(ctx.embedder).kind];
}

/** Min-max normalised lexical and vector scores of the candidates, blended with `weight` on the lexical side; in [0, 1]. */
function blend(lexical: ReadonlyMap<string, number>, vector: ReadonlyMap<string, number>, candidates: readonly string[], weight: number): Map<string, number> {
  const keys = [...new Set(candidates)];
  const lex = minMax(keys.filter((k) => lexical.has(k)).map((k) => lexical.get(k)!));
  const vec = minMax(keys.map((k) => vector.get(k) ?? 0));
  const out = new Map<string, number>();
  for (const k of keys) {
    const l = lexical.has(k) ? lex(lexical.get(k)!) : 0;
    out.set(k, weight * l + (1 - weight) * vec(vector.get(k) ?? 0));
  }
  return out;
}

function minMax(values: readonly number[]): (x: number) => number {
  if (values.length === 0) return () => 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return hi > lo ? (x) => (x - lo) / (hi - lo) : () => 1;
}

function topKeys(scores: ReadonlyMap<string, number>, n: number): string[] {
  // Only the scores at or above the n-th best are sorted with their keys: sorting all of them (a library's
  // 10,000 vector scores) took several ms in a worker's first call, and a typed array sorts natively. The
  // result is the same: ties keep the map's order.
  let threshold = -Infinity;
  if (scores.size > n) {
    const values = new Float64Array(scores.size);
    let i = 0;
    scores.forEach((score) => (values[i++] = score));
    threshold = values.sort()[scores.size - n]!;
  }
  const top: [string, number][] = [];
  scores.forEach((score, key) => {
    if (score >= threshold) top.push([key, score]);
  });
  return top
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k]) => k);
}

/** The share of the query's terms that occur in a text. */
function overlap(queryTerms: ReadonlySet<string>, text: string): number {
  if (queryTerms.size === 0) return 0;
  const present = new Set(terms(text));
  let n = 0;
  for (const t of queryTerms) if (present.has(t)) n++;
  return n / queryTerms.size;
}
