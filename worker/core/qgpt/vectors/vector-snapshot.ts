/**
 * The vector index's snapshot: every snippet vector of the library in one record of the `indexes`
 * collection, so a worker that starts reads one large buffer instead of one record per asset (reading the
 * `snippets` collection whole, 10,000 records each holding a typed array, took about five times as long in
 * Chromium as one 10 MB buffer). Derived from the `snippets` records, which stay the truth: a snapshot
 * names the seq it was taken at, and whatever changed after it is read from those records.
 */
import type { IndexRecord, SnippetRecord } from '../../store/records.ts';

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
  rows: Int8Array;
}

export interface VectorSnapshot extends IndexRecord {
  data: VectorSnapshotData;
}

/** The snapshot of `records` (all of one embedder, vectors `dims` long) as applied up to `seq`. */
export function takeVectorSnapshot(records: Iterable<SnippetRecord>, args: { embedder: string; seq: number; version: number; saved: string }): VectorSnapshot {
  const list = [...records];
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
    rows: new Int8Array(total * dims),
  };
  let row = 0;
  for (const record of list) {
    for (const s of record.snippets) {
      data.formats[row] = s.format;
      data.starts[row] = s.start;
      data.ends[row] = s.end;
      data.scales[row] = s.scale;
      data.rows.set(s.vector, row * dims);
      row++;
    }
  }
  return { id: VECTOR_SNAPSHOT_ID, version: args.version, seq: args.seq, saved: args.saved, data };
}

/**
 * The records a snapshot holds. Their vectors are views into the snapshot's one buffer (no copy): they are
 * read, never stored again (a stored view would carry the whole buffer).
 */
export function snapshotRecords(data: VectorSnapshotData): SnippetRecord[] {
  const records: SnippetRecord[] = [];
  let row = 0;
  data.ids.forEach((id, i) => {
    const snippets: SnippetRecord['snippets'] = [];
    for (let k = 0; k < data.counts[i]!; k++, row++) {
      snippets.push({
        format: data.formats[row]!,
        start: data.starts[row]!,
        end: data.ends[row]!,
        vector: data.rows.subarray(row * data.dims, (row + 1) * data.dims),
        scale: data.scales[row]!,
      });
    }
    records.push({ id, updated: data.updated[i]!, ...(data.keys[i] ? { key: data.keys[i] } : {}), embedder: data.embedder, snippets });
  });
  return records;
}
