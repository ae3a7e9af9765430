/**
 * An in-memory inverted index ranked with BM25F, built for a library that changes one asset at a time
 * and must come back fast after a worker restart. This class keeps the documents (numbered slots) and
 * ties the parts together:
 *
 * - Documents live in numbered slots. Re-indexing an asset retires its slot and takes a new one, so
 *   postings are only ever appended (postings.ts); retired slots are skipped at query time and dropped
 *   by `compact()` (snapshot.ts).
 * - Each slot also has its terms (forward.ts), derived from the flat postings on first use for restored
 *   slots, so a restore does almost no work: the snapshot holds the flat postings as they are used, and
 *   each document's metadata as a JSON string parsed when first read.
 * - Terms and their document frequencies: vocabulary.ts. Fields and packed frequencies: fields.ts.
 *   Scoring: ranking.ts.
 */
import { FIELD_COUNT, TF_BITS, TF_MAX } from './fields.ts';
import { ForwardIndex } from './forward.ts';
import { Postings } from './postings.ts';
import { Bm25Scorer, DEFAULT_BM25, bm25Idf, type Bm25Params, type Hits, type QueryTerm } from './ranking.ts';
import { JSON_CODEC, checkedTerms, compacted, compactedSteps, type Compacted, type CompactionSource, type LexicalSnapshot, type MetaCodec } from './snapshot.ts';
import { finish, type Steps } from '../../timers.ts';
import { Vocabulary } from './vocabulary.ts';

export class LexicalIndex<M> {
  params: Bm25Params;

  private vocabulary = new Vocabulary();
  private postings = new Postings();
  private forward = new ForwardIndex();
  private scorer = new Bm25Scorer();

  // Slots
  private ids: (string | undefined)[] = [];
  private metas: (M | undefined)[] = [];
  /** Metadata not parsed yet (restored slots). */
  private metaJson: (string | undefined)[] = [];
  private flagList: Uint8Array = new Uint8Array(64);
  /** id -> slot, built on first use after a restore (a search needs none). */
  private slotMap: Map<string, number> | undefined = new Map();
  /** Slot s, field f at s * FIELD_COUNT + f; grows by doubling. */
  private fieldLens: Uint32Array = new Uint32Array(64 * FIELD_COUNT);
  private totalLens = new Array<number>(FIELD_COUNT).fill(0);
  private live = 0;
  private dead = 0;
  /** Slots [0, metaPending) were restored without their metadata, which `installMeta` brings. */
  private metaPending = 0;
  /**
   * `set`'s working space: packed frequencies by term id (all zero between calls; as long as the
   * vocabulary, a few MB at most), and the ids it touched.
   */
  private tfScratch = new Uint32Array(1024);
  private seenScratch: number[] = [];

  /** Changes whenever term ids are renumbered (compact, restore); unique across indexes. */
  generation = ++generations;

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
    return this.vocabulary.size;
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
    const id = this.vocabulary.lookup(term);
    return id !== undefined && this.vocabulary.df[id]! > 0 ? id : undefined;
  }

  term(id: number): string {
    return this.vocabulary.term(id);
  }

  docFreq(term: number): number {
    return this.vocabulary.df[term] ?? 0;
  }

  /** Inverse document frequency (BM25's, never negative). */
  idf(term: number): number {
    return bm25Idf(this.vocabulary.df[term] ?? 0, this.live);
  }

  /** Adds or replaces a document: `fields[f]` is the list of terms of field f (with repetition). */
  set(id: string, fields: readonly (readonly string[])[], meta: M, flags = 0): void {
    this.remove(id);
    // The document's packed frequencies by term id, in arrays kept between calls (a Map per document
    // was a third of building an index from the store); its terms in the order first seen.
    let tfs = this.tfScratch;
    const seen = this.seenScratch;
    // Left over only if a call threw midway: zeroed, or those terms would count in the next document.
    for (const t of seen) tfs[t] = 0;
    seen.length = 0;
    const lens = new Array<number>(FIELD_COUNT).fill(0);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const list = fields[f] ?? [];
      lens[f] = list.length;
      const shift = f * TF_BITS;
      for (const term of list) {
        const t = this.vocabulary.intern(term);
        if (t >= tfs.length) this.tfScratch = tfs = grow(tfs, t + 1);
        const packed = tfs[t]!;
        if (packed === 0) seen.push(t);
        if (((packed >>> shift) & TF_MAX) < TF_MAX) tfs[t] = packed + (1 << shift);
      }
    }
    const slot = this.ids.length;
    const fwdTerms = new Int32Array(seen.length);
    const fwdTfs = new Uint32Array(seen.length);
    for (let i = 0; i < seen.length; i++) {
      const t = seen[i]!;
      const packed = tfs[t]!;
      tfs[t] = 0;
      fwdTerms[i] = t;
      fwdTfs[i] = packed;
      this.vocabulary.df[t]!++;
      this.postings.add(t, slot, packed);
    }
    seen.length = 0;
    this.ids.push(id);
    this.metas.push(meta);
    this.metaJson.push(undefined);
    if (this.flagList.length <= slot) this.flagList = grow(this.flagList, slot + 1);
    this.flagList[slot] = flags;
    this.forward.push(fwdTerms, fwdTfs);
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
    for (const t of this.forward.terms(slot)) this.vocabulary.df[t]!--;
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLens[f]! -= this.fieldLens[slot * FIELD_COUNT + f]!;
    this.ids[slot] = undefined;
    this.metas[slot] = undefined;
    this.metaJson[slot] = undefined;
    this.forward.retire(slot);
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
    const terms = this.forward.terms(slot);
    const tfs = this.forward.tfs(slot);
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
    return this.vocabulary.withPrefix(prefix, limit);
  }

  /**
   * Scores the documents that contain any of the query terms with BM25F. `accept`, when given, limits the
   * candidates (a search space, filters, pseudo assets). Returns at most `limit` hits, best first.
   */
  search(query: readonly QueryTerm[], limit: number, accept?: (slot: number) => boolean): Hits {
    const corpus = {
      ids: this.ids,
      fieldLens: this.fieldLens,
      totalLens: this.totalLens,
      live: this.live,
      postings: this.postings,
      params: this.params,
      idf: (term: number) => this.idf(term),
    };
    return this.scorer.search(corpus, query, limit, accept);
  }

  /** Changes BM25 parameters (tuning); the next query uses them. */
  setParams(params: Bm25Params) {
    this.params = params;
  }

  private ensureForward() {
    this.forward.ensure(this.postings, this.ids.length);
  }

  /** Drops retired slots and unused terms, renumbers terms in sorted order and rebuilds the flat postings. */
  compact(): void {
    if (this.metaPending > 0) throw new Error('search: compact before installMeta');
    const c = this.compacted();
    this.install(c);
    this.forward.install(c.fwdTerms, c.fwdTfs);
  }

  /** A compacted copy of the index as plain data; the index itself is left as it is. */
  snapshot(): IndexSnapshot {
    return finish(this.snapshotSteps());
  }

  /**
   * `snapshot()` in steps, of the index as it is at this call: the index may change while they run (a
   * save takes them between other work; at 100,000 assets they are about a second of it).
   */
  snapshotSteps(): Steps<IndexSnapshot> {
    if (this.metaPending > 0) throw new Error('search: snapshot taken before installMeta');
    this.ensureForward();
    const n = this.ids.length;
    // Copies of what set, remove and compact change in place; the per-slot arrays and metadata they
    // hold are replaced, never changed.
    const source: CompactionSource<M> = {
      vocabulary: this.vocabulary.copy(),
      forward: this.forward.copy(),
      ids: this.ids.slice(),
      metas: this.metas.slice(),
      metaJson: this.metaJson.slice(),
      flags: this.flagList.slice(0, n),
      fieldLens: this.fieldLens.slice(0, n * FIELD_COUNT),
      live: this.live,
    };
    return snapshotOf(source, this.codec);
  }

  private compacted(): Compacted<M> {
    this.ensureForward();
    const { vocabulary, forward, ids, metas, metaJson, flagList: flags, fieldLens, live } = this;
    return compacted({ vocabulary, forward, ids, metas, metaJson, flags, fieldLens, live });
  }

  /** An index from a snapshot. Throws when the snapshot is inconsistent. */
  static restore<M>(snap: LexicalSnapshot, params: Bm25Params = DEFAULT_BM25, codec: MetaCodec<M> = JSON_CODEC): LexicalIndex<M> {
    const terms = checkedTerms(snap);
    const n = snap.ids.length;
    const index = new LexicalIndex<M>(params, codec);
    const postings = { start: snap.postStart, counts: snap.postCounts, bytes: snap.postBytes };
    index.install({ terms, ids: snap.ids, metas: new Array(n), metaJson: snap.meta ?? new Array(n), flags: snap.flags, fieldLens: snap.fieldLens, postings });
    index.metaPending = snap.meta ? 0 : n;
    index.slotMap = undefined;
    index.forward.defer(n);
    return index;
  }

  /** Installs a compacted state: sorted terms, no retired slots, flat postings. */
  private install(c: Omit<Compacted<M>, 'fwdTerms' | 'fwdTfs'>) {
    this.vocabulary.install(c.terms, c.postings.counts);
    this.ids = c.ids;
    this.metas = c.metas;
    this.metaJson = c.metaJson;
    this.flagList = c.flags;
    this.slotMap = new Map(c.ids.map((id, s) => [id, s]));
    this.fieldLens = c.fieldLens;
    this.live = c.ids.length;
    this.dead = 0;
    this.totalLens = new Array<number>(FIELD_COUNT).fill(0);
    for (let s = 0; s < c.ids.length; s++) for (let f = 0; f < FIELD_COUNT; f++) this.totalLens[f]! += c.fieldLens[s * FIELD_COUNT + f]!;
    this.postings.install(c.postings);
    this.generation = ++generations;
  }
}

let generations = 0;

/** What `snapshot()` gives: the snapshot with every document's metadata. */
export type IndexSnapshot = LexicalSnapshot & { meta: string[] };

function* snapshotOf<M>(source: CompactionSource<M>, codec: MetaCodec<M>): Steps<IndexSnapshot> {
  const c = yield* compactedSteps(source);
  const meta = new Array<string>(c.ids.length);
  for (let s = 0; s < c.ids.length; s++) {
    if (s % META_STEP === 0) yield;
    meta[s] = c.metaJson[s] ?? codec.encode(c.metas[s]!);
  }
  return {
    terms: c.terms.join('\n'),
    ids: c.ids,
    meta,
    flags: c.flags.slice(0, c.ids.length),
    postStart: c.postings.start,
    postCounts: c.postings.counts,
    postBytes: c.postings.bytes,
    fieldLens: c.fieldLens,
  };
}

/** Documents whose metadata is encoded between two pauses of `snapshotSteps` (about a millisecond's work). */
const META_STEP = 256;

/** A copy of a typed array with room for at least `min` elements (doubling). */
function grow<T extends Uint8Array | Uint32Array>(array: T, min: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(min, array.length * 2));
  next.set(array);
  return next;
}
