/**
 * Word-level helpers shared by the answerers, reprompt, hints and related persons, on top of the search
 * tokenizer (search/tokenize.ts): the meaningful terms of a text (stopwords dropped), and its salient
 * words in their written form (what a query or a suggested question may quote back).
 */
import { isStopword, stem, words } from '../../search/tokenize.ts';

/** The meaningful terms of a text (stemmed, lower-cased): whole identifiers and their parts, no stopwords. */
export function meaningfulTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of words(text)) {
    if (word.whole !== undefined && !isStopword(word.whole)) out.add(word.whole);
    for (const part of word.parts) if (!isStopword(part)) out.add(part);
  }
  return out;
}

/** A word as written in a text, with what makes it worth quoting. */
export interface SalientWord {
  /** As written (an identifier keeps its case and separators). */
  text: string;
  /** Its stemmed, lower-cased whole form (what "mentioned" is compared on). */
  term: string;
  /** The stems of its parts (an identifier's pieces), else just `term`. */
  parts: string[];
  /** A compound identifier (`parse_config`, `loadYaml`, `Config2`), not a plain word. */
  identifier: boolean;
  /** Times it occurs in the text. */
  count: number;
  /** Where it first occurs (an index in the text). */
  first: number;
}

const WRITTEN = /[\p{L}\p{N}_$]+(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*/gu;
const IDENTIFIER = /[_$]|\p{Ll}\p{Lu}|\p{L}\p{N}|\./u;

/**
 * The salient words of a text, in order of first occurrence: no stopwords, no numbers, no single letters.
 * Dotted names (`yaml.safe_load`) stay whole.
 */
export function salientWords(text: string): SalientWord[] {
  const byTerm = new Map<string, SalientWord>();
  for (const match of text.matchAll(WRITTEN)) {
    const written = match[0].replace(/^[_$]+|[_$]+$/g, '');
    if (written.length < 2 || /^[\p{N}_.]+$/u.test(written)) continue;
    const analysed = words(written);
    const term = analysed.map((w) => w.whole ?? '').join('.');
    if (term === '' || analysed.some((w) => w.whole === undefined)) continue;
    const identifier = IDENTIFIER.test(written);
    if (!identifier && isStopword(term)) continue;
    const parts = analysed.flatMap((w) => (w.parts.length > 0 ? w.parts : [w.whole!])).filter((p) => !isStopword(p));
    const known = byTerm.get(term);
    if (known) known.count++;
    else byTerm.set(term, { text: written, term, parts, identifier, count: 1, first: match.index });
  }
  return [...byTerm.values()];
}

/** Whether a salient word is already said by a set of meaningful terms (its whole form, or all of its parts). */
export function mentionedIn(word: SalientWord, terms: ReadonlySet<string>): boolean {
  if (terms.has(word.term) || terms.has(stem(word.text.toLowerCase()))) return true;
  return word.parts.length > 0 && word.parts.every((p) => terms.has(p));
}
