/** BM25F ranking over the postings of the lexical index, and the top k of the scored slots. */
import { FIELD_COUNT, TF_BITS, TF_MAX } from './fields.ts';
import type { Postings } from './postings.ts';

export interface Bm25Params {
  k1: number;
  /** Length normalisation per field (0: none, 1: full). */
  b: readonly number[];
  /** Weight per field. */
  weights: readonly number[];
}

export const DEFAULT_BM25: Bm25Params = {
  k1: 1.2,
  b: [0.5, 0.9, 0.75, 0.75, 0.3, 0.5],
  weights: [2, 0.5, 0.75, 1, 1.5, 0.75],
};

/** One term of a query: its id, a weight (1 for the word as typed, less for expansions) and the word it stands for. */
export interface QueryTerm {
  term: number;
  weight: number;
  /** Index of the query word (0..31) this term came from. */
  word: number;
  /** True when the term is the word itself (or one of its identifier parts), false for a prefix or typo expansion. */
  exact: boolean;
}

/** The scored slots of a query, best first. */
export interface Hits {
  slots: number[];
  scores: number[];
  /** Per hit: bit f set when field f held a matching term. */
  fields: number[];
  /** Per hit: bit w set when query word w matched exactly. */
  exactWords: number[];
}

/** What a query is scored against: the index's slots, field lengths and postings. */
export interface RankedCorpus {
  /** Per slot: its document's id, undefined once retired. */
  ids: readonly (string | undefined)[];
  /** Slot s, field f at s * FIELD_COUNT + f. */
  fieldLens: Uint32Array;
  /** Per field: the summed length over live documents. */
  totalLens: readonly number[];
  /** Live documents. */
  live: number;
  postings: Postings;
  params: Bm25Params;
  idf(term: number): number;
}

/** Inverse document frequency (BM25's, never negative) of a term held by `df` of `live` documents. */
export function bm25Idf(df: number, live: number): number {
  return Math.log(1 + (live - df + 0.5) / (df + 0.5));
}

/** Scores queries with BM25F; keeps its per-slot scratch arrays from one query to the next. */
export class Bm25Scorer {
  private acc = new Float64Array(0);
  private fieldAcc = new Uint8Array(0);
  private wordAcc = new Uint32Array(0);
  // 0: not seen, 1: rejected, 2: accepted (only used with `accept`)
  private seen = new Uint8Array(0);

  /**
   * Scores the documents that contain any of the query terms. `accept`, when given, limits the
   * candidates (a search space, filters, pseudo assets). Returns at most `limit` hits, best first.
   */
  search(corpus: RankedCorpus, query: readonly QueryTerm[], limit: number, accept?: (slot: number) => boolean): Hits {
    const { ids, live, totalLens, postings } = corpus;
    this.prepare(ids.length);
    const { k1, b, weights } = corpus.params;
    const acc = this.acc;
    const fieldAcc = this.fieldAcc;
    const wordAcc = this.wordAcc;
    // Length normalisation of field f for a field of `len` terms: weight / (1 - b + b * len / avg), computed
    // for the postings a query visits (a table for every slot cost a worker's first query ~7 ms to fill).
    const fieldWeight = new Float64Array(FIELD_COUNT);
    const fieldBase = new Float64Array(FIELD_COUNT);
    const fieldPerTerm = new Float64Array(FIELD_COUNT);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const avg = live > 0 ? totalLens[f]! / live : 0;
      fieldWeight[f] = weights[f]!;
      fieldBase[f] = avg > 0 ? 1 - b[f]! : 1;
      fieldPerTerm[f] = avg > 0 ? b[f]! / avg : 0;
    }
    const lens = corpus.fieldLens;
    // Module bindings copied to locals: under Node's module loaders an imported binding in the loop below
    // is a property read on a namespace object, which made queries ~3x slower.
    const fieldCount = FIELD_COUNT;
    const tfBits = TF_BITS;
    const tfMax = TF_MAX;
    const seen = this.seen;
    const touched: number[] = [];
    const checked: number[] = [];

    // The query term being visited: its weight and its word's bit in the exact-match mask.
    let weight = 0;
    let wordBit = 0;
    const visit = (slot: number, packed: number) => {
      if (ids[slot] === undefined) return;
      if (accept) {
        const state = seen[slot];
        if (state === 1) return;
        if (state === 0) {
          checked.push(slot);
          if (!accept(slot)) {
            seen[slot] = 1;
            return;
          }
          seen[slot] = 2;
        }
      }
      let tf = 0;
      let fields = 0;
      const base = slot * fieldCount;
      for (let f = 0; f < fieldCount; f++) {
        const c = (packed >>> (f * tfBits)) & tfMax;
        if (c) {
          tf += (c * fieldWeight[f]!) / (fieldBase[f]! + fieldPerTerm[f]! * lens[base + f]!);
          fields |= 1 << f;
        }
      }
      if (acc[slot] === 0) touched.push(slot);
      acc[slot]! += (weight * tf * (k1 + 1)) / (tf + k1);
      fieldAcc[slot]! |= fields;
      wordAcc[slot]! |= wordBit;
    };

    for (const q of query) {
      weight = q.weight * corpus.idf(q.term);
      if (weight <= 0) continue;
      wordBit = q.exact ? 1 << q.word : 0;
      postings.forEach(q.term, visit);
    }

    const top = topK(touched, acc, limit);
    const hits: Hits = { slots: top, scores: [], fields: [], exactWords: [] };
    for (const slot of top) {
      hits.scores.push(acc[slot]!);
      hits.fields.push(fieldAcc[slot]!);
      hits.exactWords.push(wordAcc[slot]!);
    }
    for (const slot of touched) {
      acc[slot] = 0;
      fieldAcc[slot] = 0;
      wordAcc[slot] = 0;
    }
    for (const slot of checked) seen[slot] = 0;
    return hits;
  }

  /** Sizes the scratch arrays. */
  private prepare(n: number) {
    if (this.acc.length < n) {
      const size = Math.max(n, this.acc.length * 2, 1024);
      this.acc = new Float64Array(size);
      this.fieldAcc = new Uint8Array(size);
      this.wordAcc = new Uint32Array(size);
      this.seen = new Uint8Array(size);
    }
  }
}

/** The `k` touched slots with the highest scores, best first (ties: lower slot first). */
export function topK(touched: number[], scores: Float64Array, k: number): number[] {
  if (touched.length <= k) return touched.sort((a, b) => scores[b]! - scores[a]! || a - b);
  // A min-heap of the best k so far.
  const heap: number[] = [];
  const less = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const slot of touched) {
    if (heap.length < k) {
      heap.push(slot);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!less(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (less(heap[0]!, slot)) {
      heap[0] = slot;
      down(0);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}
