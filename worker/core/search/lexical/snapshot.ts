/**
 * The compacted form of the lexical index: live slots only, used terms renumbered in sorted order, flat
 * coded postings. `compact()` installs it, `snapshot()` hands it out as plain data, `restore()` checks
 * and installs a snapshot.
 */
import { FIELD_COUNT } from './fields.ts';
import type { ForwardIndex } from './forward.ts';
import { encodePostingsSteps, type CodedPostings } from './postings.ts';
import { finish, type Steps } from '../../timers.ts';
import type { Vocabulary } from './vocabulary.ts';

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

export const JSON_CODEC: MetaCodec<never> = { encode: (m) => JSON.stringify(m), decode: (t) => JSON.parse(t) as never };

/** The index's state that a compaction reads (the forward index complete). */
export interface CompactionSource<M> {
  vocabulary: Vocabulary;
  forward: ForwardIndex;
  ids: readonly (string | undefined)[];
  metas: readonly (M | undefined)[];
  metaJson: readonly (string | undefined)[];
  flags: Uint8Array;
  fieldLens: Uint32Array;
  live: number;
}

/** A compacted state: slot i of it is the i-th live slot of the source. */
export interface Compacted<M> {
  terms: string[];
  ids: string[];
  metas: (M | undefined)[];
  metaJson: (string | undefined)[];
  flags: Uint8Array;
  fwdTerms: Int32Array[];
  fwdTfs: Uint32Array[];
  fieldLens: Uint32Array;
  postings: CodedPostings;
}

/**
 * The live slots and used terms, terms renumbered in sorted order, with flat postings. Shares the
 * (immutable) per-slot frequency arrays and metadata with the source.
 */
export function compacted<M>(source: CompactionSource<M>): Compacted<M> {
  return finish(compactedSteps(source));
}

/** Slots (or terms) handled between two pauses of the steps below: about a millisecond's work. */
const STEP_ITEMS = 4096;

/** `compacted` in steps, for a snapshot taken while the index goes on (of a source it no longer changes). */
export function* compactedSteps<M>(source: CompactionSource<M>): Steps<Compacted<M>> {
  const { vocabulary, forward } = source;
  const order = vocabulary.usedInOrder();
  const remap = new Int32Array(vocabulary.size).fill(-1);
  const terms: string[] = new Array(order.length);
  order.forEach((old, id) => {
    remap[old] = id;
    terms[id] = vocabulary.term(old);
  });
  const ids: string[] = [];
  const metas: (M | undefined)[] = [];
  const metaJson: (string | undefined)[] = [];
  const flags = new Uint8Array(source.live);
  const fwdTerms: Int32Array[] = [];
  const fwdTfs: Uint32Array[] = [];
  const fieldLens = new Uint32Array(source.live * FIELD_COUNT);
  for (let s = 0; s < source.ids.length; s++) {
    if (s % STEP_ITEMS === 0) yield;
    const id = source.ids[s];
    if (id === undefined) continue;
    const old = forward.terms(s);
    const mapped = new Int32Array(old.length);
    for (let i = 0; i < old.length; i++) mapped[i] = remap[old[i]!]!;
    ids.push(id);
    metas.push(source.metas[s]);
    metaJson.push(source.metaJson[s]);
    flags[ids.length - 1] = source.flags[s]!;
    fwdTerms.push(mapped);
    fwdTfs.push(forward.tfs(s));
    fieldLens.set(source.fieldLens.subarray(s * FIELD_COUNT, (s + 1) * FIELD_COUNT), (ids.length - 1) * FIELD_COUNT);
  }
  // Invert: count per term, prefix sums, fill (slots ascending within each term).
  const start = new Int32Array(terms.length + 1);
  for (let s = 0; s < fwdTerms.length; s++) {
    if (s % STEP_ITEMS === 0) yield;
    for (const t of fwdTerms[s]!) start[t + 1]!++;
  }
  for (let t = 0; t < terms.length; t++) start[t + 1]! += start[t]!;
  const total = start[terms.length]!;
  const slots = new Int32Array(total);
  const tfs = new Uint32Array(total);
  const fill = start.slice(0, terms.length);
  for (let s = 0; s < fwdTerms.length; s++) {
    if (s % STEP_ITEMS === 0) yield;
    const list = fwdTerms[s]!;
    const packed = fwdTfs[s]!;
    for (let i = 0; i < list.length; i++) {
      const at = fill[list[i]!]!++;
      slots[at] = s;
      tfs[at] = packed[i]!;
    }
  }
  const postings = yield* encodePostingsSteps(start, slots, tfs);
  return { terms, ids, metas, metaJson, flags, fwdTerms, fwdTfs, fieldLens, postings };
}

/** A snapshot's terms, once its sizes are checked. Throws when the snapshot is inconsistent. */
export function checkedTerms(snap: LexicalSnapshot): string[] {
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
  return terms;
}
