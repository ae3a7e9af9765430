/**
 * Snippet vectors as stored (8-bit, one scale each) and as scanned: every snippet of the library in one
 * flat Int8Array, so a query is scored against all of them in one tight loop.
 */
import type { SnippetRecord } from '../../store/records.ts';
import { finish, type Steps } from '../../timers.ts';

/** Records copied between two pauses of `VectorMatrix.steps` and `vectorSnapshotSteps` (about a millisecond's work). */
export const STEP_RECORDS = 1024;

/** A unit vector quantised to 8 bits: the largest component becomes ±127. */
export function quantize(v: Float32Array): { vector: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const vector = new Int8Array(v.length);
  if (max === 0) return { vector, scale: 0 };
  const k = 127 / max;
  for (let i = 0; i < v.length; i++) vector[i] = Math.round(v[i]! * k);
  // 32 bits, as the snapshot and the chunks store it: a record reads back equal to the one made.
  return { vector, scale: Math.fround(max / 127) };
}

/** The dot product of a float query and a quantised vector (the cosine, for unit vectors). */
export function dotQuantized(query: Float32Array, vector: Int8Array, scale: number): number {
  if (query.length !== vector.length) throw new RangeError(`vector lengths differ: ${query.length} and ${vector.length}`);
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += query[i]! * vector[i]!;
  return sum * scale;
}

export class VectorMatrix {
  private constructor(
    private readonly dims: number,
    private readonly rows: Int8Array,
    private readonly scales: Float32Array,
    /** The asset of each row; an asset's rows are next to each other (both constructors make them so). */
    private readonly assets: string[],
  ) {}

  /**
   * The matrix over vectors already end to end (`dims` each, row r the snippet whose asset is `assets[r]`,
   * an asset's rows next to each other): a restored snapshot's buffer, used as it is instead of copied row by row.
   */
  static over(dims: number, rows: Int8Array, scales: Float32Array, assets: string[]): VectorMatrix {
    if (rows.length !== dims * assets.length || scales.length !== assets.length) throw new RangeError('vector matrix: rows, scales and assets do not match');
    return new VectorMatrix(dims, rows, scales, assets);
  }

  static of(records: Iterable<SnippetRecord>): VectorMatrix {
    return finish(VectorMatrix.steps([...records]));
  }

  /** `of` in steps, a pause every STEP_RECORDS records (at 100,000 assets the copy took about 0.3 s). */
  static *steps(list: readonly SnippetRecord[]): Steps<VectorMatrix> {
    const count = list.reduce((n, r) => n + r.snippets.length, 0);
    const dims = list.find((r) => r.snippets.length > 0)?.snippets[0]!.vector.length ?? 0;
    const rows = new Int8Array(count * dims);
    const scales = new Float32Array(count);
    const assets: string[] = new Array(count);
    let row = 0;
    for (let k = 0; k < list.length; k++) {
      if (k % STEP_RECORDS === 0) yield;
      const record = list[k]!;
      for (const snippet of record.snippets) {
        rows.set(snippet.vector, row * dims);
        scales[row] = snippet.scale;
        assets[row] = record.id;
        row++;
      }
    }
    return new VectorMatrix(dims, rows, scales, assets);
  }

  /**
   * Each asset's best snippet score for the query (assets in `within` only, when given). A query of a few
   * words is sparse under the hashing embedder (about a hundred of 1,024 components are not zero), so only
   * its non-zero components are visited: several times faster than the full product.
   */
  bestByAsset(query: Float32Array, within?: ReadonlySet<string>): Map<string, number> {
    const best = new Map<string, number>();
    if (this.assets.length === 0) return best;
    if (query.length !== this.dims) throw new RangeError(`vector lengths differ: ${query.length} and ${this.dims}`);
    const { rows, dims } = this;
    const at: number[] = [];
    for (let i = 0; i < dims; i++) if (query[i] !== 0) at.push(i);
    const index = Int32Array.from(at);
    const weight = Float32Array.from(at, (i) => query[i]!);
    const nonZero = index.length;
    // An asset's rows are next to each other: its best is set once its last row is scored, with no lookup
    // per row (a worker's first call runs this cold over every row of the library).
    let current: string | undefined;
    let top = 0;
    for (let r = 0, base = 0; r < this.assets.length; r++, base += dims) {
      const asset = this.assets[r]!;
      if (within && !within.has(asset)) continue;
      let sum = 0;
      for (let j = 0; j < nonZero; j++) sum += weight[j]! * rows[base + index[j]!]!;
      const score = sum * this.scales[r]!;
      if (asset === current) {
        if (score > top) top = score;
        continue;
      }
      if (current !== undefined) best.set(current, top);
      current = asset;
      top = score;
    }
    if (current !== undefined) best.set(current, top);
    return best;
  }
}
