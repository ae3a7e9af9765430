import type { ServiceContext } from '../deps.ts';
import type { Asset, Assets, InteractedAsset } from '../model/schemas.ts';
import { PSEUDO, type DocMeta } from './documents.ts';
import type { LexicalIndex } from './lexical/lexical-index.ts';
import type { QueryTerm } from './lexical/ranking.ts';
import { cachedAssetsByIds, wireAssetsOfExisting } from './service.ts';
import { searchIndexFor } from './search-index.ts';
import { terms as textTerms } from './tokenize.ts';

/**
 * Related and recommended assets: each input asset (with a weight) is turned into a profile (its most
 * distinctive terms, its tags, websites, persons and language) and every other asset is scored by what
 * it shares with the profiles:
 *
 *   score = Σ_inputs weight × (0.6 lexical + 0.2 tags + 0.1 websites + 0.05 persons + 0.05 language)
 *
 * where `lexical` is the BM25 score of the candidate for the input's 24 most distinctive terms, divided by
 * the best such score, and the others are the share of the input's tags (websites, persons) the candidate
 * has too, and whether it is in the same language. Inputs are never answered; pseudo assets neither.
 * (Vector similarity joins the lexical part when the question-answering work stores embeddings.)
 */
export const RELATED_LIMIT = 20;
const PROFILE_TERMS = 24;
const SHARE = { lexical: 0.6, tags: 0.2, websites: 0.1, persons: 0.05, language: 0.05 };

/** An input asset: known to the index by id, or described by the asset object the client sent. */
export interface Seed {
  id: string;
  weight: number;
  asset?: Partial<Asset>;
}

interface Profile {
  weight: number;
  terms: QueryTerm[];
  meta: Pick<DocMeta, 'tagIds' | 'tags' | 'websiteIds' | 'personIds' | 'specifics'>;
}

/** `/assets/related`: the assets most like the given ones; with no input, like the user's recent activity. */
export async function relatedAssets(ctx: ServiceContext, input: { iterable: readonly Partial<Asset>[] } | undefined): Promise<Assets> {
  const seeds = (input?.iterable ?? []).filter((a) => typeof a.id === 'string').map((a) => ({ id: a.id!, weight: 1, asset: a }));
  return discover(ctx, seeds.length > 0 ? seeds : undefined, { transferables: true });
}

/**
 * `/assets/recommended`: index-paired assets and interactions; a view counts 1, scrolling adds 1 and
 * touching (editing, copying) adds 2. With no input, the user's recent activity.
 */
export async function recommendedAssets(
  ctx: ServiceContext,
  input: { assets: { iterable: readonly Partial<Asset>[] }; interactions: { iterable: readonly InteractedAsset[] } } | undefined,
): Promise<Assets> {
  if (!input) return discover(ctx, undefined, { transferables: true });
  const interactions = input.interactions.iterable;
  const seeds: Seed[] = [];
  input.assets.iterable.forEach((asset, i) => {
    if (typeof asset.id !== 'string') return;
    const interaction = interactions[i]?.asset === undefined || interactions[i]?.asset === asset.id ? interactions[i] : interactions.find((x) => x.asset === asset.id);
    seeds.push({ id: asset.id, weight: interactionWeight(interaction), asset });
  });
  // Interactions that name an asset the assets list does not hold still count.
  for (const interaction of interactions) {
    if (interaction.asset && !seeds.some((s) => s.id === interaction.asset)) seeds.push({ id: interaction.asset, weight: interactionWeight(interaction) });
  }
  return discover(ctx, seeds.length > 0 ? seeds : undefined, { transferables: true });
}

export function interactionWeight(interaction: InteractedAsset | undefined): number {
  const i = interaction?.interactions;
  if (!i) return 1;
  return 1 + (i.scrolled ? 1 : 0) + (i.touched ? 2 : 0);
}

/**
 * `GET /assets?suggested=true`: what the user's recent activity suggests, as a listing: the assets most like
 * the recently created, updated and used ones, then those recent ones themselves.
 */
export function suggestedAssets(ctx: ServiceContext, options: { transferables?: boolean; pseudo?: boolean } = {}): Promise<Assets> {
  return discover(ctx, undefined, { transferables: options.transferables !== false, pseudo: options.pseudo === true });
}

/**
 * Recent activity as weighted inputs: the five most recently updated or created assets (1, 0.8, … 0.2)
 * and the three most used (score counters: reuse, references, searches…; 0.5 each).
 */
export function recentActivity(index: LexicalIndex<DocMeta>): Seed[] {
  const all: { id: string; meta: DocMeta }[] = [];
  for (const slot of index.slots()) {
    const meta = index.metaOf(slot)!;
    if (!meta.pseudo) all.push({ id: index.idOf(slot)!, meta });
  }
  const seeds = new Map<string, Seed>();
  [...all]
    .sort((a, b) => b.meta.updated - a.meta.updated || b.meta.created - a.meta.created)
    .slice(0, 5)
    .forEach((a, i) => seeds.set(a.id, { id: a.id, weight: 1 - i * 0.2 }));
  all
    .filter((a) => a.meta.usage > 0)
    .sort((a, b) => b.meta.usage - a.meta.usage)
    .slice(0, 3)
    .forEach((a) => {
      const seed = seeds.get(a.id);
      if (seed) seed.weight += 0.5;
      else seeds.set(a.id, { id: a.id, weight: 0.5 });
    });
  return [...seeds.values()];
}

async function discover(ctx: ServiceContext, seeds: Seed[] | undefined, options: { transferables: boolean; pseudo?: boolean }): Promise<Assets> {
  const index = await searchIndexFor(ctx).current();
  const inputs = seeds ?? recentActivity(index);
  const exclude = new Set(inputs.map((s) => s.id));
  const scores = new Map<number, number>();
  /** Slots that share more than the language with some input: the language alone relates too much. */
  const related = new Set<number>();
  for (const seed of inputs) {
    const profile = profileOf(index, seed);
    if (!profile) continue;
    const accept = (slot: number) => !exclude.has(index.idOf(slot)!) && (options.pseudo === true || (index.flags(slot) & PSEUDO) === 0);
    const lexical = profile.terms.length > 0 ? index.search(profile.terms, 200, accept) : { slots: [], scores: [] };
    const best = lexical.scores[0] ?? 0;
    const lexicalOf = new Map(lexical.slots.map((slot, i) => [slot, best > 0 ? lexical.scores[i]! / best : 0]));
    for (const slot of index.slots()) {
      if (!accept(slot)) continue;
      const meta = index.metaOf(slot)!;
      const shares =
        SHARE.lexical * (lexicalOf.get(slot) ?? 0) +
        SHARE.tags * shared(profile.meta.tagIds, meta.tagIds, profile.meta.tags, meta.tags) +
        SHARE.websites * shared(profile.meta.websiteIds, meta.websiteIds) +
        SHARE.persons * shared(profile.meta.personIds, meta.personIds);
      const language = profile.meta.specifics[0] !== undefined && profile.meta.specifics[0] === meta.specifics[0] ? SHARE.language : 0;
      if (shares > 0) related.add(slot);
      if (shares + language > 0) scores.set(slot, (scores.get(slot) ?? 0) + profile.weight * (shares + language));
    }
  }
  const ranked = [...scores]
    .filter(([slot]) => related.has(slot))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, RELATED_LIMIT)
    .map(([slot]) => index.idOf(slot)!);
  // Suggestions from recent activity end with that activity itself: what one just used is likely needed again.
  if (!seeds) {
    const recent = [...inputs].sort((a, b) => b.weight - a.weight).map((s) => s.id);
    for (const id of recent) if (ranked.length < RELATED_LIMIT && (options.pseudo || !index.meta(id)?.pseudo)) ranked.push(id);
  }
  const assets = await cachedAssetsByIds(ctx, ranked, options.transferables);
  return wireAssetsOfExisting(assets);
}

/** The share of the input's ids (or lower-case texts) the candidate has too. */
function shared(mine: readonly string[], theirs: readonly string[], myTexts?: readonly string[], theirTexts?: readonly string[]): number {
  if (mine.length === 0) return 0;
  let n = 0;
  mine.forEach((id, i) => {
    if (theirs.includes(id) || (myTexts && theirTexts && theirTexts.includes(myTexts[i]!))) n++;
  });
  return n / mine.length;
}

/** An input's profile: from the index when it knows the asset, else from the asset object the client sent. */
function profileOf(index: LexicalIndex<DocMeta>, seed: Seed): Profile | undefined {
  const slot = index.slot(seed.id);
  if (slot !== undefined) {
    const meta = index.metaOf(slot)!;
    const weighted = index.documentTerms(slot).map(({ term, tf }) => ({ term, value: (tf / (tf + 1)) * index.idf(term) }));
    return { weight: seed.weight, terms: topTerms(weighted), meta };
  }
  if (!seed.asset) return undefined;
  return profileOfAsset(index, seed.asset, seed.weight);
}

function profileOfAsset(index: LexicalIndex<DocMeta>, asset: Partial<Asset>, weight: number): Profile {
  const texts: string[] = [asset.name ?? ''];
  for (const format of asset.formats?.iterable ?? []) {
    const raw = format.fragment?.string?.raw ?? format.file?.string?.raw;
    if (raw) texts.push(raw);
  }
  for (const a of asset.annotations?.iterable ?? []) texts.push(a.text);
  for (const t of asset.tags?.iterable ?? []) texts.push(t.text);
  const counts = new Map<number, number>();
  for (const term of textTerms(texts.join('\n'))) {
    const id = index.termId(term);
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const weighted = [...counts].map(([term, tf]) => ({ term, value: (tf / (tf + 1)) * index.idf(term) }));
  const tags = asset.tags?.iterable ?? [];
  return {
    weight,
    terms: topTerms(weighted),
    meta: {
      tagIds: tags.map((t) => t.id),
      tags: tags.map((t) => t.text.toLowerCase()),
      websiteIds: (asset.websites?.iterable ?? []).map((w) => w.id),
      personIds: (asset.persons?.iterable ?? []).map((p) => p.id),
      specifics: (asset.formats?.iterable ?? []).map((f) => f.classification.specific),
    },
  };
}

/** The most distinctive terms as a query, each weighted by its share of the profile. */
function topTerms(weighted: { term: number; value: number }[]): QueryTerm[] {
  const top = weighted.sort((a, b) => b.value - a.value).slice(0, PROFILE_TERMS);
  const max = top[0]?.value ?? 0;
  return top.filter((t) => t.value > 0).map((t) => ({ term: t.term, weight: t.value / max, word: 0, exact: true }));
}
