/**
 * The compacted postings of the lexical index (lexical-index.ts), varint-coded: per term, its postings in slot
 * order, each as the gap to the previous slot (minus one) and the packed field frequencies, both LEB128
 * varints. About 2.5 bytes a posting instead of the 8 of two 32-bit arrays. The index keeps them coded
 * and decodes a term's list as a query reads it, because they are what a worker's first search reads
 * from its snapshot, and IndexedDB hands big values over at about 8 ms a megabyte (3.4 MB of snapshot at
 * 10,000 assets took 44 ms to read; its postings alone 29 ms, 9 ms coded).
 */
import { finish, type Steps } from '../../timers.ts';

/** Postings coded between two pauses of `encodePostingsSteps` (about a millisecond's work). */
const STEP_POSTINGS = 50_000;

export interface CodedPostings {
  /** Term t's postings are bytes[start[t] .. start[t + 1]). */
  start: Int32Array;
  /** Term t has counts[t] postings (its document frequency). */
  counts: Int32Array;
  bytes: Uint8Array;
}

/** Codes flat postings (term t's are slots/tfs[start[t] .. start[t + 1]), slots ascending within a term). */
export function encodePostings(start: Int32Array, slots: Int32Array, tfs: Uint32Array): CodedPostings {
  return finish(encodePostingsSteps(start, slots, tfs));
}

/** `encodePostings` in steps (a pause every STEP_POSTINGS postings or so). */
export function* encodePostingsSteps(start: Int32Array, slots: Int32Array, tfs: Uint32Array): Steps<CodedPostings> {
  const terms = start.length - 1;
  const byteStart = new Int32Array(terms + 1);
  const counts = new Int32Array(terms);
  // At most 5 bytes a varint; shrunk to size at the end.
  let bytes = new Uint8Array(Math.max(16, slots.length * 3));
  let at = 0;
  const put = (value: number) => {
    if (at + 5 > bytes.length) {
      const next = new Uint8Array(bytes.length * 2);
      next.set(bytes);
      bytes = next;
    }
    let v = value >>> 0;
    while (v >= 0x80) {
      bytes[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    bytes[at++] = v;
  };
  let sincePause = 0;
  for (let t = 0; t < terms; t++) {
    if (sincePause >= STEP_POSTINGS) {
      sincePause = 0;
      yield;
    }
    sincePause += start[t + 1]! - start[t]! + 1;
    byteStart[t] = at;
    counts[t] = start[t + 1]! - start[t]!;
    let previous = -1;
    for (let i = start[t]!; i < start[t + 1]!; i++) {
      put(slots[i]! - previous - 1);
      put(tfs[i]!);
      previous = slots[i]!;
    }
  }
  byteStart[terms] = at;
  return { start: byteStart, counts, bytes: bytes.slice(0, at) };
}

/** Calls `visit(slot, packed)` for each posting coded in bytes[from .. to), in slot order. */
export function forEachPosting(bytes: Uint8Array, from: number, to: number, visit: (slot: number, packed: number) => void): void {
  let i = from;
  let slot = -1;
  while (i < to) {
    let b = bytes[i++]!;
    let gap = b & 0x7f;
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[i++]!;
      gap |= (b & 0x7f) << shift;
    }
    b = bytes[i++]!;
    let packed = b & 0x7f;
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[i++]!;
      packed |= (b & 0x7f) << shift;
    }
    slot += gap + 1;
    visit(slot, packed >>> 0);
  }
}

/**
 * Every posting of the index: those of the compacted part, coded (terms below `baseTerms`), and those
 * added since, in small per-term arrays of (slot, packed frequencies) pairs.
 */
export class Postings {
  baseTerms = 0;
  private baseStart: Int32Array = new Int32Array(1);
  private baseBytes: Uint8Array = new Uint8Array(0);
  /**
   * By term id, an array rather than a Map: dense in an index built from the store (ids from 0); after a
   * compaction or restore it holds only the ids added since (V8 keeps such a sparse array like a Map).
   */
  private added: (number[] | undefined)[] = [];

  /** Appends a posting (slots only grow: a term's list stays in slot order). */
  add(term: number, slot: number, packed: number): void {
    const list = this.added[term];
    if (list) list.push(slot, packed);
    else this.added[term] = [slot, packed];
  }

  /** Calls `visit(slot, packed)` for each posting of `term`: the compacted ones, then those added since. */
  forEach(term: number, visit: (slot: number, packed: number) => void): void {
    if (term < this.baseTerms) forEachPosting(this.baseBytes, this.baseStart[term]!, this.baseStart[term + 1]!, visit);
    const list = this.added[term];
    if (list) for (let i = 0; i < list.length; i += 2) visit(list[i]!, list[i + 1]!);
  }

  /** Like `forEach`, for the compacted postings only. */
  forEachCompacted(term: number, visit: (slot: number, packed: number) => void): void {
    forEachPosting(this.baseBytes, this.baseStart[term]!, this.baseStart[term + 1]!, visit);
  }

  /** Replaces every posting with the coded ones of a compaction or snapshot. */
  install(coded: CodedPostings): void {
    this.baseTerms = coded.counts.length;
    this.baseStart = coded.start;
    this.baseBytes = coded.bytes;
    this.added = [];
  }
}
