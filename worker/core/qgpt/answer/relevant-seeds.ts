/**
 * Relevant seeds (the wire `RelevantQGPTSeed`s a question or hints input carries) turned into Passages.
 * A seed is usable when it carries an `id` relevance handed out (kept in the `relevant` collection) or a
 * fragment string (`seed.asset.format.fragment.string.raw`); anything else is the documented 4xx.
 */
import type { ServiceContext } from '../../deps.ts';
import { invalid } from '../../errors.ts';
import type { Passage } from './passage.ts';
import { readRelevant } from '../relevant-ring.ts';

/**
 * The parts of a wire RelevantQGPTSeed read here (a narrow view: the inferred wire type is too deep for
 * the type checker to carry through generic code).
 */
export interface RelevantSeedView {
  id?: string | null;
  path?: string | null;
  asset?: { id: string } | null;
  location?: { start: number; end: number } | null;
  seed?: {
    asset?: {
      format?: { fragment?: { string?: { raw?: string | null } | null } | null } | null;
      metadata?: { name?: string | null } | null;
    } | null;
  } | null;
}

/** The 422 for a relevant seed that cannot be answered from; nothing is stored by a question, so nothing changes. */
export const unusableSeed = (message: string) => invalid(message, 'relevant_seed_unusable');

/**
 * The passages of relevant seeds, in order. Throws `relevant_seed_unusable` (422) naming the first seed
 * that has neither a known id nor a fragment string, and for an empty list unless `allowEmpty`.
 */
export async function passagesOf(ctx: ServiceContext, relevant: { iterable: readonly unknown[] }, options: { allowEmpty?: boolean } = {}): Promise<Passage[]> {
  // Validated as RelevantQGPTSeed by the routes; read through the narrow view.
  const seeds = relevant.iterable as readonly RelevantSeedView[];
  if (seeds.length === 0 && !options.allowEmpty) {
    throw unusableSeed('relevant.iterable is empty: give the relevant seeds /qgpt/relevance answered, or fragment seeds to answer from.');
  }
  const records = await readRelevant(ctx, seeds.map((s) => s.id).filter((id): id is string => typeof id === 'string'));
  const byId = new Map(records.filter((r) => r !== undefined).map((r) => [r!.id, r!]));
  const assetIds = seeds.map((s) => s.asset?.id).filter((id): id is string => typeof id === 'string');
  const names = await assetNames(ctx, assetIds);

  return seeds.map((seed, i) => {
    const record = typeof seed.id === 'string' ? byId.get(seed.id) : undefined;
    if (record) {
      return clean({
        text: record.text,
        id: record.id,
        asset: record.asset,
        path: record.path,
        source: record.source,
        start: record.start,
        end: record.end,
        score: record.score,
      });
    }
    const raw = fragmentOf(seed);
    if (raw === undefined) throw unusableSeed(whyUnusable(seed, i));
    const asset = seed.asset?.id ?? undefined;
    return clean({
      text: raw,
      id: seed.id ?? undefined,
      asset: asset !== undefined && names.has(asset) ? asset : undefined,
      path: seed.path ?? undefined,
      source: (asset !== undefined ? names.get(asset) : undefined) ?? seed.seed?.asset?.metadata?.name ?? seed.path ?? undefined,
      start: seed.location?.start,
      end: seed.location?.end,
    });
  });
}

function fragmentOf(seed: RelevantSeedView): string | undefined {
  const raw = seed.seed?.asset?.format?.fragment?.string?.raw;
  return typeof raw === 'string' && raw.trim() !== '' ? raw : undefined;
}

function whyUnusable(seed: RelevantSeedView, index: number): string {
  const where = `relevant.iterable[${index}]`;
  const fragment = 'a fragment string (seed.asset.format.fragment.string.raw)';
  if (typeof seed.id === 'string') {
    return `${where}: the id '${seed.id}' is not one /qgpt/relevance handed out (or it has expired, or its asset was deleted), and the seed carries no fragment string (seed.asset.format.fragment.string.raw).`;
  }
  return `${where} has neither an id returned by /qgpt/relevance nor ${fragment}.`;
}

/** The names of the assets that exist among `ids` (an asset without a name maps to its id). */
async function assetNames(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const records = await ctx.store.read((tx) => tx.getMany('assets', [...new Set(ids)]), ['assets']);
  return new Map(records.map((a) => [a.id, a.name ?? a.id]));
}

/** A Passage without its undefined fields. */
function clean(p: Passage): Passage {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as unknown as Passage;
}
