/**
 * The vector index's snapshot: every snippet vector of the library in one record of the `indexes`
 * collection, so a worker that starts reads one large buffer instead of one record per asset (reading the
 * `snippets` collection whole, 10,000 records each holding a typed array, took about five times as long in
 * Chromium as one 10 MB buffer). The same form holds each chunk of vectors saved after it
 * (vector-chunks.ts); a snapshot names the seq it was taken at and the chain position it covers.
 *
 * The vectors are stored as a bitmap of their non-zero components and those components' values when that
 * is smaller than the vectors end to end: the hashing embedder's have 220-320 non-zero of 1,024 (p50, CoSQA
 * and the bench's snippets), so 10,000 of them take 4.5 MB instead of 10 MB, and IndexedDB hands a record
 * over at about 20 ms a megabyte on the build machine (reading that record is most of the first relevance
 * call after a worker start). A model's dense vectors stay end to end. Both forms are read.
 */
import type { IndexRecord, SnippetRecord } from '../../store/records.ts';
import { STEP_RECORDS, VectorMatrix } from './vector-matrix.ts';
import { finish, type Steps } from '../../timers.ts';

export const VECTOR_SNAPSHOT_ID = 'vectors.snapshot';

/** What the snapshot holds: per asset, then per snippet in asset order, then every vector end to end. */
export interface VectorSnapshotData {
  embedder: string;
  dims: number;
  ids: string[];
  updated: string[];
  /** Each asset's `contentKey` ('' when its record has none). */
  keys: string[];
  /** Each asset's number of snippets. */
  counts: Uint32Array;
  formats: string[];
  starts: Uint32Array;
  ends: Uint32Array;
  scales: Float32Array;
  /** Every vector end to end (`dims` each), or, when smaller, `mask` and `values`. */
  rows?: Int8Array;
  /** Bit i (of byte i >> 3, low bit first) set when component i of the vectors end to end is not zero. */
  mask?: Uint8Array;
  /** The components whose bits are set, in order. */
  values?: Int8Array;
}

export interface VectorSnapshot extends IndexRecord {
  /**
   * `head`: the chain position the vectors were at (vector-chunks.ts): the chunks after it follow the
   * snapshot. Absent in snapshots written before chunks, which no chunk follows.
   */
  data: VectorSnapshotData & { head?: string };
}

/** The snapshot of `records` (all of one embedder, vectors `dims` long) as applied up to `seq`. */
export function takeVectorSnapshot(records: Iterable<SnippetRecord>, args: VectorSnapshotArgs): VectorSnapshot {
  return finish(vectorSnapshotSteps([...records], args));
}

export interface VectorSnapshotArgs {
  embedder: string;
  seq: number;
  version: number;
  saved: string;
}

/** `takeVectorSnapshot` in steps (its records are not changed meanwhile: they are replaced, never changed). */
export function* vectorSnapshotSteps(list: readonly SnippetRecord[], args: VectorSnapshotArgs): Steps<VectorSnapshot> {
  const total = list.reduce((n, r) => n + r.snippets.length, 0);
  const dims = list.find((r) => r.snippets.length > 0)?.snippets[0]!.vector.length ?? 0;
  const data: VectorSnapshotData = {
    embedder: args.embedder,
    dims,
    ids: list.map((r) => r.id),
    updated: list.map((r) => r.updated),
    keys: list.map((r) => r.key ?? ''),
    counts: Uint32Array.from(list, (r) => r.snippets.length),
    formats: new Array<string>(total),
    starts: new Uint32Array(total),
    ends: new Uint32Array(total),
    scales: new Float32Array(total),
  };
  let row = 0;
  let nonZero = 0;
  for (let k = 0; k < list.length; k++) {
    if (k % STEP_RECORDS === 0) yield;
    for (const s of list[k]!.snippets) {
      data.formats[row] = s.format;
      data.starts[row] = s.start;
      data.ends[row] = s.end;
      data.scales[row] = s.scale;
      nonZero += countNonZero(s.vector);
      row++;
    }
  }
  const vectors = list.flatMap((r) => r.snippets.map((s) => s.vector));
  if (nonZero + Math.ceil((total * dims) / 8) < total * dims) Object.assign(data, yield* packSparse(vectors, dims, nonZero));
  else {
    data.rows = new Int8Array(total * dims);
    for (let k = 0; k < vectors.length; k++) {
      if (k % STEP_RECORDS === 0) yield;
      data.rows.set(vectors[k]!, k * dims);
    }
  }
  return { id: VECTOR_SNAPSHOT_ID, version: args.version, seq: args.seq, saved: args.saved, data };
}

function* packSparse(vectors: Int8Array[], dims: number, nonZero: number): Steps<{ mask: Uint8Array; values: Int8Array }> {
  const mask = new Uint8Array(Math.ceil((vectors.length * dims) / 8));
  const values = new Int8Array(nonZero);
  let v = 0;
  for (let k = 0; k < vectors.length; k++) {
    if (k % STEP_RECORDS === 0) yield;
    v = packOne(vectors[k]!, k * dims, mask, values, v);
  }
  return { mask, values };
}

// Without a branch per component: which components are zero is unpredictable, and the branch cost about
// 10 ns a component (packing took about 5% of an import's time in the worker, a CPU profile).

/** Four components at a time where the vector's bytes allow (twice as fast again in Node). */
function countNonZero(vector: Int8Array): number {
  let n = 0;
  let i = 0;
  if (vector.byteOffset % 4 === 0) {
    const words = new Uint32Array(vector.buffer, vector.byteOffset, vector.length >> 2);
    for (let w = 0; w < words.length; w++) {
      const x = words[w]!;
      // The top bit of each byte set where that byte is not zero, moved to the byte's bottom bit; the
      // multiplication adds the four bytes into the top one.
      const set = ((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080) >>> 7;
      n += Math.imul(set, 0x01010101) >>> 24;
    }
    i = words.length << 2;
  }
  for (; i < vector.length; i++) n += +(vector[i] !== 0);
  return n;
}

/** Sets the bits of `vector`'s non-zero components from bit `base` of `mask`, their values from `values[v]`; answers the next v. */
function packOne(vector: Int8Array, base: number, mask: Uint8Array, values: Int8Array, v: number): number {
  const whole = base % 8 === 0 ? vector.length - (vector.length % 8) : 0;
  // A byte of the mask at a time; the value is written whether or not it is zero, and kept only if not
  // (a write past the end of `values`, after its last non-zero, is dropped).
  for (let i = 0, byte = base >> 3; i < whole; i += 8, byte++) {
    let bits = 0;
    for (let j = 0; j < 8; j++) {
      const x = vector[i + j]!;
      const set = +(x !== 0);
      values[v] = x;
      v += set;
      bits |= set << j;
    }
    mask[byte] = bits;
  }
  for (let i = whole; i < vector.length; i++) {
    const x = vector[i]!;
    if (x === 0) continue;
    const bit = base + i;
    mask[bit >> 3]! |= 1 << (bit & 7);
    values[v++] = x;
  }
  return v;
}

/** Every vector end to end, from either form. */
function denseRows(data: VectorSnapshotData): Int8Array {
  if (data.rows) return data.rows;
  const rows = new Int8Array(data.scales.length * data.dims);
  const { mask, values } = data;
  if (!mask || !values) throw new Error('vector snapshot: neither rows nor mask and values');
  // The mask 32 bits at a time where the platform's word order allows (a fresh worker runs this once, cold:
  // 12 ms instead of 17 at 10,000 assets in Node); the bytes past the last whole word one at a time.
  let v = 0;
  let byte = 0;
  if (LITTLE_ENDIAN) {
    const aligned = mask.byteOffset % 4 === 0 ? mask : mask.slice();
    const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
    for (let w = 0; w < words.length; w++) {
      let bits = words[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        rows[(w << 5) + 31 - Math.clz32(low)] = values[v++]!;
        bits ^= low;
      }
    }
    byte = words.length << 2;
  }
  for (; byte < mask.length; byte++) {
    let bits = mask[byte]!;
    while (bits !== 0) {
      const low = bits & -bits;
      rows[(byte << 3) + 31 - Math.clz32(low)] = values[v++]!;
      bits ^= low;
    }
  }
  return rows;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The records a snapshot holds, and the matrix of their vectors. Both are over the snapshot's one buffer
 * (no copy; making the matrix anew took 40 ms at 10,000 assets, a worker's first relevance call): the
 * records' vectors are views into it, read, never stored again (a stored view would carry the whole buffer).
 */
export function restoreVectorSnapshot(data: VectorSnapshotData): { records: SnippetRecord[]; matrix: VectorMatrix } {
  const records: SnippetRecord[] = [];
  const rows = denseRows(data);
  const assets: string[] = new Array(data.scales.length);
  let row = 0;
  data.ids.forEach((id, i) => {
    const snippets: SnippetRecord['snippets'] = [];
    for (let k = 0; k < data.counts[i]!; k++, row++) {
      snippets.push({
        format: data.formats[row]!,
        start: data.starts[row]!,
        end: data.ends[row]!,
        vector: rows.subarray(row * data.dims, (row + 1) * data.dims),
        scale: data.scales[row]!,
      });
      assets[row] = id;
    }
    const record: SnippetRecord = { id, updated: data.updated[i]!, embedder: data.embedder, snippets };
    if (data.keys[i]) record.key = data.keys[i];
    records.push(record);
  });
  return { records, matrix: VectorMatrix.over(data.dims, rows, data.scales, assets) };
}
