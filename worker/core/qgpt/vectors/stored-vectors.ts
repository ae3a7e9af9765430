/**
 * Reading the library's vectors as stored (vector-chunks.ts): the base, the snapshot when there is one of
 * this version and embedder, else the `snippets` records; then the chunks that follow it. What the vector
 * index loads at its start, and what tests and checks ask for "the stored vectors".
 */
import type { SnippetRecord } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';
import { applyChunk, chainFrom, readChunks, RECORDS_BASE, type VectorChunk } from './vector-chunks.ts';
import { restoreVectorSnapshot, VECTOR_SNAPSHOT_ID, type VectorSnapshot } from './vector-snapshot.ts';
import type { VectorMatrix } from './vector-matrix.ts';

/** Bump when snippet splitting or what is embedded changes: stored vectors are then redone. */
export const VECTORS_VERSION = 2;
/** The seq and embedder of the `snippets` records, as versions before chunks kept them (read, no longer written). */
export const VECTORS_STATE_ID = 'vectors';

/** The vectors' stored snapshot (may be missing) and chunks, read together. */
export interface StoredVectors {
  snapshot: VectorSnapshot | undefined;
  chunks: VectorChunk[];
}

export function readStoredVectors(store: Store): Promise<StoredVectors> {
  return store.read(
    async (tx) => {
      const [snapshot, chunks] = await Promise.all([tx.get('indexes', VECTOR_SNAPSHOT_ID) as Promise<VectorSnapshot | undefined>, readChunks(tx)]);
      return { snapshot, chunks };
    },
    ['indexes'],
  );
}

/** The vectors of one embedder as loaded, and where they stand. */
export interface LoadedVectors {
  entries: Map<string, SnippetRecord>;
  /** The matrix over the snapshot's buffer, when nothing followed it. */
  matrix: VectorMatrix | undefined;
  /** The seq they are at: every change up to it is in them (unless `reconcile`). */
  seq: number;
  /** The seq of the snapshot loaded, undefined when none was. */
  snapshotSeq: number | undefined;
  /** Their chain position: the last chunk, or the base. */
  head: string;
  /** The chunks on the chain after the base. */
  chain: string[];
  /** The chunks off the chain. */
  strays: string[];
  /** Records of the `snippets` collection not in `entries` (another embedder or version). */
  stale: Set<string>;
  /** Every id with a record in the `snippets` collection, as read. */
  legacy: Set<string>;
  /** Whether the `snippets` records may be of this version. */
  storedVersionOk: boolean;
  /** Whether the whole library must be compared with them (what changed since is not known). */
  reconcile: boolean;
}

/** The stored vectors of `embedder`; `stored`: the snapshot and chunks already read. */
export async function loadVectors(store: Store, embedder: string, stored: StoredVectors): Promise<LoadedVectors> {
  const { snapshot, chunks } = stored;
  const loaded =
    snapshot?.version === VECTORS_VERSION && snapshot.data.embedder === embedder ? fromSnapshot(snapshot) : await fromRecords(store, embedder);
  const { chain, strays } = chainFrom(loaded.head, chunks, embedder, VECTORS_VERSION);
  for (const chunk of chain) applyChunk(loaded.entries, chunk);
  const last = chain[chain.length - 1];
  if (last) Object.assign(loaded, { matrix: undefined, head: last.id, seq: last.seq, reconcile: last.data.reconcile });
  return { ...loaded, chain: chain.map((c) => c.id), strays: strays.map((c) => c.id) };
}

type Base = Omit<LoadedVectors, 'chain' | 'strays'>;

function fromSnapshot(snapshot: VectorSnapshot): Base {
  const { records, matrix } = restoreVectorSnapshot(snapshot.data);
  return {
    entries: new Map(records.map((r) => [r.id, r])),
    matrix,
    seq: snapshot.seq,
    snapshotSeq: snapshot.seq,
    // A snapshot from before chunks: no chunk follows it, but the loader's next ones will.
    head: snapshot.data.head ?? `${VECTOR_SNAPSHOT_ID}@${snapshot.seq}`,
    stale: new Set(),
    legacy: new Set(),
    storedVersionOk: true,
    reconcile: false,
  };
}

async function fromRecords(store: Store, embedder: string): Promise<Base> {
  const [records, state] = await store.read((tx) => Promise.all([tx.getAll('snippets'), tx.get('indexes', VECTORS_STATE_ID)]), ['snippets', 'indexes']);
  // Records of another embedder, or of another format version (splitting, storage), are all redone. A
  // missing state means which changes they hold is not known.
  const usable = state?.version === VECTORS_VERSION && (state.data as { embedder?: string } | undefined)?.embedder === embedder;
  const entries = new Map(usable ? records.filter((r) => r.embedder === embedder).map((r) => [r.id, r]) : []);
  const stale = new Set(records.filter((r) => !entries.has(r.id)).map((r) => r.id));
  return {
    entries,
    matrix: undefined,
    seq: usable ? state!.seq : 0,
    snapshotSeq: undefined,
    head: RECORDS_BASE,
    stale,
    legacy: new Set(records.map((r) => r.id)),
    // No state at all: a library whose vectors came from a backup restore (which writes only vectors of
    // this version), or none yet.
    storedVersionOk: state === undefined || state.version === VECTORS_VERSION,
    reconcile: stale.size > 0 || !usable,
  };
}

/** What a start with `embedder` finds stored, by asset id (tests and checks; no catching up). */
export async function storedVectorsOf(store: Store, embedder: string): Promise<Map<string, SnippetRecord>> {
  return (await loadVectors(store, embedder, await readStoredVectors(store))).entries;
}
