import type { Postings } from './postings.ts';

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U32 = new Uint32Array(0);

/**
 * Each slot's terms and their packed frequencies (the forward index), which removal (exact document
 * frequencies), compaction and similarity queries need. A restore leaves the entries out and they are
 * derived from the compacted postings on first use, so a restore does almost no work.
 */
export class ForwardIndex {
  private termLists: (Int32Array | undefined)[] = [];
  private tfLists: (Uint32Array | undefined)[] = [];
  private complete = true;

  /** The entry of a new slot (the next one). */
  push(terms: Int32Array, tfs: Uint32Array): void {
    this.termLists.push(terms);
    this.tfLists.push(tfs);
  }

  /** Empties a retired slot's entry (call `ensure` first: a missing entry would be derived again). */
  retire(slot: number): void {
    this.termLists[slot] = EMPTY_I32;
    this.tfLists[slot] = EMPTY_U32;
  }

  /** A slot's term ids (call `ensure` first). */
  terms(slot: number): Int32Array {
    return this.termLists[slot] ?? EMPTY_I32;
  }

  /** A slot's packed frequencies, in the order of `terms(slot)` (call `ensure` first). */
  tfs(slot: number): Uint32Array {
    return this.tfLists[slot] ?? EMPTY_U32;
  }

  /** A copy that later changes of this one leave as it is (the entries themselves are never changed). */
  copy(): ForwardIndex {
    const copy = new ForwardIndex();
    copy.termLists = this.termLists.slice();
    copy.tfLists = this.tfLists.slice();
    copy.complete = this.complete;
    return copy;
  }

  /** Complete entries for every slot (a compaction's). */
  install(termLists: Int32Array[], tfLists: Uint32Array[]): void {
    this.termLists = termLists;
    this.tfLists = tfLists;
    this.complete = true;
  }

  /** `slots` entries left to derive from the compacted postings (a restore's). */
  defer(slots: number): void {
    this.termLists = new Array(slots);
    this.tfLists = new Array(slots);
    this.complete = slots === 0;
  }

  /** Derives the missing entries from the compacted postings, in one pass. */
  ensure(postings: Postings, slotCount: number): void {
    if (this.complete) return;
    const n = slotCount;
    const counts = new Int32Array(n + 1);
    // Slot gaps restart with each term: its list is decoded on its own.
    for (let t = 0; t < postings.baseTerms; t++) postings.forEachCompacted(t, (slot) => counts[slot + 1]!++);
    for (let s = 0; s < n; s++) counts[s + 1]! += counts[s]!;
    const terms = new Int32Array(counts[n]!);
    const tfs = new Uint32Array(counts[n]!);
    const fill = counts.slice(0, n);
    for (let t = 0; t < postings.baseTerms; t++) {
      postings.forEachCompacted(t, (slot, packed) => {
        const at = fill[slot]!++;
        terms[at] = t;
        tfs[at] = packed;
      });
    }
    for (let s = 0; s < n; s++) {
      if (this.termLists[s] !== undefined) continue;
      this.termLists[s] = terms.subarray(counts[s]!, counts[s + 1]!);
      this.tfLists[s] = tfs.subarray(counts[s]!, counts[s + 1]!);
    }
    this.complete = true;
  }
}
