/**
 * `POST /qgpt/persons/related`: the persons linked to the assets most relevant to a seed's fragment text or
 * a conversation's text.
 *
 * The text's salient words (identifiers first, then the most frequent; at most QUERY_WORDS) are searched
 * with the library search (search/service.ts: BM25F over names, content, annotations, tags, websites); the
 * best RELATED_ASSETS assets count, each with its search score. A person scores the sum of the scores of
 * the assets it is linked to (persons come from seed metadata and `Seed.person` when assets are created);
 * best first, at most MAX_PERSONS. `explanations[personId]` says which assets link it and which words
 * matched each: "linked to 'config loader' (matched: yaml, load_config)".
 *
 * No seed and no conversation, or a seed without a fragment string, is a 422; nothing matching is an empty
 * list. `transferables` is accepted; a Person carries references to its assets either way.
 */
import type { ServiceContext } from '../deps.ts';
import { invalid } from '../errors.ts';
import * as build from '../model/build.ts';
import type { QGPTPersonsRelatedInput, QGPTPersonsRelatedOutput } from '../model/schemas.ts';
import { searchAssets } from '../search/service.ts';
import { linkedTo, withAssets } from '../links/link-records.ts';
import type { PersonRecord, WithAssets } from '../store/records.ts';
import { meaningfulTerms, salientWords, type SalientWord } from './answer/terms.ts';

export const QUERY_WORDS = 24;
export const RELATED_ASSETS = 10;
export const MAX_PERSONS = 20;

export async function personsRelated(
  ctx: ServiceContext,
  input: QGPTPersonsRelatedInput,
  _options: { transferables?: boolean } = {},
): Promise<QGPTPersonsRelatedOutput> {
  const text = inputText(input);
  const words = queryWords(text);
  if (words.length === 0) return { persons: build.collectionOf([], build.person), explanations: {} };

  const found = await searchAssets(ctx, { query: words.map((w) => w.text).join(' ') }, { transferables: true });
  const hits = found.iterable.slice(0, RELATED_ASSETS).filter((r) => r.asset !== undefined && r.asset !== null);
  const best = Math.max(1e-9, ...hits.map((h) => h.score ?? 0));

  const { personsOf, records } = await ctx.store.read(async (tx) => {
    const ids: string[] = hits.map((h) => h.identifier);
    const personsOf = new Map<string, string[]>();
    for (const [i, persons] of (await Promise.all(ids.map((id) => linkedTo(tx, id, 'persons')))).entries()) personsOf.set(ids[i]!, persons);
    const records = await withAssets(tx, 'persons', await tx.getMany('persons', [...new Set([...personsOf.values()].flat())]));
    return { personsOf, records };
  }, ['persons', 'links']);
  const recordsById = new Map(records.map((p) => [p.id, p]));

  const score = new Map<string, number>();
  const reasons = new Map<string, string[]>();
  for (const hit of hits) {
    const persons = personsOf.get(hit.identifier) ?? [];
    if (persons.length === 0) continue;
    const asset = hit.asset!;
    const content = [asset.name ?? '', ...(asset.formats?.iterable ?? []).map((f) => f.fragment?.string?.raw ?? '')].join('\n');
    const terms = meaningfulTerms(content);
    const matched = words.filter((w) => terms.has(w.term) || (w.parts.length > 0 && w.parts.every((p) => terms.has(p)))).map((w) => w.text);
    const reason = `'${asset.name ?? asset.id}'${matched.length > 0 ? ` (matched: ${matched.slice(0, 6).join(', ')})` : ''}`;
    for (const person of persons) {
      if (!recordsById.has(person)) continue;
      score.set(person, (score.get(person) ?? 0) + (hit.score ?? 0) / best);
      reasons.set(person, [...(reasons.get(person) ?? []), reason]);
    }
  }

  const ranked: WithAssets<PersonRecord>[] = [...score.keys()]
    .sort((a, b) => score.get(b)! - score.get(a)! || a.localeCompare(b))
    .slice(0, MAX_PERSONS)
    .map((id) => recordsById.get(id)!);
  return {
    persons: build.collectionOf(ranked, build.person),
    explanations: Object.fromEntries(ranked.map((p) => [p.id, `linked to ${reasons.get(p.id)!.join(' and ')}`])),
  };
}

function inputText(input: QGPTPersonsRelatedInput): string {
  if (input.seed) {
    const raw = input.seed.asset?.format?.fragment?.string?.raw;
    if (typeof raw !== 'string' || raw.trim() === '') {
      throw invalid('The seed of /qgpt/persons/related needs a fragment string (seed.asset.format.fragment.string.raw).', 'seed_without_fragment');
    }
    return raw;
  }
  const turns = input.conversation?.iterable;
  if (!input.conversation) throw invalid('/qgpt/persons/related needs a seed (a fragment) or a conversation.', 'persons_input_required');
  return (turns ?? []).map((t) => t.text).join('\n');
}

/** The words to search for: identifiers first, then by how often they occur; at most QUERY_WORDS. */
function queryWords(text: string): SalientWord[] {
  return salientWords(text)
    .map((w, i) => ({ w, i }))
    .sort((a, b) => Number(b.w.identifier) - Number(a.w.identifier) || b.w.count - a.w.count || a.i - b.i)
    .slice(0, QUERY_WORDS)
    .map(({ w }) => w);
}
