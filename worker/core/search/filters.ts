import { invalid } from '../errors.ts';
import type {
  AnnotationTypeEnum,
  AssetFilter,
  AssetFilterPhrase,
  AssetFilterTimestamp,
  AssetFilters,
  SearchedMatchEnum,
} from '../model/schemas.ts';
import type { DocMeta } from './documents.ts';

/**
 * The filters of `POST /assets/search`, compiled into a predicate over the index's metadata.
 *
 * - One AssetFilter holds criteria that must all hold. A list (`tags`, `websites`, `persons`) matches when
 *   the asset has any of its values; to require several, give several filters.
 * - `operations` nests a group: `{type, iterable}` combines the filter's own criteria and each nested
 *   filter with AND (the default) or OR, as the contract describes.
 * - The top level (`filters.iterable`) combines with AND, whatever its `type` says (service-api.md).
 * - `created` / `updated`: `from` alone is "at or after", `to` alone "at or before", both a closed range;
 *   with `between: false`, both mean outside that range.
 * - `phrase`: the text appears in the title, annotations or content (all three unless some are chosen),
 *   ignoring case unless the input sets `casing: true`; `options.annotation` limits it to annotations of that
 *   type. Phrases need the stored text, so they are resolved before the predicate runs (see `phrases`).
 *
 * Contradictory or empty filters are a 422, never a 500.
 */
export interface CompiledFilters {
  /** Whether an asset passes, given the ids that match each phrase. */
  test(meta: DocMeta, id: string, phraseMatches: ReadonlyMap<PhraseCriterion, ReadonlySet<string>>): boolean;
  phrases: PhraseCriterion[];
  /** Which kinds of criteria were used (what a result "matched" when there is no query). */
  kinds: Set<SearchedMatchEnum>;
  /** True when there are no criteria at all. */
  empty: boolean;
}

export interface PhraseCriterion {
  value: string;
  title: boolean;
  content: boolean;
  annotation: boolean;
  annotationType?: AnnotationTypeEnum;
  caseSensitive: boolean;
}

type Node = (meta: DocMeta, id: string, phrases: ReadonlyMap<PhraseCriterion, ReadonlySet<string>>) => boolean;

const MAX_DEPTH = 8;
const MAX_FILTERS = 1000;

export function compileFilters(filters: AssetFilters | null | undefined, options: { casing?: boolean | null } = {}): CompiledFilters {
  const phrases: PhraseCriterion[] = [];
  const kinds = new Set<SearchedMatchEnum>();
  let count = 0;
  const caseSensitive = options.casing === true;

  const group = (list: readonly Node[], type: string | null | undefined): Node =>
    type === 'OR' ? (m, id, p) => list.some((n) => n(m, id, p)) : (m, id, p) => list.every((n) => n(m, id, p));

  const compileFilter = (filter: AssetFilter, depth: number, where: string): Node | undefined => {
    if (++count > MAX_FILTERS) throw invalid(`filters: more than ${MAX_FILTERS} filters.`, 'invalid_filter');
    const own: Node[] = [];
    if (filter.classification) {
      const wanted = filter.classification;
      own.push((m) => m.specifics.includes(wanted));
    }
    const tags = values(filter.tags, `${where}.tags`);
    if (tags) {
      kinds.add('TAGS');
      own.push((m) => tags.some((t) => hasTag(m, t)));
    }
    const websites = values(filter.websites, `${where}.websites`);
    if (websites) {
      kinds.add('WEBSITES');
      own.push((m) => websites.some((w) => m.websiteIds.includes(w.raw) || m.websites.some((key) => key === w.lower || key.includes(w.lower))));
    }
    const persons = values(filter.persons, `${where}.persons`);
    if (persons) {
      kinds.add('PERSONS');
      own.push((m) => persons.some((p) => m.personIds.includes(p.raw) || m.persons.includes(p.lower)));
    }
    if (filter.phrase) {
      const phrase = compilePhrase(filter.phrase, caseSensitive, `${where}.phrase`);
      phrases.push(phrase);
      if (phrase.title) kinds.add('TITLE');
      if (phrase.content) kinds.add('CONTENT');
      if (phrase.annotation) kinds.add('ANNOTATION');
      own.push((_m, id, found) => found.get(phrase)?.has(id) ?? false);
    }
    const created = compileRange(filter.created, `${where}.created`);
    if (created) own.push((m) => created(m.created));
    const updated = compileRange(filter.updated, `${where}.updated`);
    if (updated) own.push((m) => updated(m.updated));

    const self = own.length === 0 ? undefined : group(own, 'AND');
    const operations = filter.operations;
    if (!operations) return self;
    if (depth >= MAX_DEPTH) throw invalid(`${where}.operations: filters nest deeper than ${MAX_DEPTH} levels.`, 'invalid_filter');
    const nested = operations.iterable
      .map((f, i) => compileFilter(f, depth + 1, `${where}.operations.iterable.${i}`))
      .filter((n): n is Node => n !== undefined);
    const members = self ? [self, ...nested] : nested;
    if (members.length === 0) return undefined;
    return group(members, operations.type);
  };

  const top = (filters?.iterable ?? [])
    .map((f, i) => compileFilter(f, 0, `filters.iterable.${i}`))
    .filter((n): n is Node => n !== undefined);
  const test: Node = top.length === 0 ? () => true : group(top, 'AND');
  return { test, phrases, kinds, empty: top.length === 0 };
}

/** Whether an asset carries a tag, named by its id or (any case) its text. */
export function hasTag(meta: DocMeta, tag: { raw: string; lower: string }): boolean {
  return meta.tagIds.includes(tag.raw) || meta.tags.includes(tag.lower);
}

/** A list criterion: undefined when absent or empty; blank values are a 422. */
function values(list: readonly string[] | null | undefined, where: string): { raw: string; lower: string }[] | undefined {
  if (!list || list.length === 0) return undefined;
  return list.map((value, i) => {
    const raw = value.trim();
    if (raw === '') throw invalid(`${where}.${i}: a blank value matches nothing.`, 'invalid_filter');
    return { raw, lower: raw.toLowerCase() };
  });
}

function compilePhrase(phrase: AssetFilterPhrase, caseSensitive: boolean, where: string): PhraseCriterion {
  const value = phrase.value ?? '';
  if (value.trim() === '') throw invalid(`${where}.value: a phrase filter needs a non-blank value.`, 'invalid_filter');
  const any = phrase.title === true || phrase.content === true || phrase.annotation === true;
  const annotationType = phrase.options?.annotation ?? undefined;
  return {
    value: caseSensitive ? value : value.toLowerCase(),
    title: any ? phrase.title === true : true,
    content: any ? phrase.content === true : true,
    annotation: any ? phrase.annotation === true : true,
    ...(annotationType ? { annotationType } : {}),
    caseSensitive,
  };
}

function compileRange(range: AssetFilterTimestamp | null | undefined, where: string): ((t: number) => boolean) | undefined {
  if (!range) return undefined;
  const from = range.from ? epoch(range.from.value) : undefined;
  const to = range.to ? epoch(range.to.value) : undefined;
  if ((from !== undefined && Number.isNaN(from)) || (to !== undefined && Number.isNaN(to))) {
    throw invalid(`${where}: from and to must be ISO-8601 timestamps.`, 'invalid_filter');
  }
  if (from !== undefined && to !== undefined) {
    if (from > to) throw invalid(`${where}: from is after to.`, 'invalid_filter');
    return range.between === false ? (t) => t < from || t > to : (t) => t >= from && t <= to;
  }
  if (from !== undefined) return (t) => t >= from;
  if (to !== undefined) return (t) => t <= to;
  if (range.between != null) throw invalid(`${where}: between needs from and to.`, 'invalid_filter');
  return undefined;
}

const epoch = (value: string | Date) => (value instanceof Date ? value.getTime() : Date.parse(value));

/** Whether a text holds a phrase (the phrase is already lower-case unless it is case-sensitive). */
export function containsPhrase(text: string, phrase: PhraseCriterion): boolean {
  return (phrase.caseSensitive ? text : text.toLowerCase()).includes(phrase.value);
}
