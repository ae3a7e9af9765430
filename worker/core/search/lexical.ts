/**
 * An in-memory inverted index ranked with BM25F, built for a library that changes one asset at a time
 * and must come back fast after a worker restart.
 *
 * - Documents live in numbered slots. Re-indexing an asset retires its slot and takes a new one, so
 *   postings are only ever appended; retired slots are skipped at query time and dropped by `compact()`.
 * - Each slot keeps its terms (the forward index: term ids and per-field frequencies). That is what a
 *   snapshot stores; `restore` inverts it in one counting pass, which is faster than storing both.
 * - Postings of the compacted part are flat typed arrays (term -> range); postings added since live in
 *   small per-term arrays. Per posting: the slot and the frequencies of the term in each of the six
 *   fields, 5 bits each, packed into one 32-bit number (a frequency above 31 counts as 31: BM25 has
 *   long saturated by then).
 * - Vocabulary: after `compact()` term ids follow the sorted order of the terms, so a prefix is a binary
 *   search; terms added since are scanned.
 */

/** `code` and `prose` are the two halves of an asset's content: code, and its comments, docstrings or text. */
export const FIELDS = ['name', 'code', 'prose', 'annotations', 'tags', 'websites'] as const;
export type FieldName = (typeof FIELDS)[number];
export const FIELD_COUNT = FIELDS.length;
const TF_BITS = 5;
const TF_MAX = (1 << TF_BITS) - 1;

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

/** What `snapshot()` returns and `restore()` takes: plain data and typed arrays, cheap to structured-clone. */
export interface LexicalSnapshot<M> {
  /** The sorted vocabulary, joined by newlines (terms never contain one). */
  terms: string;
  ids: string[];
  meta: M[];
  /** Slot i's postings are fwdTerms/fwdTfs[fwdStart[i] .. fwdStart[i+1]). */
  fwdStart: Int32Array;
  fwdTerms: Int32Array;
  fwdTfs: Uint32Array;
  /** Slot i, field f: fieldLens[i * FIELD_COUNT + f]. */
  fieldLens: Uint32Array;
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U32 = new Uint32Array(0);

export class LexicalIndex<M> {
  params: Bm25Params;

  // Vocabulary
  private terms: string[] = [];
  private termIds = new Map<string, number>();
  /** terms[0 .. sortedCount) are in sorted order. */
  private sortedCount = 0;
  private df: number[] = [];

  // Slots
  private ids: (string | undefined)[] = [];
  private metas: (M | undefined)[] = [];
  private slotOf = new Map<string, number>();
  private fwdTerms: Int32Array[] = [];
  private fwdTfs: Uint32Array[] = [];
  private fieldLens: number[] = [];
  private totalLens = new Array<number>(FIELD_COUNT).fill(0);
  private live = 0;
  private dead = 0;

  // Postings of the compacted part (term < baseTerms) and of what came after
  private baseTerms = 0;
  private baseStart: Int32Array = new Int32Array(1);
  private baseSlots: Int32Array = EMPTY_I32;
  private baseTfs: Uint32Array = EMPTY_U32;
  private extra = new Map<number, number[]>();
  /** Changes whenever term ids are renumbered (compact, restore). */
  generation = 0;

  // Query scratch space, reused
  private norms = new Float64Array(0);
  private normsValid = false;
  private acc = new Float64Array(0);
  private fieldAcc = new Uint8Array(0);
  private wordAcc = new Uint32Array(0);

  constructor(params: Bm25Params = DEFAULT_BM25) {
    this.params = params;
  }

  get size(): number {
    return this.live;
  }

  get vocabularySize(): number {
    return this.terms.length;
  }

  /** Slots no longer in use; `compact()` frees them. */
  get retired(): number {
    return this.dead;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  slot(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  idOf(slot: number): string | undefined {
    return this.ids[slot];
  }

  metaOf(slot: number): M | undefined {
    return this.metas[slot];
  }

  meta(id: string): M | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.metas[slot];
  }

  /** Every live slot, in slot order. */
  *slots(): Generator<number> {
    for (let s = 0; s < this.ids.length; s++) if (this.ids[s] !== undefined) yield s;
  }

  get slotCount(): number {
    return this.ids.length;
  }

  termId(term: string): number | undefined {
    const id = this.termIds.get(term);
    return id !== undefined && this.df[id]! > 0 ? id : undefined;
  }

  term(id: number): string {
    return this.terms[id]!;
  }

  docFreq(term: number): number {
    return this.df[term] ?? 0;
  }

  /** Inverse document frequency (BM25's, never negative). */
  idf(term: number): number {
    const df = this.df[term] ?? 0;
    return Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
  }

  /** Adds or replaces a document: `fields[f]` is the list of terms of field f (with repetition). */
  set(id: string, fields: readonly (readonly string[])[], meta: M): void {
    this.remove(id);
    const tfs = new Map<number, number>();
    const lens = new Array<number>(FIELD_COUNT).fill(0);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const list = fields[f] ?? [];
      lens[f] = list.length;
      const shift = f * TF_BITS;
      for (const term of list) {
        const t = this.intern(term);
        const packed = tfs.get(t) ?? 0;
        if (((packed >>> shift) & TF_MAX) < TF_MAX) tfs.set(t, packed + (1 << shift));
      }
    }
    const slot = this.ids.length;
    const fwdTerms = new Int32Array(tfs.size);
    const fwdTfs = new Uint32Array(tfs.size);
    let i = 0;
    for (const [t, packed] of tfs) {
      fwdTerms[i] = t;
      fwdTfs[i] = packed >>> 0;
      i++;
      this.df[t]!++;
      let list = this.extra.get(t);
      if (!list) this.extra.set(t, (list = []));
      list.push(slot, packed >>> 0);
    }
    this.ids.push(id);
    this.metas.push(meta);
    this.fwdTerms.push(fwdTerms);
    this.fwdTfs.push(fwdTfs);
    for (let f = 0; f < FIELD_COUNT; f++) {
      this.fieldLens.push(lens[f]!);
      this.totalLens[f]! += lens[f]!;
    }
    this.slotOf.set(id, slot);
    this.live++;
    this.normsValid = false;
  }

  /** Replaces only the metadata of an indexed document. */
  setMeta(id: string, meta: M): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    this.metas[slot] = meta;
    return true;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    this.slotOf.delete(id);
    for (const t of this.fwdTerms[slot]!) this.df[t]!--;
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLens[f]! -= this.fieldLens[slot * FIELD_COUNT + f]!;
    this.ids[slot] = undefined;
    this.metas[slot] = undefined;
    this.fwdTerms[slot] = EMPTY_I32;
    this.fwdTfs[slot] = EMPTY_U32;
    this.live--;
    this.dead++;
    this.normsValid = false;
    return true;
  }

  /** The terms of a document with their frequency summed over fields (weighted), for similarity queries. */
  documentTerms(slot: number): { term: number; tf: number; fields: number }[] {
    const terms = this.fwdTerms[slot] ?? EMPTY_I32;
    const tfs = this.fwdTfs[slot] ?? EMPTY_U32;
    const out: { term: number; tf: number; fields: number }[] = [];
    for (let i = 0; i < terms.length; i++) {
      let tf = 0;
      let fields = 0;
      for (let f = 0; f < FIELD_COUNT; f++) {
        const n = (tfs[i]! >>> (f * TF_BITS)) & TF_MAX;
        if (n) {
          tf += n * this.params.weights[f]!;
          fields |= 1 << f;
        }
      }
      out.push({ term: terms[i]!, tf, fields });
    }
    return out;
  }

  /** Terms that start with `prefix` (live ones only), at most `limit`, most frequent first. */
  withPrefix(prefix: string, limit: number): number[] {
    const found: number[] = [];
    let lo = 0;
    let hi = this.sortedCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let t = lo; t < this.sortedCount && this.terms[t]!.startsWith(prefix); t++) if (this.df[t]! > 0) found.push(t);
    for (let t = this.sortedCount; t < this.terms.length; t++) if (this.df[t]! > 0 && this.terms[t]!.startsWith(prefix)) found.push(t);
    found.sort((a, b) => this.df[b]! - this.df[a]!);
    return found.slice(0, limit);
  }

  /** Compacts when retired slots outnumber live ones (re-indexing retires a slot per change). */
  maintain(): void {
    if (this.dead > 1000 && this.dead > this.live) this.compact();
  }

  /**
   * Scores the documents that contain any of the query terms with BM25F. `accept`, when given, limits the
   * candidates (a search space, filters, pseudo assets). Returns at most `limit` hits, best first.
   */
  search(query: readonly QueryTerm[], limit: number, accept?: (slot: number) => boolean): Hits {
    const n = this.ids.length;
    this.prepare(n);
    const { k1 } = this.params;
    const acc = this.acc;
    const fieldAcc = this.fieldAcc;
    const wordAcc = this.wordAcc;
    const norms = this.norms;
    const touched: number[] = [];
    const rejected = new Uint8Array(accept ? n : 0);

    const visit = (slot: number, packed: number, weight: number, wordBit: number) => {
      if (this.ids[slot] === undefined) return;
      if (accept) {
        if (rejected[slot] === 1) return;
        if (rejected[slot] === 0) {
          if (!accept(slot)) {
            rejected[slot] = 1;
            return;
          }
          rejected[slot] = 2;
        }
      }
      let tf = 0;
      let fields = 0;
      const base = slot * FIELD_COUNT;
      for (let f = 0; f < FIELD_COUNT; f++) {
        const c = (packed >>> (f * TF_BITS)) & TF_MAX;
        if (c) {
          tf += c * norms[base + f]!;
          fields |= 1 << f;
        }
      }
      if (acc[slot] === 0) touched.push(slot);
      acc[slot]! += (weight * tf * (k1 + 1)) / (tf + k1);
      fieldAcc[slot]! |= fields;
      wordAcc[slot]! |= wordBit;
    };

    for (const q of query) {
      const weight = q.weight * this.idf(q.term);
      if (weight <= 0) continue;
      const wordBit = q.exact ? 1 << q.word : 0;
      if (q.term < this.baseTerms) {
        const end = this.baseStart[q.term + 1]!;
        for (let i = this.baseStart[q.term]!; i < end; i++) visit(this.baseSlots[i]!, this.baseTfs[i]!, weight, wordBit);
      }
      const list = this.extra.get(q.term);
      if (list) for (let i = 0; i < list.length; i += 2) visit(list[i]!, list[i + 1]!, weight, wordBit);
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
    return hits;
  }

  /** Sizes the scratch arrays and refreshes the per-slot length normalisation after changes. */
  private prepare(n: number) {
    if (this.acc.length < n) {
      const size = Math.max(n, this.acc.length * 2, 1024);
      this.acc = new Float64Array(size);
      this.fieldAcc = new Uint8Array(size);
      this.wordAcc = new Uint32Array(size);
    }
    if (this.normsValid && this.norms.length >= n * FIELD_COUNT) return;
    if (this.norms.length < n * FIELD_COUNT) this.norms = new Float64Array(Math.max(n * FIELD_COUNT, this.norms.length * 2));
    const { b, weights } = this.params;
    const avg = this.totalLens.map((total) => (this.live > 0 ? total / this.live : 0));
    for (let s = 0; s < n; s++) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        const len = this.fieldLens[s * FIELD_COUNT + f]!;
        const norm = avg[f]! > 0 ? 1 - b[f]! + (b[f]! * len) / avg[f]! : 1;
        this.norms[s * FIELD_COUNT + f] = weights[f]! / norm;
      }
    }
    this.normsValid = true;
  }

  /** Changes BM25 parameters (tuning); the next query uses them. */
  setParams(params: Bm25Params) {
    this.params = params;
    this.normsValid = false;
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIds.set(term, id);
      this.df.push(0);
    }
    return id;
  }

  /** Drops retired slots and unused terms, renumbers terms in sorted order and rebuilds the flat postings. */
  compact(): void {
    const c = this.compacted();
    this.load(c.terms, c.df, c.ids, c.metas, c.fwdTerms, c.fwdTfs, c.fieldLens);
  }

  /** A compacted copy of the index as plain data; the index itself is left as it is. */
  snapshot(): LexicalSnapshot<M> {
    const c = this.compacted();
    let total = 0;
    for (const f of c.fwdTerms) total += f.length;
    const fwdStart = new Int32Array(c.ids.length + 1);
    const fwdTerms = new Int32Array(total);
    const fwdTfs = new Uint32Array(total);
    let at = 0;
    for (let s = 0; s < c.ids.length; s++) {
      fwdStart[s] = at;
      fwdTerms.set(c.fwdTerms[s]!, at);
      fwdTfs.set(c.fwdTfs[s]!, at);
      at += c.fwdTerms[s]!.length;
    }
    fwdStart[c.ids.length] = at;
    return {
      terms: c.terms.join('\n'),
      ids: c.ids,
      meta: c.metas,
      fwdStart,
      fwdTerms,
      fwdTfs,
      fieldLens: Uint32Array.from(c.fieldLens),
    };
  }

  /** The live slots and used terms, terms renumbered in sorted order. Shares the (immutable) per-slot frequency arrays. */
  private compacted() {
    const order: number[] = [];
    for (let t = 0; t < this.terms.length; t++) if (this.df[t]! > 0) order.push(t);
    order.sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : this.terms[a]! > this.terms[b]! ? 1 : 0));
    const remap = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = new Array(order.length);
    const df: number[] = new Array(order.length);
    order.forEach((old, id) => {
      remap[old] = id;
      terms[id] = this.terms[old]!;
      df[id] = this.df[old]!;
    });
    const ids: string[] = [];
    const metas: M[] = [];
    const fwdTerms: Int32Array[] = [];
    const fwdTfs: Uint32Array[] = [];
    const fieldLens: number[] = [];
    for (let s = 0; s < this.ids.length; s++) {
      const id = this.ids[s];
      if (id === undefined) continue;
      const old = this.fwdTerms[s]!;
      const mapped = new Int32Array(old.length);
      for (let i = 0; i < old.length; i++) mapped[i] = remap[old[i]!]!;
      ids.push(id);
      metas.push(this.metas[s]!);
      fwdTerms.push(mapped);
      fwdTfs.push(this.fwdTfs[s]!);
      for (let f = 0; f < FIELD_COUNT; f++) fieldLens.push(this.fieldLens[s * FIELD_COUNT + f]!);
    }
    return { terms, df, ids, metas, fwdTerms, fwdTfs, fieldLens };
  }

  /** An index from a snapshot. Throws when the snapshot is inconsistent. */
  static restore<M>(snap: LexicalSnapshot<M>, params: Bm25Params = DEFAULT_BM25): LexicalIndex<M> {
    const index = new LexicalIndex<M>(params);
    const terms = snap.terms === '' ? [] : snap.terms.split('\n');
    const n = snap.ids.length;
    if (snap.meta.length !== n || snap.fwdStart.length !== n + 1 || snap.fieldLens.length !== n * FIELD_COUNT) {
      throw new Error('search snapshot: inconsistent sizes');
    }
    if (snap.fwdTerms.length !== snap.fwdTfs.length || snap.fwdStart[n] !== snap.fwdTerms.length) {
      throw new Error('search snapshot: inconsistent postings');
    }
    const df = new Array<number>(terms.length).fill(0);
    for (const t of snap.fwdTerms) {
      if (t < 0 || t >= terms.length) throw new Error('search snapshot: term out of range');
      df[t]!++;
    }
    const fwdTerms: Int32Array[] = new Array(n);
    const fwdTfs: Uint32Array[] = new Array(n);
    for (let s = 0; s < n; s++) {
      fwdTerms[s] = snap.fwdTerms.subarray(snap.fwdStart[s]!, snap.fwdStart[s + 1]!);
      fwdTfs[s] = snap.fwdTfs.subarray(snap.fwdStart[s]!, snap.fwdStart[s + 1]!);
    }
    index.load(terms, df, snap.ids, snap.meta, fwdTerms, fwdTfs, Array.from(snap.fieldLens));
    return index;
  }

  /** Installs a compacted state (sorted terms, no retired slots) and inverts the forward index. */
  private load(
    terms: string[],
    df: number[],
    ids: string[],
    metas: M[],
    fwdTerms: Int32Array[],
    fwdTfs: Uint32Array[],
    fieldLens: number[],
  ) {
    this.terms = terms;
    this.termIds = new Map(terms.map((t, i) => [t, i]));
    this.sortedCount = terms.length;
    this.df = df;
    this.ids = ids;
    this.metas = metas;
    this.slotOf = new Map(ids.map((id, s) => [id, s]));
    this.fwdTerms = fwdTerms;
    this.fwdTfs = fwdTfs;
    this.fieldLens = fieldLens;
    this.live = ids.length;
    this.dead = 0;
    this.totalLens = new Array<number>(FIELD_COUNT).fill(0);
    for (let s = 0; s < ids.length; s++) for (let f = 0; f < FIELD_COUNT; f++) this.totalLens[f]! += fieldLens[s * FIELD_COUNT + f]!;

    // Invert: count per term, prefix sums, fill.
    const start = new Int32Array(terms.length + 1);
    for (const list of fwdTerms) for (const t of list) start[t + 1]!++;
    for (let t = 0; t < terms.length; t++) start[t + 1]! += start[t]!;
    const total = start[terms.length]!;
    const slots = new Int32Array(total);
    const tfs = new Uint32Array(total);
    const fill = start.slice(0, terms.length);
    for (let s = 0; s < fwdTerms.length; s++) {
      const list = fwdTerms[s]!;
      const packed = fwdTfs[s]!;
      for (let i = 0; i < list.length; i++) {
        const at = fill[list[i]!]!++;
        slots[at] = s;
        tfs[at] = packed[i]!;
      }
    }
    this.baseTerms = terms.length;
    this.baseStart = start;
    this.baseSlots = slots;
    this.baseTfs = tfs;
    this.extra = new Map();
    this.normsValid = false;
    this.generation++;
  }
}

/** The `k` touched slots with the highest scores, best first (ties: lower slot first). */
function topK(touched: number[], scores: Float64Array, k: number): number[] {
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
