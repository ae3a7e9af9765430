import type { Index } from 'flexsearch';
import { loadLazyScript } from '../lazy-script.ts';
import type { LexicalIndex } from './lexical/lexical-index.ts';

/** Defined by the worker build only (see ../lazy-script.ts). */
declare const TESSERA_LAZY_SCRIPTS: true;

type FlexSearch = Pick<typeof import('flexsearch'), 'Charset' | 'Index'>;

/**
 * FlexSearch, loaded by `TypoIndex.load()`: in the worker a lazy script (../lazy-script.ts), because its
 * 49 KB in `/sw.js` slowed every worker start (each 100 KB of script about 7 ms), and a typo lookup is rare.
 */
let flexsearch: FlexSearch | undefined;

/**
 * Typo tolerance over the vocabulary. FlexSearch, with its Soundex encoder, proposes the known terms that
 * sound like a word the index does not know; a Damerau-Levenshtein check keeps those within one edit (words
 * of 4-7 letters) or two (longer words). The FlexSearch index holds only the vocabulary (a few tens of
 * thousands of terms, not the documents): it is built on first use, about 8 µs a term, and then follows
 * new terms as they appear. `load()` brings the library first (SearchIndex does, for a query that needs it).
 */
export class TypoIndex {
  private flex: Index | undefined;
  private generation = -1;
  private seen = 0;
  /** An exported FlexSearch index (from a snapshot) for the lexical index of this generation, imported on first use. */
  private saved: { parts: [string, string][]; generation: number; size: number } | undefined;

  constructor(private lexical: () => LexicalIndex<unknown>) {}

  /** Loads FlexSearch (once per worker lifetime); `near` and `exportParts` need it. */
  async load(): Promise<void> {
    // The constant test lets esbuild leave the import (and the library) out of the worker bundle.
    flexsearch ??= typeof TESSERA_LAZY_SCRIPTS !== 'undefined' ? await loadLazyScript<FlexSearch>('flexsearch') : await import('flexsearch');
  }

  /** Whether `load()` has brought the library. */
  static get loaded(): boolean {
    return flexsearch !== undefined;
  }

  /**
   * Brings the FlexSearch index in step with the vocabulary: imports the saved one, or rebuilds after term
   * ids were renumbered, then adds the terms that appeared since.
   */
  sync(): void {
    if (!flexsearch) throw new Error('search: the typo index was used before load()');
    const { Charset, Index } = flexsearch;
    const lexical = this.lexical();
    if (!this.flex || this.generation !== lexical.generation) {
      this.flex = new Index({ tokenize: 'strict', encoder: Charset.LatinSoundex });
      this.generation = lexical.generation;
      this.seen = 0;
      const saved = this.saved;
      this.saved = undefined;
      if (saved && saved.generation === lexical.generation) {
        try {
          for (const [key, data] of saved.parts) this.flex.import(key, data);
          this.seen = saved.size;
        } catch {
          this.flex = new Index({ tokenize: 'strict', encoder: Charset.LatinSoundex });
        }
      }
    }
    const size = lexical.vocabularySize;
    for (let t = this.seen; t < size; t++) {
      const term = lexical.term(t);
      if (typoCandidate(term)) this.flex.add(term, term);
    }
    this.seen = size;
  }

  /** The FlexSearch index, in step with the vocabulary, as exported parts (for a snapshot). */
  exportParts(): [string, string][] {
    this.sync();
    const parts: [string, string][] = [];
    this.flex!.export((key: string, data: string) => {
      parts.push([String(key), data]);
    });
    return parts;
  }

  /**
   * Uses an exported index, imported on first use, saved for `vocabulary` (default: the current one; terms
   * added since are added on first use too). Without one, the index is built from the vocabulary.
   */
  restore(parts: [string, string][] | undefined, vocabulary = this.vocabulary()): void {
    this.flex = undefined;
    this.saved = parts ? { parts, ...vocabulary } : undefined;
  }

  /** The lexical index's vocabulary as a saved index is matched against: its numbering and size. */
  vocabulary(): { generation: number; size: number } {
    const lexical = this.lexical();
    return { generation: lexical.generation, size: lexical.vocabularySize };
  }

  get ready(): boolean {
    const lexical = this.lexical();
    return this.flex !== undefined && this.generation === lexical.generation;
  }

  /** Known terms within the allowed edit distance of `word`, closest first, each with its distance. */
  near(word: string, limit: number): { term: number; distance: number }[] {
    // Without FlexSearch (`load()` not called, or its script could not be had) nothing is proposed.
    if (!typoCandidate(word) || !flexsearch) return [];
    this.sync();
    const lexical = this.lexical();
    const max = word.length >= 8 ? 2 : 1;
    const candidates = this.flex!.search(word, { limit: 200 }) as unknown as string[];
    const found: { term: number; distance: number; df: number }[] = [];
    for (const candidate of candidates) {
      if (candidate === word || Math.abs(candidate.length - word.length) > max) continue;
      const id = lexical.termId(candidate);
      if (id === undefined) continue;
      const distance = damerauLevenshtein(word, candidate, max);
      if (distance <= max) found.push({ term: id, distance, df: lexical.docFreq(id) });
    }
    found.sort((a, b) => a.distance - b.distance || b.df - a.df);
    return found.slice(0, limit).map(({ term, distance }) => ({ term, distance }));
  }
}

export const MIN_TYPO_LENGTH = 4;

/** Whether typos of a word are looked for (and a term is offered as one): plain words of 4 letters or more. */
export function typoCandidate(word: string): boolean {
  return word.length >= MIN_TYPO_LENGTH && /^[a-z]+$/.test(word);
}

/** Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent swaps), capped at max + 1. */
export function damerauLevenshtein(a: string, b: string, max = Infinity): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[m]!, max + 1);
}
