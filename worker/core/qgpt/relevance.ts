/**
 * `POST /qgpt/relevance`: the snippets of a query space that best answer a query (design decision 8).
 *
 * The query space is exactly one of `seeds` (their fragment strings), `assets` (identifiers), `paths`
 * (files and folders, see files.ts) or `options.database: true` (the whole library, pseudo assets
 * excluded); none or several is a 422. Ranking is hybrid, see rank.ts. Each relevant snippet is stored
 * (relevant-ring.ts) so that a question can name it by id, and comes back as a RelevantQGPTSeed: the snippet
 * as a fragment seed, the asset it came from (or its `path`), and its `location` in that text.
 * With `options.question: true` the answers come back too (question.ts).
 */
import type { ServiceContext } from '../deps.ts';
import { invalid, notFound } from '../errors.ts';
import { TESSERA_APPLICATION } from '../assets/activity.ts';
import type { QGPTQuestionInput, QGPTRelevanceInput, QGPTRelevanceOutput, RelevantQGPTSeed, RelevantQGPTSeeds, Seed } from '../model/schemas.ts';
import { question } from './answer/question.ts';
import { storeRelevant } from './relevant-ring.ts';
import { rankLibrary, rankTexts, type RankedSnippet, type RelevanceTiming, type SpaceText } from './rank.ts';
import { timed } from '../timing.ts';

/** Snippets answered unless the caller asks for another number (Tessera's `?limit=`, at most MAX_RELEVANT). */
export const DEFAULT_RELEVANT = 10;
export const MAX_RELEVANT = 100;

type Space =
  | { kind: 'database' }
  | { kind: 'assets'; ids: string[] }
  | { kind: 'seeds'; texts: SpaceText[] }
  | { kind: 'paths'; paths: string[] };

export async function relevance(
  ctx: ServiceContext,
  input: QGPTRelevanceInput,
  options: { limit?: number; timing?: RelevanceTiming } = {},
): Promise<QGPTRelevanceOutput> {
  const query = input.query.trim();
  if (query === '') throw invalid('The relevance query is empty.', 'empty_query');
  const limit = Math.min(MAX_RELEVANT, Math.max(1, options.limit ?? DEFAULT_RELEVANT));
  const space = querySpace(input);
  let ranked: RankedSnippet[];
  switch (space.kind) {
    case 'database':
      ranked = await rankLibrary(ctx, query, undefined, limit, options.timing);
      break;
    case 'assets': {
      const known = await ctx.store.read((tx) => tx.getMany('assets', space.ids), ['assets']);
      const missing = space.ids.find((id) => !known.some((a) => a.id === id));
      if (missing !== undefined) throw notFound('asset', missing);
      ranked = await rankLibrary(ctx, query, new Set(space.ids), limit, options.timing);
      break;
    }
    case 'seeds':
      ranked = await rankTexts(ctx, query, space.texts, limit);
      break;
    case 'paths': {
      const files = (await Promise.all(space.paths.map((path) => ctx.files.read(path)))).flat();
      ranked = await rankTexts(ctx, query, files.map((f) => ({ text: f.text, path: f.path, source: f.path.split('/').pop() || f.path })), limit);
      break;
    }
  }
  const ids = await timed(options.timing, 'store', () => storeRelevant(
    ctx,
    ranked.map((r) => ({
      text: r.text,
      start: r.start,
      end: r.end,
      ...(r.asset ? { asset: r.asset } : {}),
      ...(r.path ? { path: r.path } : {}),
      ...(r.source ? { source: r.source } : {}),
      score: r.score,
    })),
  ));
  const relevant = { iterable: ranked.map((r, i) => relevantSeed(r, ids[i]!)) };
  if (!input.options?.question) return { relevant };
  return { relevant, answer: await question(ctx, questionOf({ ...input, query }, relevant)) };
}

/**
 * The question that follows a relevance call (`options.question`, here and on the stream): its query and
 * snippets, and what the relevance input said about the conversation and the model.
 */
export function questionOf(input: QGPTRelevanceInput, relevant: RelevantQGPTSeeds): QGPTQuestionInput {
  const { query, messages, model, application } = input;
  const pipeline = input.options?.pipeline;
  return { query, relevant, ...(messages ? { messages } : {}), ...(model ? { model } : {}), ...(application ? { application } : {}), ...(pipeline ? { pipeline } : {}) };
}

function relevantSeed(r: RankedSnippet, id: string): RelevantQGPTSeed {
  const seed: Seed = {
    type: 'SEEDED_ASSET',
    asset: {
      application: TESSERA_APPLICATION,
      format: {
        fragment: { string: { raw: r.text } },
        ...(r.specific ? { classification: { specific: r.specific } } : {}),
      },
    },
  };
  return {
    id,
    seed,
    ...(r.asset ? { asset: { id: r.asset } } : {}),
    ...(r.path ? { path: r.path } : {}),
    location: { text: r.text, start: r.start, end: r.end },
  };
}

/**
 * Whether an input not yet checked names the library as its query space (`options.database` or `assets`):
 * a peek to start loading early (rank.ts, `loadLibraryIndexes`), never a decision; `querySpace` decides.
 */
export function ranksLibrary(input: unknown): boolean {
  if (typeof input !== 'object' || input === null) return false;
  const { options, assets } = input as { options?: { database?: unknown } | null; assets?: unknown };
  return options?.database === true || (assets !== undefined && assets !== null);
}

/** The one query space of the input; none or several is a 422. */
function querySpace(input: QGPTRelevanceInput): Space {
  const given: Space[] = [];
  if (input.options?.database === true) given.push({ kind: 'database' });
  if (input.assets) given.push({ kind: 'assets', ids: (input.assets.iterable ?? []).map((a) => a.id) });
  if (input.paths) given.push({ kind: 'paths', paths: input.paths });
  if (input.seeds) given.push({ kind: 'seeds', texts: seedTexts(input.seeds.iterable) });
  if (given.length !== 1) {
    throw invalid(
      `Give exactly one query space: seeds, assets, paths or options.database: true; got ${given.length === 0 ? 'none' : given.map((s) => s.kind).join(' and ')}.`,
      'query_space',
    );
  }
  const space = given[0]!;
  if (space.kind === 'assets' && space.ids.length === 0) throw invalid('The assets query space lists no asset.', 'query_space');
  if (space.kind === 'paths' && space.paths.length === 0) throw invalid('The paths query space lists no path.', 'query_space');
  if (space.kind === 'seeds' && space.texts.length === 0) {
    throw invalid('No seed of the seeds query space carries a fragment string (only those count).', 'query_space');
  }
  return space;
}

/** The fragment strings of seeds (only those count), with their language when the seed names it. */
function seedTexts(seeds: readonly Seed[]): SpaceText[] {
  const texts: SpaceText[] = [];
  for (const seed of seeds) {
    const format = seed.asset?.format;
    const text = format?.fragment?.string?.raw;
    if (typeof text !== 'string' || text.trim() === '') continue;
    const specific = format?.classification?.specific ?? undefined;
    const name = seed.asset?.metadata?.name ?? undefined;
    texts.push({ text, ...(specific ? { specific } : {}), ...(name ? { source: name } : {}) });
  }
  return texts;
}
