/**
 * How the library's vectors are stored: a base and the chunks written after it (docs/performance.md,
 * "What the import is bound by").
 *
 * - The base is the snapshot (vector-snapshot.ts), or, when there is no usable one, the per-asset records of
 *   the `snippets` collection (written by versions before chunks, and by a backup restore).
 * - Every save of the vector index writes one chunk: the records it made or took in, in the snapshot's
 *   columnar form, and the ids it forgot. One put for a thousand assets instead of one put each: in
 *   Chromium a put costs about the same up to tens of kilobytes, so the per-asset records were about a
 *   fifth of an import's puts.
 * - Each chunk names the chunk (or base) its writer's vectors were at before it (`after`), so the chunks
 *   form a chain from the base, and the vectors at a chunk are exactly its writer's at that save. A load
 *   follows the chain from its base; a chunk off the chain (another context's, written from a point that
 *   is gone) is left out, and deleted by the next snapshot, which also deletes the chunks it covers.
 */
import type { IndexRecord, SnippetRecord } from '../../store/records.ts';
import type { ReadTx } from '../../store/store.ts';
import { changeKey } from '../../feed/commit.ts';
import { finish } from '../../timers.ts';
import { restoreVectorSnapshot, vectorSnapshotSteps, type VectorSnapshotData } from './vector-snapshot.ts';

/** Chunk ids: the prefix, the seq (zero-padded, so that they sort by it) and a unique part. */
export const CHUNK_PREFIX = 'vectors~';
/** The chain position of the base made of the `snippets` collection's records. */
export const RECORDS_BASE = 'records';
/** Chunks read per request while loading (each may hold thousands of assets' vectors). */
const READ_BATCH = 64;

export interface VectorChunkData extends VectorSnapshotData {
  /** The chunk (or base) the writer's vectors were at before this one. */
  after: string;
  /** Assets whose vectors this save forgot. */
  gone: string[];
  /** Whether the writer still had to compare the whole library after this save (a reconcile under way). */
  reconcile: boolean;
}

export interface VectorChunk extends IndexRecord {
  data: VectorChunkData;
}

export interface ChunkArgs {
  after: string;
  /** The seq the writer's vectors are at after this save. */
  seq: number;
  version: number;
  saved: string;
  embedder: string;
  reconcile: boolean;
  /** Makes the id unique among chunks of the same seq (another context's). */
  unique: string;
}

/** One save's chunk: `records` (of `args.embedder`) stored, `gone` forgotten. */
export function vectorChunk(records: readonly SnippetRecord[], gone: readonly string[], args: ChunkArgs): VectorChunk {
  const { data } = finish(vectorSnapshotSteps(records, args));
  return {
    id: `${CHUNK_PREFIX}${changeKey(args.seq)}~${args.unique}`,
    version: args.version,
    seq: args.seq,
    saved: args.saved,
    data: { ...data, after: args.after, gone: [...gone], reconcile: args.reconcile },
  };
}

/** Every stored chunk, in id order (so by seq). */
export async function readChunks(tx: ReadTx): Promise<VectorChunk[]> {
  const chunks: VectorChunk[] = [];
  let after = CHUNK_PREFIX;
  for (;;) {
    const batch = await tx.getRange('indexes', after, READ_BATCH);
    const own = batch.filter((r) => r.id.startsWith(CHUNK_PREFIX)) as VectorChunk[];
    chunks.push(...own);
    if (own.length < READ_BATCH) return chunks;
    after = own[own.length - 1]!.id;
  }
}

/**
 * The chunks that follow `head`, in order, and those that do not (`strays`). Only chunks of this version
 * and embedder are followed; where two follow the same point (two contexts saved from it), the one that
 * reaches further is taken: each is exact from that point.
 */
export function chainFrom(head: string, chunks: readonly VectorChunk[], embedder: string, version: number): { chain: VectorChunk[]; strays: VectorChunk[] } {
  const next = new Map<string, VectorChunk>();
  for (const chunk of chunks) {
    if (chunk.version !== version || chunk.data.embedder !== embedder) continue;
    const other = next.get(chunk.data.after);
    if (!other || chunk.seq > other.seq || (chunk.seq === other.seq && chunk.id > other.id)) next.set(chunk.data.after, chunk);
  }
  const chain: VectorChunk[] = [];
  for (let chunk = next.get(head); chunk; chunk = next.get(chunk.id)) chain.push(chunk);
  const on = new Set(chain.map((c) => c.id));
  return { chain, strays: chunks.filter((c) => !on.has(c.id)) };
}

/** Applies a chunk to vectors held by asset id. */
export function applyChunk(entries: Map<string, SnippetRecord>, chunk: VectorChunk): void {
  for (const record of restoreVectorSnapshot(chunk.data).records) entries.set(record.id, record);
  for (const id of chunk.data.gone) entries.delete(id);
}
