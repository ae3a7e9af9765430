import { typoCandidate, type TypoIndex } from './fuzzy.ts';
import type { LexicalIndex } from './lexical/lexical-index.ts';
import type { QueryTerm } from './lexical/ranking.ts';
import { isStopword, stem, words, type Word } from './tokenize.ts';

/** How much each kind of query term counts, relative to a word found as typed (1). Tuned on CoSQA dev queries. */
export const QUERY_WEIGHTS = {
  /** A part of a compound identifier in the query (`parse` of `parseArgs`). */
  part: 0.5,
  /** A programming abbreviation or synonym of a word (`dict` for `dictionary`). */
  synonym: 0.5,
  /** A known term that starts with a word the index does not know (typing in progress). */
  prefix: 0.6,
  /** The same for the last word of the query when it is known too (as-you-type). */
  lastPrefix: 0.3,
  /** A known term one edit away from an unknown word (two edits for words of 8+ letters: weight squared). */
  typo: 0.6,
};

/** At most this many query words count (the exact-match bit mask is 32 bits). */
export const MAX_QUERY_WORDS = 32;
const PREFIX_LIMIT = 8;
const TYPO_LIMIT = 3;
const MIN_PREFIX = 3;

/**
 * Abbreviations and synonyms common in code, both ways: a query for `dictionary` also finds `dict`, one
 * for `cfg` also finds `config`. Generic programming vocabulary, not tied to a corpus.
 */
const SYNONYM_GROUPS = [
  'dictionary dict',
  'directory dir folder',
  'string str',
  'integer int',
  'number num',
  'length len',
  'array arr',
  'element elem',
  'argument arg',
  'parameter param',
  'variable var',
  'object obj',
  'function func fn',
  'message msg',
  'image img',
  'value val',
  'index idx',
  'current cur curr',
  'previous prev',
  'configuration config conf cfg',
  'character char',
  'boolean bool',
  'temporary tmp temp',
  'reference ref',
  'source src',
  'destination dst dest',
  'column col',
  'count cnt',
  'random rand',
  'maximum max',
  'minimum min',
  'average avg mean',
  'environment env',
  'document doc',
  'request req',
  'response resp res',
  'database db',
  'password passwd pwd',
  'attribute attr',
  'exception exc',
  'error err',
  'initialize init',
  'execute exec',
  'calculate calc compute',
  'remove delete del rm',
  'generate gen',
  'library lib',
  'package pkg',
  'information info',
  'utility util utils',
  'synchronize sync',
  'asynchronous async',
  'iterate iter',
  'sequence seq',
  'matrix mat',
  'vector vec',
  'position pos',
  'address addr',
  'expression expr',
  'regex regexp',
  'command cmd',
  'timestamp ts',
  'second sec',
  'uppercase upper',
  'lowercase lower',
  'concatenate concat',
  'statistics stats',
  'authentication authorization auth',
  'implementation impl',
  'allocate alloc',
  'buffer buf',
  'pointer ptr',
  'context ctx',
  'size len',
];

let synonyms: Map<string, Set<string>> | undefined;

/** The synonyms of a term (stemmed). The table is built on first use, not at every worker start. */
function synonymsOf(term: string): Iterable<string> {
  if (!synonyms) {
    synonyms = new Map();
    for (const group of SYNONYM_GROUPS) {
      const stems = group.split(' ').map(stem);
      for (const a of stems) for (const b of stems) if (a !== b) (synonyms.get(a) ?? synonyms.set(a, new Set()).get(a)!).add(b);
    }
  }
  return synonyms.get(term) ?? [];
}

export interface AnalysedQuery {
  terms: QueryTerm[];
  /** How many words the query has after stopwords are dropped (the exact-match mask has this many bits). */
  words: number;
}

/**
 * Turns a query into weighted index terms: each word as typed (and the parts of a compound identifier), its
 * programming synonyms, and, when the index does not know it, the known terms it is a prefix of or a typo
 * of (FlexSearch proposes, edit distance decides). Stopwords are dropped unless the query has nothing else.
 */
export function analyseQuery(index: LexicalIndex<unknown>, typos: TypoIndex | undefined, text: string): AnalysedQuery {
  const list = queryWords(text);
  const out: QueryTerm[] = [];
  list.forEach((word, i) => {
    const seen = new Set<number>();
    const add = (term: number | undefined, weight: number, exact: boolean) => {
      if (term === undefined || seen.has(term)) return;
      seen.add(term);
      out.push({ term, weight, word: i, exact });
    };
    const whole = knownTerm(index, word);
    add(whole, 1, true);
    for (const part of word.parts) add(index.termId(part), QUERY_WEIGHTS.part, true);
    if (word.whole !== undefined && word.parts.length === 0) {
      for (const synonym of synonymsOf(word.whole)) add(index.termId(synonym), QUERY_WEIGHTS.synonym, false);
    }
    const last = i === list.length - 1;
    if (whole === undefined) {
      for (const t of prefixTerms(index, word.raw, word.whole)) add(t, QUERY_WEIGHTS.prefix, false);
      if (typos && word.whole !== undefined) {
        for (const { term, distance } of typos.near(word.whole, TYPO_LIMIT)) add(term, QUERY_WEIGHTS.typo ** distance, false);
      }
    } else if (last && word.raw.length >= MIN_PREFIX && word.parts.length === 0) {
      for (const t of index.withPrefix(word.raw, PREFIX_LIMIT)) add(t, QUERY_WEIGHTS.lastPrefix, false);
    }
  });
  return { terms: out, words: list.length };
}

/** Whether analysing `text` looks typos up (it has a word the index does not know): the caller loads the typo index first. */
export function needsTypos(index: LexicalIndex<unknown>, text: string): boolean {
  return queryWords(text).some((word) => word.whole !== undefined && knownTerm(index, word) === undefined && typoCandidate(word.whole));
}

/** The words a query is analysed into: stopwords dropped unless the query has nothing else, at most MAX_QUERY_WORDS. */
function queryWords(text: string): Word[] {
  const list = words(text);
  const meaningful = list.filter((w) => !(w.parts.length === 0 && w.whole !== undefined && isStopword(w.whole)));
  return (meaningful.length > 0 ? meaningful : list).slice(0, MAX_QUERY_WORDS);
}

/** The word's term: its stem, or the word as typed when that is a known term (a stem of something else: `argpars`). */
function knownTerm(index: LexicalIndex<unknown>, word: Word): number | undefined {
  return (word.whole === undefined ? undefined : index.termId(word.whole)) ?? index.termId(word.raw);
}

/**
 * Known terms a partly typed word may stand for: terms starting with it (as typed or stemmed), or, when it
 * runs past a stem (`parsi` for `pars`, the stem of `parsing`), the longest known term it starts with.
 */
function prefixTerms(index: LexicalIndex<unknown>, raw: string, stemmed: string | undefined): number[] {
  if (raw.length < MIN_PREFIX) return [];
  const found = new Set(index.withPrefix(raw, PREFIX_LIMIT));
  if (stemmed && stemmed !== raw) for (const t of index.withPrefix(stemmed, PREFIX_LIMIT)) found.add(t);
  if (found.size === 0) {
    for (let k = raw.length - 1; k >= Math.max(MIN_PREFIX, raw.length - 3); k--) {
      const t = index.termId(raw.slice(0, k));
      if (t !== undefined) {
        found.add(t);
        break;
      }
    }
  }
  return [...found].slice(0, PREFIX_LIMIT);
}
