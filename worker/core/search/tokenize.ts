/**
 * The code-aware tokenizer shared by indexing and queries.
 *
 * - Words are runs of letters, digits and `_`/`$` (identifiers stay whole at first).
 * - An identifier made of several parts (`parseArgs`, `parse_args`, `XMLHttpRequest`, `get2ndItem`) gives
 *   its parts (`parse`, `args`) and also the whole identifier without separators (`parseargs`), so a query
 *   for either spelling finds both, and the whole name counts more than the parts alone.
 * - Terms are lower-cased and stemmed (Porter's stemmer: `files` -> `file`, `sorted` -> `sort`).
 * - Terms shorter than 2 or longer than 40 characters are dropped (single letters, hashes, base64 runs).
 */
import { stemmer } from 'stemmer';

const WORD = /[\p{L}\p{N}_$]+/gu;
/** camelCase boundaries inside a run: aB, ABc (the last capital starts a word), letter|digit, digit|letter. */
export const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const SEPARATORS = /[_$]+/;

export const MIN_TERM = 2;
export const MAX_TERM = 40;
/** Raw text beyond this many characters per field is not indexed. */
export const MAX_FIELD_CHARS = 200_000;

/** One word of the input: the terms it gives, the whole identifier (when it had parts) first. */
export interface Word {
  /** The word lower-cased with separators removed, before stemming (for prefix matching). */
  raw: string;
  /** The stemmed, lower-cased whole word (separators removed); undefined when too short or too long. */
  whole?: string;
  /** Its parts when the word is a compound identifier (stemmed, lower-cased), else empty. */
  parts: string[];
}

export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const raw of rawWords(text)) {
    const word = analyse(raw);
    if (word) out.push(word);
  }
  return out;
}

/** The runs of word characters in a text (up to MAX_FIELD_CHARS): `match`, not `matchAll`, which makes an array per word. */
function rawWords(text: string): string[] {
  const source = text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
  return source.match(WORD) ?? [];
}

/** Code repeats its identifiers: the analysis of a raw word is cached (the cache is cleared when full). */
const cache = new Map<string, Word | null>();
const CACHE_LIMIT = 100_000;

function analyse(raw: string): Word | undefined {
  const cached = cache.get(raw);
  if (cached !== undefined) return cached ?? undefined;
  const pieces = raw.split(SEPARATORS).flatMap((piece) => piece.split(CAMEL)).filter((p) => p.length > 0);
  const whole = normalize(pieces.join(''));
  const parts = pieces.length > 1 ? pieces.map(normalize).filter((p): p is string => p !== undefined) : [];
  const word = whole === undefined && parts.length === 0 ? null : { raw: pieces.join('').toLowerCase(), whole, parts };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, word);
  return word ?? undefined;
}

/**
 * Every term of a text, in order, with repetition (a part that equals the whole word is not repeated).
 * The loop of `words` again, without its list of Words: this runs on every document an index takes in.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of rawWords(text)) {
    const word = analyse(raw);
    if (!word) continue;
    if (word.whole !== undefined) out.push(word.whole);
    for (const part of word.parts) if (part !== word.whole) out.push(part);
  }
  return out;
}

function normalize(raw: string): string | undefined {
  if (raw.length < MIN_TERM || raw.length > MAX_TERM) return undefined;
  const lower = raw.toLowerCase();
  return stem(lower);
}

/**
 * Porter's stemmer (M.F. Porter, 1980, the original algorithm, from the `stemmer` package): `files` ->
 * `file`, `parsing` and `parse` -> `pars`, `iterable` and `iterator` -> `iter`. Only lower-case ASCII words
 * longer than 2 letters are stemmed; anything else (digits, other scripts) is kept as it is. Index and
 * queries use the same stems.
 */
export function stem(word: string): string {
  return word.length > 2 && /^[a-z]+$/.test(word) ? stemmer(word) : word;
}

/**
 * Words that carry no meaning in a query (kept in the index: a query of only these still works). Not `get`:
 * it is the commonest verb of function names (`get_value`, `getTimezone`), so "how to get the timezone"
 * should favour the getter; dropping it from this list raised relevance nDCG@10 on the tuning half of
 * CoSQA from 0.4719 to 0.4785 (10 queries up, 4 down; docs/performance.md). `is`, `to` and `from`, also
 * name parts, did not gain there and stay.
 */
const STOPWORD_TEXT =
  'a an and are as at be by for from how i in into is it its of on or that the this to was what when where which who why ' +
  'will with do does can could should would my me we you your use using way there their them than then so if not no';
let stopwords: Set<string> | undefined;

/** Whether a term (stemmed) is a stopword. The set is built on first use, not at every worker start. */
export function isStopword(term: string): boolean {
  stopwords ??= new Set(STOPWORD_TEXT.split(' ').map((w) => stem(w)));
  return stopwords.has(term);
}
