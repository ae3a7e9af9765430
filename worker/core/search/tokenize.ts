/**
 * The code-aware tokenizer shared by indexing and queries.
 *
 * - Words are runs of letters, digits and `_`/`$` (identifiers stay whole at first).
 * - An identifier made of several parts (`parseArgs`, `parse_args`, `XMLHttpRequest`, `get2ndItem`) gives
 *   its parts (`parse`, `args`) and also the whole identifier without separators (`parseargs`), so a query
 *   for either spelling finds both, and the whole name counts more than the parts alone.
 * - Terms are lower-cased and stemmed (a light English stemmer: `files` -> `file`, `sorted` -> `sort`).
 * - Terms shorter than 2 or longer than 40 characters are dropped (single letters, hashes, base64 runs).
 */

const WORD = /[\p{L}\p{N}_$]+/gu;
/** Boundaries inside an identifier: lower->Upper, UPPER->Upper lower, letter<->digit. */
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
  const source = text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
  for (const match of source.matchAll(WORD)) {
    const word = analyse(match[0]);
    if (word) out.push(word);
  }
  return out;
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

/** Every term of a text, in order, with repetition (a part that equals the whole word is not repeated). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
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
 * Porter's stemmer (M.F. Porter, 1980, the original algorithm): `files` -> `file`, `parsing` and `parse` ->
 * `pars`, `iterable` and `iterator` -> `iter`. Only lower-case ASCII words longer than 2 letters are
 * stemmed; anything else (digits, other scripts) is kept as it is. Index and queries use the same stems.
 */
export function stem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  // Step 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  // Step 1b
  let extra = false;
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    extra = true;
  } else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    extra = true;
  }
  if (extra) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (doubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && cvc(w)) w += 'e';
  }
  // Step 1c
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  // Steps 2-4
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  // Step 5a
  if (w.endsWith('e')) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !cvc(base))) w = base;
  }
  // Step 5b
  if (measure(w) > 1 && doubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: [string, string][] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4 = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate',
  'iti', 'ous', 'ive', 'ize',
].sort((a, b) => b.length - a.length);

/** The longest matching suffix is replaced when what stays before it has a measure above `min`. */
function replaceSuffix(w: string, rules: [string, string][], min: number): string {
  let best: [string, string] | undefined;
  for (const rule of rules) if (w.endsWith(rule[0]) && (!best || rule[0].length > best[0].length)) best = rule;
  if (!best) return w;
  const base = w.slice(0, -best[0].length);
  return measure(base) > min ? base + best[1] : w;
}

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    if (measure(base) <= 1) return w;
    if (suffix === 'ion' && !/[st]$/.test(base)) return w;
    return base;
  }
  return w;
}

/** Whether the letter at `i` is a consonant (`y` is one after a vowel or at the start). */
function consonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 || !consonant(w, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in [C](VC)^m[V]. */
function measure(w: string): number {
  let m = 0;
  let i = 0;
  const n = w.length;
  while (i < n && consonant(w, i)) i++;
  while (i < n) {
    while (i < n && !consonant(w, i)) i++;
    if (i >= n) break;
    while (i < n && consonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!consonant(w, i)) return true;
  return false;
}

function doubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && consonant(w, n - 1);
}

/** Ends consonant-vowel-consonant, the last not w, x or y (`hop`, not `snow`). */
function cvc(w: string): boolean {
  const n = w.length;
  if (n < 3 || !consonant(w, n - 1) || consonant(w, n - 2) || !consonant(w, n - 3)) return false;
  return !/[wxy]$/.test(w);
}

/** Words that carry no meaning in a query (kept in the index: a query of only these still works). */
const STOPWORD_TEXT =
  'a an and are as at be by for from how i in into is it its of on or that the this to was what when where which who why ' +
  'will with do does can could should would my me we you your use using get way there their them than then so if not no';
let stopwords: Set<string> | undefined;

/** Whether a term (stemmed) is a stopword. The set is built on first use, not at every worker start. */
export function isStopword(term: string): boolean {
  stopwords ??= new Set(STOPWORD_TEXT.split(' ').map((w) => stem(w)));
  return stopwords.has(term);
}
