import { assembleAsset, assetCacheKey, assetScope } from '../assets/read.ts';
import { sharedIndexReads } from '../store/shared-index-reads.ts';
import { timed, timedSync } from '../timing.ts';
import type { ServiceContext } from '../deps.ts';
import { ApiError } from '../errors.ts';
import * as build from '../model/build.ts';
import type {
  Asset,
  Assets,
  AssetsSearchWithFiltersInput,
  AssetsSearchWithFiltersOutput,
  SearchedAsset,
  SearchedAssets,
  SearchedMatchEnum,
} from '../model/schemas.ts';
import type { ReadTx } from '../store/store.ts';
import { PSEUDO, type DocMeta } from './documents.ts';
import { compileFilters, containsPhrase, hasTag, type PhraseCriterion } from './filters.ts';
import { contentText } from './documents.ts';
import type { LexicalIndex } from './lexical/lexical-index.ts';
import type { Hits } from './lexical/ranking.ts';
import { analyseQuery } from './query.ts';
import { searchIndexFor } from './search-index.ts';

/** A ranked search answers its best this many results. */
export const MAX_RANKED_RESULTS = 50;
/** A page of results (a tag or filter listing can match the whole library): this many unless asked. */
export const DEFAULT_PAGE_SIZE = 100;
/** The largest page a search answers (`limit`). */
export const MAX_PAGE_SIZE = 1000;

/** Where the time of one search went (milliseconds), for the `Server-Timing` header. */
export interface SearchTiming {
  /** Waiting for the index's turn: a background catch-up or a snapshot being taken. */
  wait?: number;
  /** Loading the index: restoring the snapshot, or rebuilding it from the store (first search of a worker). */
  load?: number;
  /** Applying the change log (one read when nothing changed). */
  catchUp?: number;
  /** Query analysis, filtering and ranking in the index. */
  rank?: number;
  /** Reading the result assets from the store. */
  assets?: number;
}

export interface SearchOptions {
  transferables?: boolean;
  pseudo?: boolean;
  /** Answer each result with its asset (default true); false answers the hits alone, reading no asset. */
  assets?: boolean;
  timing?: SearchTiming;
  /** Which results to answer, in result order: `limit` (default DEFAULT_PAGE_SIZE) after `offset` (default 0). */
  page?: { limit?: number | undefined; offset?: number | undefined };
  /** Told how many results there are in all, before paging. */
  onTotal?: (total: number) => void;
}

/** The page of the results the options ask for (only its assets are read). */
function pageOf<T>(results: readonly T[], options: SearchOptions): T[] {
  options.onTotal?.(results.length);
  const offset = options.page?.offset ?? 0;
  return results.slice(offset, offset + (options.page?.limit ?? DEFAULT_PAGE_SIZE));
}

/** What each field of the index reports as the match (FIELDS order). */
const FIELD_MATCH: SearchedMatchEnum[] = ['TITLE', 'CONTENT', 'CONTENT', 'ANNOTATION', 'TAGS', 'WEBSITES'];

/** One result before its asset is read. */
interface Ranked {
  id: string;
  score: number;
  exact: boolean;
  match: SearchedMatchEnum;
  pseudo: boolean;
}

/**
 * `GET /assets/search`: `query` runs the fuzzy, ranked search; `searchable_tags` (tag texts or ids) lists the
 * assets carrying any of them, most tags first; both give the ranked query results that carry a tag.
 * Neither is the documented 500. One page of the results is answered (`options.page`).
 */
export async function searchAssets(
  ctx: ServiceContext,
  params: { query?: string | null; tags?: readonly string[] | null },
  options: SearchOptions = {},
): Promise<SearchedAssets> {
  const query = params.query?.trim() ? params.query : undefined;
  const tags = (params.tags ?? []).map((t) => t.trim()).filter((t) => t !== '');
  if (!query && tags.length === 0) {
    throw new ApiError(500, 'query_required', 'A search needs a query or searchable_tags (comma-separated tag texts).');
  }
  const timing = options.timing ?? {};
  // A plain ranked query reads no document metadata (a worker's first one then skips reading it).
  const index = await searchIndexFor(ctx).current(timing, { meta: tags.length > 0, ...(query && { query }) });
  const ranked = timedSync(timing, 'rank', () => {
    const wanted = tags.map((t) => ({ raw: t, lower: t.toLowerCase() }));
    const tagCount = (meta: DocMeta) => wanted.filter((t) => hasTag(meta, t)).length;
    const visible = (slot: number) => options.pseudo === true || (index.flags(slot) & PSEUDO) === 0;
    if (query) {
      const accept = wanted.length === 0 ? visible : (slot: number) => visible(slot) && tagCount(index.metaOf(slot)!) > 0;
      return rankQuery(ctx, index, query, accept, wanted.length > 0 ? ['TAGS'] : []);
    }
    const found: (Ranked & { updated: number })[] = [];
    for (const slot of index.slots()) {
      if (!visible(slot)) continue;
      const meta = index.metaOf(slot)!;
      const count = tagCount(meta);
      if (count === 0) continue;
      found.push({ id: index.idOf(slot)!, score: count / wanted.length, exact: true, match: 'TAGS', pseudo: meta.pseudo, updated: meta.updated });
    }
    return found.sort((a, b) => b.score - a.score || b.updated - a.updated);
  });
  return timed(timing, 'assets', () => searchedAssets(ctx, pageOf(ranked, options), options));
}

/**
 * `POST /assets/search`: an optional query (ranked as in GET) within an optional search space (asset ids)
 * and filters (see filters.ts). Without a query, the assets that pass are listed newest first. One page of
 * the results is answered (`options.page`).
 */
export async function searchWithFilters(
  ctx: ServiceContext,
  input: AssetsSearchWithFiltersInput | undefined,
  options: SearchOptions = {},
): Promise<AssetsSearchWithFiltersOutput> {
  const compiled = compileFilters(input?.filters, { casing: input?.casing });
  const spaceIds = input?.space?.identifers?.iterable;
  const space = spaceIds ? new Set(spaceIds.map((r) => r.id)) : undefined;
  const query = input?.query?.trim() ? input.query : undefined;
  const timing = options.timing ?? {};
  const index = await searchIndexFor(ctx).current(timing, query ? { query } : {});

  const inUniverse = (meta: DocMeta, id: string) => (options.pseudo === true || !meta.pseudo) && (!space || space.has(id));
  let phraseMatches = new Map<PhraseCriterion, Set<string>>();
  if (compiled.phrases.length > 0) {
    const universe: string[] = [];
    for (const slot of index.slots()) if (inUniverse(index.metaOf(slot)!, index.idOf(slot)!)) universe.push(index.idOf(slot)!);
    phraseMatches = await timed(timing, 'rank', () => resolvePhrases(ctx, index, compiled.phrases, universe));
  }
  const accept = (slot: number) => {
    const meta = index.metaOf(slot)!;
    const id = index.idOf(slot)!;
    return inUniverse(meta, id) && compiled.test(meta, id, phraseMatches);
  };
  const ranked = timedSync(timing, 'rank', () => {
    if (query) return rankQuery(ctx, index, query, accept, []);
    const kinds = [...compiled.kinds];
    const match: SearchedMatchEnum = kinds.length === 1 ? kinds[0]! : kinds.length > 1 ? 'MULTIPLE' : 'UNKNOWN';
    const found: (Ranked & { created: number })[] = [];
    for (const slot of index.slots()) {
      if (!accept(slot)) continue;
      const meta = index.metaOf(slot)!;
      found.push({ id: index.idOf(slot)!, score: 1, exact: true, match, pseudo: meta.pseudo, created: meta.created });
    }
    return found.sort((a, b) => b.created - a.created);
  });
  const results = await timed(timing, 'assets', () => searchedAssets(ctx, pageOf(ranked, options), options));
  return { results };
}

/** Ranks the accepted documents for a text query. `extra` adds match kinds the caller's own criteria matched. */
function rankQuery(
  ctx: ServiceContext,
  index: LexicalIndex<DocMeta>,
  text: string,
  accept: (slot: number) => boolean,
  extra: SearchedMatchEnum[],
): Ranked[] {
  const analysed = analyseQuery(index, searchIndexFor(ctx).typos, text);
  if (analysed.terms.length === 0) return [];
  const hits = index.search(analysed.terms, MAX_RANKED_RESULTS, accept);
  return rankedFromHits(index, hits, analysed.words, extra);
}

export function rankedFromHits(index: LexicalIndex<DocMeta>, hits: Hits, words: number, extra: SearchedMatchEnum[] = []): Ranked[] {
  const all = words >= 32 ? 0xffffffff : (1 << words) - 1;
  return hits.slots.map((slot, i) => {
    const exactWords = hits.exactWords[i]!;
    const kinds = new Set<SearchedMatchEnum>(extra);
    for (let f = 0; f < FIELD_MATCH.length; f++) if (hits.fields[i]! & (1 << f)) kinds.add(FIELD_MATCH[f]!);
    const match: SearchedMatchEnum = exactWords === 0 ? 'FUZZY' : kinds.size === 1 ? [...kinds][0]! : kinds.size > 1 ? 'MULTIPLE' : 'UNKNOWN';
    return {
      id: index.idOf(slot)!,
      score: Math.round(hits.scores[i]! * 1e4) / 1e4,
      exact: (exactWords & all) >>> 0 === all >>> 0,
      match,
      pseudo: (index.flags(slot) & PSEUDO) !== 0,
    };
  });
}

/**
 * The wire SearchedAssets: each result with its asset, read in one transaction (assets deleted meanwhile are
 * left out); or, with `assets: false`, the hits alone (the index has caught up with every committed delete).
 */
async function searchedAssets(ctx: ServiceContext, ranked: readonly Ranked[], options: SearchOptions): Promise<SearchedAssets> {
  const transferables = options.transferables !== false;
  const assets = options.assets === false ? undefined : await cachedAssetsByIds(ctx, ranked.map((r) => r.id), transferables);
  const iterable: SearchedAsset[] = [];
  ranked.forEach((r, i) => {
    const hit = { exact: r.exact, score: r.score, match: r.match, identifier: r.id, ...(r.pseudo ? { pseudo: true } : {}) };
    if (!assets) iterable.push(hit);
    else if (assets[i]) iterable.push({ ...hit, asset: assets[i] });
  });
  const exact = iterable.filter((r) => r.exact).length;
  return { iterable, exact, suggested: iterable.length - exact };
}

/**
 * The wire assets of some ids, in order (undefined where an asset no longer exists). A tag or website
 * several of them show is read once (`sharedIndexReads`).
 */
export async function assetsByIds(tx: ReadTx, ids: readonly string[], transferables: boolean): Promise<(Asset | undefined)[]> {
  const records = await tx.getMany('assets', ids);
  const byId = new Map(records.map((r) => [r.id, r]));
  const shared = sharedIndexReads(tx);
  return Promise.all(ids.map((id) => {
    const record = byId.get(id);
    return record ? assembleAsset(shared, record, { transferables }) : undefined;
  }));
}

/**
 * `assetsByIds` through the asset cache, under the keys single reads use: what a search or a read kept since
 * the last change as it is, the rest read in one transaction and kept (a search's 50 results are about 250
 * IndexedDB requests).
 */
export function cachedAssetsByIds(ctx: ServiceContext, ids: readonly string[], transferables: boolean): Promise<(Asset | undefined)[]> {
  const keys = ids.map((id) => assetCacheKey(id, transferables));
  const idOf = new Map(ids.map((id, i) => [keys[i]!, id]));
  return ctx.assetCache.getMany(
    keys,
    (missing) => ctx.store.read((tx) => assetsByIds(tx, missing.map((key) => idOf.get(key)!), transferables), assetScope({ transferables })),
    // Without contents an asset is small JSON, sized natively: walking 50 of them in a worker just started
    // (cold code) cost more than reading them.
    transferables ? undefined : (asset) => 2 * JSON.stringify(asset).length,
  );
}

/** The wire Assets of the assets that still exist, in order. */
export function wireAssetsOfExisting(list: readonly (Asset | undefined)[]): Assets {
  return build.collectionOf(list.filter((a): a is Asset => a !== undefined), (a) => a);
}

/**
 * The ids among `universe` whose title, content or annotations hold each phrase, reading the stored text
 * of the candidates in one transaction (the index keeps terms, not text).
 */
async function resolvePhrases(
  ctx: ServiceContext,
  index: LexicalIndex<DocMeta>,
  phrases: readonly PhraseCriterion[],
  universe: readonly string[],
): Promise<Map<PhraseCriterion, Set<string>>> {
  const found = new Map(phrases.map((p) => [p, new Set<string>()]));
  const needsText = phrases.some((p) => p.content || p.annotation);
  for (const id of universe) {
    const name = index.meta(id)?.name ?? '';
    for (const phrase of phrases) if (phrase.title && containsPhrase(name, phrase)) found.get(phrase)!.add(id);
  }
  if (!needsText) return found;
  await ctx.store.read(async (tx) => {
    const assets = await tx.getMany('assets', universe);
    await Promise.all(
      assets.map(async (asset) => {
        const [contents, annotations] = await Promise.all([
          phrases.some((p) => p.content) ? tx.getMany('contents', asset.formats) : [],
          phrases.some((p) => p.annotation) ? tx.getMany('annotations', asset.annotations) : [],
        ]);
        const texts = contents.map(contentText).filter((t): t is string => t !== undefined);
        for (const phrase of phrases) {
          const set = found.get(phrase)!;
          if (set.has(asset.id)) continue;
          const inContent = phrase.content && texts.some((t) => containsPhrase(t, phrase));
          const inAnnotation =
            phrase.annotation &&
            annotations.some((a) => (!phrase.annotationType || a.type === phrase.annotationType) && containsPhrase(a.text, phrase));
          if (inContent || inAnnotation) set.add(asset.id);
        }
      }),
    );
  }, ['assets', 'contents', 'annotations']);
  return found;
}
