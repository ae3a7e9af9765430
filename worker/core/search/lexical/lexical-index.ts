/**
 * An in-memory inverted index ranked with BM25F, built for a library that changes one asset at a time
 * and must come back fast after a worker restart.
 *
 * - Documents live in numbered slots. Re-indexing an asset retires its slot and takes a new one, so
 *   postings are only ever appended; retired slots are skipped at query time and dropped by `compact()`.
 * - Postings of the compacted part are varint-coded per term (postings.ts), decoded as a query reads
 *   them; postings added since live in small per-term arrays. Per posting: the slot and the frequencies of the term in each of the
 *   six fields, 5 bits each, packed into one 32-bit number (a frequency above 31 counts as 31: BM25 has
 *   long saturated by then).
 * - Each slot also has its terms (the forward index), which removal (exact document frequencies),
 *   compaction and similarity queries need. For restored slots it is derived from the flat postings on
 *   first use, so a restore does almost no work: the snapshot holds the flat postings as they are used,
 *   and each document's metadata as a JSON string parsed when first read.
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

import { encodePostings, forEachPosting, type CodedPostings } from './postings.ts';

/** What `snapshot()` returns and `restore()` takes: strings and typed arrays, cheap to structured-clone. */
export interface LexicalSnapshot {
  /** The sorted vocabulary, joined by newlines (terms never contain one). */
  terms: string;
  ids: string[];
  /**
   * Each document's metadata as JSON. A snapshot may be restored without it (a plain query needs none;
   * see SearchIndex) and be given it later with `installMeta`.
   */
  meta?: string[];
  /** Per document: the flags given to `set`. */
  flags: Uint8Array;
  /** Term t's postCounts[t] postings are coded in postBytes[postStart[t] .. postStart[t + 1]) (postings.ts). */
  postStart: Int32Array;
  postCounts: Int32Array;
  postBytes: Uint8Array;
  /** Slot i, field f: fieldLens[i * FIELD_COUNT + f]. */
  fieldLens: Uint32Array;
}

/** How a document's metadata is written into and read from a snapshot. */
export interface MetaCodec<M> {
  encode(meta: M): string;
  decode(text: string): M;
}

const JSON_CODEC: MetaCodec<never> = { encode: (m) => JSON.stringify(m), decode: (t) => JSON.parse(t) as never };

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U8 = new Uint8Array(0);
const EMPTY_U32 = new Uint32Array(0);

export class LexicalIndex<M> {
  params: Bm25Params;

  // Vocabulary
  private terms: string[] = [];
  /** Ids of the terms added since the last install (the sorted ones are found by binary search). */
  private termIds = new Map<string, number>();
  /** terms[0 .. sortedCount) are in sorted order. */
  private sortedCount = 0;
  private df: number[] = [];

  // Slots
  private ids: (string | undefined)[] = [];
  private metas: (M | undefined)[] = [];
  /** Metadata not parsed yet (restored slots). */
  private metaJson: (string | undefined)[] = [];
  private flagList: Uint8Array = new Uint8Array(64);
  /** id -> slot, built on first use after a restore (a search needs none). */
  private slotMap: Map<string, number> | undefined = new Map();
  /** The forward index; undefined entries are derived from the flat postings when first needed. */
  private fwdTerms: (Int32Array | undefined)[] = [];
  private fwdTfs: (Uint32Array | undefined)[] = [];
  private forwardComplete = true;
  /** Slot s, field f at s * FIELD_COUNT + f; grows by doubling. */
  private fieldLens: Uint32Array = new Uint32Array(64 * FIELD_COUNT);
  private totalLens = new Array<number>(FIELD_COUNT).fill(0);
  private live = 0;
  private dead = 0;
  /** Slots [0, metaPending) were restored without their metadata, which `installMeta` brings. */
  private metaPending = 0;

  // Postings of the compacted part (term < baseTerms: coded in baseBytes[baseStart[t] .. baseStart[t + 1]))
  // and of what came after
  private baseTerms = 0;
  private baseStart: Int32Array = new Int32Array(1);
  private baseBytes: Uint8Array = EMPTY_U8;
  private extra = new Map<number, number[]>();
  /** Changes whenever term ids are renumbered (compact, restore); unique across indexes. */
  generation = ++generations;

  // Query scratch space, reused
  private acc = new Float64Array(0);
  private fieldAcc = new Uint8Array(0);
  private wordAcc = new Uint32Array(0);
  private seen = new Uint8Array(0);

  constructor(
    params: Bm25Params = DEFAULT_BM25,
    private codec: MetaCodec<M> = JSON_CODEC,
  ) {
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

  get slotCount(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slotOf().has(id);
  }

  slot(id: string): number | undefined {
    return this.slotOf().get(id);
  }

  private slotOf(): Map<string, number> {
    if (!this.slotMap) {
      const map = new Map<string, number>();
      for (let s = 0; s < this.ids.length; s++) if (this.ids[s] !== undefined) map.set(this.ids[s]!, s);
      this.slotMap = map;
    }
    return this.slotMap;
  }

  idOf(slot: number): string | undefined {
    return this.ids[slot];
  }

  /** The flags given to `set` (a cheap per-document bit field for hot filters). */
  flags(slot: number): number {
    return slot < this.ids.length ? this.flagList[slot]! : 0;
  }

  /** False while the metadata of restored documents has not been installed (`installMeta`). */
  get hasMeta(): boolean {
    return this.metaPending === 0;
  }

  /** The metadata of a snapshot restored without it, in slot order (`snapshot().meta`). */
  installMeta(meta: readonly string[]): void {
    if (meta.length !== this.metaPending) throw new Error(`search snapshot: ${meta.length} metadata entries for ${this.metaPending} documents`);
    // Documents re-indexed since the restore have their metadata already; retired slots need none.
    for (let s = 0; s < meta.length; s++) {
      if (this.ids[s] !== undefined && this.metas[s] === undefined && this.metaJson[s] === undefined) this.metaJson[s] = meta[s];
    }
    this.metaPending = 0;
  }

  metaOf(slot: number): M | undefined {
    let meta = this.metas[slot];
    if (meta === undefined) {
      const json = this.metaJson[slot];
      if (json === undefined) {
        if (slot < this.metaPending && this.ids[slot] !== undefined) throw new Error('search: metadata read before installMeta');
        return undefined;
      }
      meta = this.codec.decode(json);
      this.metas[slot] = meta;
      this.metaJson[slot] = undefined;
    }
    return meta;
  }

  meta(id: string): M | undefined {
    const slot = this.slotOf().get(id);
    return slot === undefined ? undefined : this.metaOf(slot);
  }

  /** Every live slot, in slot order. */
  *slots(): Generator<number> {
    for (let s = 0; s < this.ids.length; s++) if (this.ids[s] !== undefined) yield s;
  }

  termId(term: string): number | undefined {
    const id = this.lookup(term);
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
  set(id: string, fields: readonly (readonly string[])[], meta: M, flags = 0): void {
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
    this.metaJson.push(undefined);
    if (this.flagList.length <= slot) this.flagList = grow(this.flagList, slot + 1);
    this.flagList[slot] = flags;
    this.fwdTerms.push(fwdTerms);
    this.fwdTfs.push(fwdTfs);
    if (this.fieldLens.length < (slot + 1) * FIELD_COUNT) this.fieldLens = grow(this.fieldLens, (slot + 1) * FIELD_COUNT);
    for (let f = 0; f < FIELD_COUNT; f++) {
      this.fieldLens[slot * FIELD_COUNT + f] = lens[f]!;
      this.totalLens[f]! += lens[f]!;
    }
    this.slotOf().set(id, slot);
    this.live++;
  }

  remove(id: string): boolean {
    const slot = this.slotOf().get(id);
    if (slot === undefined) return false;
    this.ensureForward();
    this.slotOf().delete(id);
    for (const t of this.fwdTerms[slot]!) this.df[t]!--;
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLens[f]! -= this.fieldLens[slot * FIELD_COUNT + f]!;
    this.ids[slot] = undefined;
    this.metas[slot] = undefined;
    this.metaJson[slot] = undefined;
    this.fwdTerms[slot] = EMPTY_I32;
    this.fwdTfs[slot] = EMPTY_U32;
    this.live--;
    this.dead++;
    return true;
  }

  /** Compacts when retired slots outnumber live ones (re-indexing retires a slot per change). */
  maintain(): void {
    if (this.metaPending === 0 && this.dead > 1000 && this.dead > this.live) this.compact();
  }

  /** The terms of a document with their frequency summed over fields (weighted), for similarity queries. */
  documentTerms(slot: number): { term: number; tf: number; fields: number }[] {
    this.ensureForward();
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
    // Length normalisation of field f for a field of `len` terms: weight / (1 - b + b * len / avg), computed
    // for the postings a query visits (a table for every slot cost a worker's first query ~7 ms to fill).
    const { b, weights } = this.params;
    const fieldWeight = new Float64Array(FIELD_COUNT);
    const fieldBase = new Float64Array(FIELD_COUNT);
    const fieldPerTerm = new Float64Array(FIELD_COUNT);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const avg = this.live > 0 ? this.totalLens[f]! / this.live : 0;
      fieldWeight[f] = weights[f]!;
      fieldBase[f] = avg > 0 ? 1 - b[f]! : 1;
      fieldPerTerm[f] = avg > 0 ? b[f]! / avg : 0;
    }
    const lens = this.fieldLens;
    // 0: not seen, 1: rejected, 2: accepted (only used with `accept`)
    const seen = this.seen;
    const touched: number[] = [];
    const checked: number[] = [];

    // The query term being visited: its weight and its word's bit in the exact-match mask.
    let weight = 0;
    let wordBit = 0;
    const visit = (slot: number, packed: number) => {
      if (this.ids[slot] === undefined) return;
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
      const base = slot * FIELD_COUNT;
      for (let f = 0; f < FIELD_COUNT; f++) {
        const c = (packed >>> (f * TF_BITS)) & TF_MAX;
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
      weight = q.weight * this.idf(q.term);
      if (weight <= 0) continue;
      wordBit = q.exact ? 1 << q.word : 0;
      if (q.term < this.baseTerms) forEachPosting(this.baseBytes, this.baseStart[q.term]!, this.baseStart[q.term + 1]!, visit);
      const list = this.extra.get(q.term);
      if (list) for (let i = 0; i < list.length; i += 2) visit(list[i]!, list[i + 1]!);
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

  /** Changes BM25 parameters (tuning); the next query uses them. */
  setParams(params: Bm25Params) {
    this.params = params;
  }

  /** A term's id: binary search in the sorted part, then the terms added since. */
  private lookup(term: string): number | undefined {
    let lo = 0;
    let hi = this.sortedCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.terms[mid]!;
      if (t < term) lo = mid + 1;
      else if (t > term) hi = mid;
      else return mid;
    }
    return this.termIds.get(term);
  }

  private intern(term: string): number {
    let id = this.lookup(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIds.set(term, id);
      this.df.push(0);
    }
    return id;
  }

  /** Derives the missing forward entries (restored slots) from the flat postings, in one pass. */
  private ensureForward() {
    if (this.forwardComplete) return;
    const n = this.ids.length;
    const counts = new Int32Array(n + 1);
    const bytes = this.baseBytes;
    // Slot gaps restart with each term: its list is decoded on its own.
    for (let t = 0; t < this.baseTerms; t++) forEachPosting(bytes, this.baseStart[t]!, this.baseStart[t + 1]!, (slot) => counts[slot + 1]!++);
    for (let s = 0; s < n; s++) counts[s + 1]! += counts[s]!;
    const terms = new Int32Array(counts[n]!);
    const tfs = new Uint32Array(counts[n]!);
    const fill = counts.slice(0, n);
    for (let t = 0; t < this.baseTerms; t++) {
      forEachPosting(bytes, this.baseStart[t]!, this.baseStart[t + 1]!, (slot, packed) => {
        const at = fill[slot]!++;
        terms[at] = t;
        tfs[at] = packed;
      });
    }
    for (let s = 0; s < n; s++) {
      if (this.fwdTerms[s] !== undefined) continue;
      this.fwdTerms[s] = terms.subarray(counts[s]!, counts[s + 1]!);
      this.fwdTfs[s] = tfs.subarray(counts[s]!, counts[s + 1]!);
    }
    this.forwardComplete = true;
  }

  /** Drops retired slots and unused terms, renumbers terms in sorted order and rebuilds the flat postings. */
  compact(): void {
    if (this.metaPending > 0) throw new Error('search: compact before installMeta');
    const c = this.compacted();
    this.install(c.terms, c.ids, c.metas, c.metaJson, c.flags, c.fieldLens, c.postings);
    this.fwdTerms = c.fwdTerms;
    this.fwdTfs = c.fwdTfs;
    this.forwardComplete = true;
  }

  /** A compacted copy of the index as plain data; the index itself is left as it is. */
  snapshot(): LexicalSnapshot & { meta: string[] } {
    if (this.metaPending > 0) throw new Error('search: snapshot taken before installMeta');
    const c = this.compacted();
    return {
      terms: c.terms.join('\n'),
      ids: c.ids,
      meta: c.ids.map((_, s) => c.metaJson[s] ?? this.codec.encode(c.metas[s]!)),
      flags: c.flags.slice(0, c.ids.length),
      postStart: c.postings.start,
      postCounts: c.postings.counts,
      postBytes: c.postings.bytes,
      fieldLens: c.fieldLens,
    };
  }

  /**
   * The live slots and used terms, terms renumbered in sorted order, with flat postings. Shares the
   * (immutable) per-slot frequency arrays and metadata with the index.
   */
  private compacted() {
    this.ensureForward();
    const order: number[] = [];
    for (let t = 0; t < this.terms.length; t++) if (this.df[t]! > 0) order.push(t);
    order.sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : this.terms[a]! > this.terms[b]! ? 1 : 0));
    const remap = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = new Array(order.length);
    order.forEach((old, id) => {
      remap[old] = id;
      terms[id] = this.terms[old]!;
    });
    const ids: string[] = [];
    const metas: (M | undefined)[] = [];
    const metaJson: (string | undefined)[] = [];
    const flags = new Uint8Array(this.live);
    const fwdTerms: Int32Array[] = [];
    const fwdTfs: Uint32Array[] = [];
    const fieldLens = new Uint32Array(this.live * FIELD_COUNT);
    for (let s = 0; s < this.ids.length; s++) {
      const id = this.ids[s];
      if (id === undefined) continue;
      const old = this.fwdTerms[s]!;
      const mapped = new Int32Array(old.length);
      for (let i = 0; i < old.length; i++) mapped[i] = remap[old[i]!]!;
      ids.push(id);
      metas.push(this.metas[s]);
      metaJson.push(this.metaJson[s]);
      flags[ids.length - 1] = this.flagList[s]!;
      fwdTerms.push(mapped);
      fwdTfs.push(this.fwdTfs[s]!);
      fieldLens.set(this.fieldLens.subarray(s * FIELD_COUNT, (s + 1) * FIELD_COUNT), (ids.length - 1) * FIELD_COUNT);
    }
    // Invert: count per term, prefix sums, fill (slots ascending within each term).
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
    return { terms, ids, metas, metaJson, flags, fwdTerms, fwdTfs, fieldLens, postings: encodePostings(start, slots, tfs) };
  }

  /** An index from a snapshot. Throws when the snapshot is inconsistent. */
  static restore<M>(snap: LexicalSnapshot, params: Bm25Params = DEFAULT_BM25, codec: MetaCodec<M> = JSON_CODEC): LexicalIndex<M> {
    const terms = snap.terms === '' ? [] : snap.terms.split('\n');
    const n = snap.ids.length;
    if (
      !Array.isArray(snap.ids) ||
      (snap.meta !== undefined && (!Array.isArray(snap.meta) || snap.meta.length !== n)) ||
      !(snap.flags instanceof Uint8Array) ||
      snap.flags.length !== n ||
      !(snap.fieldLens instanceof Uint32Array) ||
      snap.fieldLens.length !== n * FIELD_COUNT ||
      !(snap.postStart instanceof Int32Array) ||
      !(snap.postCounts instanceof Int32Array) ||
      !(snap.postBytes instanceof Uint8Array) ||
      snap.postStart.length !== terms.length + 1 ||
      snap.postCounts.length !== terms.length ||
      snap.postStart[0] !== 0 ||
      snap.postStart[terms.length] !== snap.postBytes.length
    ) {
      throw new Error('search snapshot: inconsistent sizes');
    }
    for (let t = 0; t < terms.length; t++) {
      if (snap.postStart[t + 1]! < snap.postStart[t]! || snap.postCounts[t]! < 0) throw new Error('search snapshot: inconsistent postings');
    }
    // Postings are not decoded to check them (a restore must be quick): an out-of-range slot reads as a retired one.
    const index = new LexicalIndex<M>(params, codec);
    const postings = { start: snap.postStart, counts: snap.postCounts, bytes: snap.postBytes };
    index.install(terms, snap.ids, new Array(n), snap.meta ?? new Array(n), snap.flags, snap.fieldLens, postings);
    index.metaPending = snap.meta ? 0 : n;
    index.slotMap = undefined;
    index.fwdTerms = new Array(n);
    index.fwdTfs = new Array(n);
    index.forwardComplete = n === 0;
    return index;
  }

  /** Installs a compacted state: sorted terms, no retired slots, flat postings. */
  private install(
    terms: string[],
    ids: string[],
    metas: (M | undefined)[],
    metaJson: (string | undefined)[],
    flags: Uint8Array,
    fieldLens: Uint32Array,
    postings: CodedPostings,
  ) {
    this.terms = terms;
    this.termIds = new Map();
    this.sortedCount = terms.length;
    this.df = Array.from(postings.counts);
    this.ids = ids;
    this.metas = metas;
    this.metaJson = metaJson;
    this.flagList = flags;
    this.slotMap = new Map(ids.map((id, s) => [id, s]));
    this.fieldLens = fieldLens;
    this.live = ids.length;
    this.dead = 0;
    this.totalLens = new Array<number>(FIELD_COUNT).fill(0);
    for (let s = 0; s < ids.length; s++) for (let f = 0; f < FIELD_COUNT; f++) this.totalLens[f]! += fieldLens[s * FIELD_COUNT + f]!;
    this.baseTerms = terms.length;
    this.baseStart = postings.start;
    this.baseBytes = postings.bytes;
    this.extra = new Map();
    this.generation = ++generations;
  }
}

let generations = 0;

/** A copy of a typed array with room for at least `min` elements (doubling). */
function grow<T extends Uint8Array | Uint32Array>(array: T, min: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(min, array.length * 2));
  next.set(array);
  return next;
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
