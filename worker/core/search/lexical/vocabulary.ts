/**
 * The terms of the lexical index and their document frequencies. After a compaction or restore the
 * terms are in sorted order, so a lookup or a prefix is a binary search; terms added since are found
 * through a map (lookup) or scanned (prefix).
 */
export class Vocabulary {
  private terms: string[] = [];
  /** Ids of the terms added since the last install. */
  private added = new Map<string, number>();
  /** terms[0 .. sortedCount) are in sorted order. */
  private sortedCount = 0;
  /** Per term: how many live documents hold it (0 for a term no longer used). */
  df: number[] = [];

  get size(): number {
    return this.terms.length;
  }

  term(id: number): string {
    return this.terms[id]!;
  }

  /** A term's id, used or not. */
  lookup(term: string): number | undefined {
    let lo = 0;
    let hi = this.sortedCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.terms[mid]!;
      if (t < term) lo = mid + 1;
      else if (t > term) hi = mid;
      else return mid;
    }
    return this.added.get(term);
  }

  /** A term's id, given a new one (document frequency 0) when the term is unknown. */
  intern(term: string): number {
    let id = this.lookup(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.added.set(term, id);
      this.df.push(0);
    }
    return id;
  }

  /** Terms that start with `prefix` (used ones only), at most `limit`, most frequent first. */
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

  /** The ids of the used terms, in the sorted order of the terms (a compaction's new numbering). */
  usedInOrder(): number[] {
    const order: number[] = [];
    for (let t = 0; t < this.terms.length; t++) if (this.df[t]! > 0) order.push(t);
    order.sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : this.terms[a]! > this.terms[b]! ? 1 : 0));
    return order;
  }

  /** A copy that later changes of this one leave as it is. */
  copy(): Vocabulary {
    const copy = new Vocabulary();
    copy.terms = this.terms.slice();
    copy.added = new Map(this.added);
    copy.sortedCount = this.sortedCount;
    copy.df = this.df.slice();
    return copy;
  }

  /** Replaces the vocabulary with sorted terms and their document frequencies. */
  install(sorted: string[], df: ArrayLike<number>): void {
    this.terms = sorted;
    this.added = new Map();
    this.sortedCount = sorted.length;
    this.df = Array.from(df);
  }
}
