/**
 * The library's snippets and their vectors, kept in step with the assets (design decision 8).
 *
 * - Each asset's text is split into snippets (snippets.ts) and every snippet embedded by the active
 *   embedder, giving one SnippetRecord per asset. Each save stores the records it made as one chunk
 *   (vector-chunks.ts), in its own transaction after the assets' writes committed (an asset write never
 *   waits for embedding).
 * - `current()` answers with every committed asset embedded: it applies the change-log entries after the
 *   seq it last saved (its last chunk's), embedding what is still pending, so a relevance
 *   call never misses a committed asset, even one written just before the worker stopped. When the log no
 *   longer reaches back, or the active embedder differs from the one that made the stored vectors, it
 *   reconciles the whole library instead (re-embedding everything after an embedder change).
 * - While loaded it follows the feed, so writes are embedded in the background soon after they commit;
 *   after `follow()` (the hosts call it at start) it does so before any relevance call loaded it, so the
 *   first relevance call after an import finds the library embedded.
 *   Only a change to what is embedded (the text formats and the name) is embedded again: each record keeps
 *   a `contentKey`, so a score increment, an export or a tag link (which log the asset as updated) costs
 *   a read of its text, not an embedding.
 * - `progress` says how far an embedding run is (`GET /api/embeddings` shows it).
 * - A moment after the vectors change, every vector is saved as one snapshot (vector-snapshot.ts), which
 *   replaces the chunks before it. The next worker loads the snapshot and the chunks after it, then catches
 *   up from the last one's seq.
 */
import type { ServiceContext } from '../../deps.ts';
import { changesSince, loggedChanges, readSeq } from '../../feed/commit.ts';
import type { ChangeEvent } from '../../feed/feed.ts';
import { beganEmpty } from '../../assets/half-deleted.ts';
import { contentText, type DocumentParts } from '../../search/documents.ts';
import type { ClassificationSpecificEnum } from '../../model/schemas.ts';
import type { AssetRecord, SnippetRecord } from '../../store/records.ts';
import type { ReadTx } from '../../store/store.ts';
import { embedTagged } from '../../embed/embedder.ts';
import { fnv1a } from '../../embed/hashing.ts';
import { splitSnippets } from './snippets.ts';
import { quantize, VectorMatrix } from './vector-matrix.ts';
import { vectorSnapshotSteps } from './vector-snapshot.ts';
import { RECORDS_BASE, vectorChunk } from './vector-chunks.ts';
import { loadVectors, readStoredVectors, VECTORS_VERSION, type StoredVectors } from './stored-vectors.ts';
import { BACKGROUND_SLICE_MS, finishInSlices, unref } from '../../timers.ts';
import { NEVER_SAVED, snapshotWait, type LastSave } from '../../snapshot-pacing.ts';
import { exclusive } from '../../exclusive.ts';

/** Assets read, embedded and written per transaction. */
const CHUNK = 1000;
/** The same for assets handed over by this context's commits, which are not read. */
const HANDED_CHUNK = 5000;
const SYNC_DELAY_MS = 300;
/** Quiet time after the vectors last changed before the snapshot is written (10 MB at 10,000 assets). */
const SNAPSHOT_DELAY_MS = 2000;
/** Changes not in the snapshot from which it is saved sooner (snapshot-pacing.ts). */
const EAGER_SAVE_CHANGES = 1000;

export interface EmbeddingProgress {
  /** The embedder whose vectors are (being) stored. */
  embedder: string;
  /** Assets with current vectors. */
  embedded: number;
  /** Assets waiting to be embedded by the run in progress (0 when idle). */
  pending: number;
  /** Snippets with current vectors. */
  snippets: number;
  running: boolean;
}

/** The library's vectors (VectorIndex.current). */
export interface LibraryVectors {
  entries: ReadonlyMap<string, SnippetRecord>;
  matrix: VectorMatrix;
  /** The embedder that made them. */
  embedder: string;
}

/** One asset's text as the vectors see it: each text format's content, original first. */
export interface AssetText {
  asset: AssetRecord;
  texts: { format: string; text: string; code: boolean; specific: ClassificationSpecificEnum }[];
}

export class VectorIndex {
  private entries = new Map<string, SnippetRecord>();
  /** Every snippet vector in one matrix, for scanning; made again after a change. */
  private matrix: VectorMatrix | undefined;
  /** What the last snapshot's save cost, which spaces the next (snapshot-pacing.ts). */
  private lastSave: LastSave = NEVER_SAVED;
  /** Counts the changes that dropped the matrix (one made in slices meanwhile is not kept). */
  private matrixEpoch = 0;
  private embedderId = '';
  private seq = 0;
  private loaded = false;
  private reconcile = false;
  /** Whether stored records may be of this VECTORS_VERSION (false when the state says another). */
  private storedVersionOk = false;
  /** Stored records not in `entries` (another embedder or format): replaced, or deleted with their asset. */
  private stale = new Set<string>();
  private pending = 0;
  private running = false;
  /** Load, catch-up and save never interleave. */
  private readonly exclusive = exclusive();
  /** One snapshot saved at a time: a later one must not be overwritten by an earlier one that took longer. */
  private readonly saving = exclusive();
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined;
  private following = false;
  /** The seq of the snapshot stored (loaded or written), -1 when none is known. */
  private snapshotSeq = -1;
  /** The chain position of `entries` (vector-chunks.ts): the last chunk saved or loaded, or the base. */
  private head = RECORDS_BASE;
  /** The chunks on the chain since the stored snapshot, which the next snapshot covers and deletes. */
  private chain: string[] = [];
  /** The chunks off the chain seen at the load, deleted by the next snapshot. */
  private strays: string[] = [];
  /** Ids known to have a record in the `snippets` collection: deleted when this index takes them in or forgets them. */
  private legacy = new Set<string>();

  constructor(private ctx: ServiceContext) {
    ctx.feed.subscribe(() => {
      if (this.loaded || this.following) this.scheduleSync();
    });
  }

  /** From now on, every committed change is embedded in the background, loaded or not. */
  follow(): void {
    this.following = true;
  }

  /** Every committed asset's snippet vectors: by asset id, as one matrix to scan, and whose they are. */
  async current(): Promise<LibraryVectors> {
    const embedder = await this.sync();
    return { entries: this.entries, matrix: this.currentMatrix(), embedder };
  }

  private currentMatrix(): VectorMatrix {
    return (this.matrix ??= VectorMatrix.of(this.entries.values()));
  }

  /**
   * Makes the matrix in slices, between other work (at 100,000 assets, made at once, it held the thread
   * for about 0.3 s after every edit); kept unless the vectors changed meanwhile. A relevance call that
   * comes first makes it at once.
   */
  private async prepareMatrix(): Promise<void> {
    if (this.matrix) return;
    const epoch = this.matrixEpoch;
    const matrix = await finishInSlices(VectorMatrix.steps([...this.entries.values()]), BACKGROUND_SLICE_MS);
    if (this.matrix === undefined && this.matrixEpoch === epoch) this.matrix = matrix;
  }

  /** The vectors changed: the matrix is made again when next needed. */
  private dropMatrix(): void {
    this.matrix = undefined;
    this.matrixEpoch++;
  }

  /** Embeds every committed change not embedded yet; answers the active embedder's id. */
  private async sync(): Promise<string> {
    const embedder = await this.exclusive(async () => {
      // A first load reads the stored vectors while the embedder is chosen, not after: the choice probes
      // the origin for model files (a round trip to it at every worker start), the read is megabytes.
      let stored = this.loaded ? undefined : readStoredVectors(this.ctx.store);
      stored?.catch(() => undefined); // a failed read is made again by load()
      await this.ctx.embedder.ready?.();
      // A second round when the active embedder changed while catching up (an endpoint failed): the
      // vectors are then those of the one that answers now.
      for (let round = 0; round < 2; round++) {
        if (!this.loaded || this.embedderId !== this.ctx.embedder.id) await this.load(stored);
        stored = undefined;
        if (await this.catchUp()) break;
      }
      return this.embedderId;
    });
    if (this.snapshotBehind) this.scheduleSnapshot();
    return embedder;
  }

  /** Whether the stored snapshot is older than the vectors (chunks were saved after it). */
  private get snapshotBehind(): boolean {
    return this.snapshotSeq !== this.seq || this.chain.length > 0;
  }

  get progress(): EmbeddingProgress {
    let snippets = 0;
    for (const entry of this.entries.values()) snippets += entry.snippets.length;
    return { embedder: this.embedderId, embedded: this.entries.size, pending: this.pending, snippets, running: this.running };
  }

  /**
   * At most one sync waits, and a new change does not push it back: an import commits more often than
   * the delay, and a sync pushed back by every commit ran only once it ended, leaving the whole import to
   * embed in the first relevance call (6.9 s at 10,000 assets).
   */
  private scheduleSync() {
    if (this.syncTimer !== undefined) return;
    this.syncTimer = unref(
      setTimeout(() => {
        this.syncTimer = undefined;
        void this.sync()
          .then(() => {
            // The matrix (a copy of every vector) is made again once the writes stop, ready for the next
            // relevance call; during an import it was made after every sync (20 MB each at 20,000 assets).
            if (!this.ctx.heard.writing) return this.prepareMatrix();
          })
          .catch((error) => {
            if (!this.ctx.store.closed) console.error('vectors: background sync failed', error);
          });
      }, SYNC_DELAY_MS),
    );
  }

  /** Writes the snapshot now if the vectors changed since the last one (tests). */
  saveSnapshot(): Promise<void> {
    clearTimeout(this.snapshotTimer);
    return this.saving(async () => {
      // The records as they are, taken between two queued operations (so they and the seq agree); the
      // snapshot is made of them afterwards in slices, while other work goes on (at 100,000 assets it held
      // the thread for about 0.9 s).
      const taken = await this.exclusive(async () => {
        // Only a complete picture: every stored record of this embedder is in `entries`.
        if (!this.loaded || this.reconcile || this.stale.size > 0 || !this.snapshotBehind) return undefined;
        const args = { embedder: this.embedderId, seq: this.seq, version: VECTORS_VERSION, saved: this.ctx.now().toISOString() };
        return { steps: vectorSnapshotSteps([...this.entries.values()], args), head: this.head, covered: new Set([...this.chain, ...this.strays]) };
      });
      if (!taken) return;
      const t0 = performance.now();
      const record = await finishInSlices(taken.steps, BACKGROUND_SLICE_MS);
      record.data.head = taken.head;
      // The chunks it covers go in the same transaction: a load finds either them or the snapshot.
      await this.ctx.store.write((tx) => Promise.all([tx.put('indexes', record), ...[...taken.covered].map((id) => tx.delete('indexes', id))]), ['indexes']);
      this.snapshotSeq = record.seq;
      // Chunks saved while it was made follow it: their chain starts at its head.
      this.chain = this.chain.filter((id) => !taken.covered.has(id));
      this.strays = this.strays.filter((id) => !taken.covered.has(id));
      this.lastSave = { ms: performance.now() - t0, end: performance.now() };
    });
  }

  /**
   * The snapshot once the vectors have been quiet for SNAPSHOT_DELAY_MS: not while they catch up, a sync
   * is due, or a write of this context is under way. The delay alone was measured from the end of a
   * catch-up, and during an import a catch-up takes longer than it: at 90,000 assets a 45 MB snapshot was
   * taken after nearly every one, each 147-160 s from its start to its commit, while the first search after
   * the import waited on the worker (a debug build's log). A snapshot only speeds up a worker's start: it
   * is also spaced after the previous save by that save's cost (snapshot-pacing.ts), so an edit at 100,000
   * assets does not write 45 MB every time.
   */
  private scheduleSnapshot() {
    clearTimeout(this.snapshotTimer);
    const wait = snapshotWait(SNAPSHOT_DELAY_MS, this.lastSave, this.seq - this.snapshotSeq >= EAGER_SAVE_CHANGES);
    this.snapshotTimer = unref(
      setTimeout(() => {
        if (this.running || this.syncTimer !== undefined || this.ctx.heard.writing) return this.scheduleSnapshot();
        void this.saveSnapshot().catch((error) => {
          if (!this.ctx.store.closed) console.warn(`vectors: could not save the snapshot (${String(error)})`);
        });
      }, wait),
    );
  }

  /**
   * The stored vectors (stored-vectors.ts); `catchUp` then applies what changed after them (comparing the
   * whole library when the change log no longer reaches back). `stored`: the snapshot and chunks already
   * asked for (read again if that read failed).
   */
  private async load(stored?: Promise<StoredVectors>): Promise<void> {
    this.embedderId = this.ctx.embedder.id;
    this.entries.clear();
    this.dropMatrix();
    const read = () => readStoredVectors(this.ctx.store);
    const loaded = await loadVectors(this.ctx.store, this.embedderId, await (stored ?? read()).catch(read));
    this.entries = loaded.entries;
    this.matrix = loaded.matrix;
    this.seq = loaded.seq;
    if (loaded.snapshotSeq !== undefined) this.snapshotSeq = loaded.snapshotSeq;
    this.head = loaded.head;
    this.chain = loaded.chain;
    this.strays = loaded.strays;
    this.stale = loaded.stale;
    this.legacy = loaded.legacy;
    this.storedVersionOk = loaded.storedVersionOk;
    this.reconcile = loaded.reconcile;
    this.loaded = true;
  }

  /** Applies the changes since the saved seq; false when the active embedder changed midway (nothing more saved). */
  private async catchUp(): Promise<boolean> {
    const todo = new Set<string>();
    const gone = new Set<string>();
    let seq: number;
    /** Each changed asset's latest change: what this context wrote at that change is not read back. */
    const latest = new Map<string, number>();
    const changes = this.reconcile ? this.heardFromTheStart() : await changesSince(this.ctx, this.seq);
    if (changes === undefined) {
      // Compare every asset with its vectors (by `updated`). The change log, read in the same transaction,
      // holds every change after its oldest entry: an asset whose latest entry there this context wrote
      // has not changed since, so what it wrote stands for the asset (a first import into a new library).
      const { assets, last, log } = await this.ctx.store.read(
        async (tx) => ({ assets: await tx.getAll('assets'), last: await readSeq(tx), log: await tx.getAll('changes') }),
        ['assets', 'meta', 'changes'],
      );
      seq = last;
      for (const change of loggedChanges(log)) if ((latest.get(change.asset) ?? -1) < change.seq) latest.set(change.asset, change.seq);
      const ids = new Set(assets.map((a) => a.id));
      for (const asset of assets) if (this.entries.get(asset.id)?.updated !== asset.updated) todo.add(asset.id);
      for (const id of [...this.entries.keys(), ...this.stale]) if (!ids.has(id)) gone.add(id);
    } else {
      if (changes.length === 0) return true;
      seq = changes[changes.length - 1]!.seq;
      for (const change of changes) {
        latest.set(change.asset, change.seq);
        if (change.kind === 'deleted') {
          todo.delete(change.asset);
          gone.add(change.asset);
        } else {
          gone.delete(change.asset);
          todo.add(change.asset);
        }
      }
    }
    if (!(await this.apply([...todo], [...gone], seq, latest))) return false;
    this.reconcile = false;
    return true;
  }

  /**
   * The changes to apply instead of a reconcile, when there is nothing stored to compare with and this
   * context heard every change of a library that began empty, while a write of its own is under way: the
   * reconcile's read of every asset and of the change log waited behind that write (a first import into an
   * empty library, 3-4 s in Chromium before the vectors began to follow it).
   */
  private heardFromTheStart(): ChangeEvent[] | undefined {
    if (this.entries.size > 0 || this.stale.size > 0 || this.seq !== 0) return undefined;
    if (!this.ctx.heard.writing || !beganEmpty(this.ctx.store)) return undefined;
    return this.ctx.heard.fromTheStart();
  }

  /**
   * Embeds `todo`, forgets `gone`, and records `seq` as applied, chunk by chunk; stops (false) when the
   * vectors came from another embedder than this index's (the active one changed).
   */
  private async apply(todo: string[], gone: string[], seq: number, latest: ReadonlyMap<string, number>): Promise<boolean> {
    this.running = true;
    this.pending = todo.length;
    try {
      if (todo.length === 0) {
        await this.save([], gone, seq, [], true);
        return true;
      }
      // What this context wrote is not read back (feed/written.ts): those assets go in larger chunks, as a
      // chunk's save waits behind whatever write transactions came first (an import's, while it runs).
      const all = this.ctx.written.split(todo, latest);
      const chunks = [
        ...slices(all.written, HANDED_CHUNK).map((written) => ({ written, unread: [] as string[] })),
        ...slices(all.unread, CHUNK).map((unread) => ({ written: [] as DocumentParts[], unread })),
      ];
      let done = 0;
      for (const [i, { written, unread }] of chunks.entries()) {
        const ids = [...written.map((p) => p.asset.id), ...unread];
        // An asset this context created has no stored vectors yet: only the others are read.
        const [read, stored] =
          unread.length === 0
            ? [[], []]
            : await this.ctx.store.read(
                (tx) => Promise.all([readAssetTexts(tx, unread), tx.getMany('snippets', unread)]),
                ['assets', 'formats', 'contents', 'snippets'],
              );
        const texts = [...written.map(assetText), ...read];
        const found = new Set(texts.map((t) => t.asset.id));
        // Vectors already made from the asset's text as it is now are kept: those in memory (a score,
        // export or link logs the asset as updated but changes no text), and those stored by this embedder
        // that are not in memory yet (a backup restore brought them in). Embedding again would give the same.
        const storedById = new Map(stored.map((r) => [r.id, r]));
        for (const id of storedById.keys()) this.legacy.add(id);
        const current = (t: AssetText): SnippetRecord | undefined => {
          const entry = this.entries.get(t.asset.id);
          if (entry && madeFrom(entry, t)) return entry;
          const record = storedById.get(t.asset.id);
          return this.storedVersionOk && record?.embedder === this.embedderId && madeFrom(record, t) ? record : undefined;
        };
        const reused = texts.flatMap((t) => {
          const record = current(t);
          return record && record !== this.entries.get(t.asset.id) ? [record] : [];
        });
        const changed = texts.filter((t) => !current(t));
        const { embedder, records } = changed.length === 0 ? { embedder: this.embedderId, records: [] } : await embedAssets(this.ctx, changed);
        if (embedder !== this.embedderId) return false;
        const last = i === chunks.length - 1;
        // Assets deleted since the change was logged have no text: their vectors go too.
        await this.save(records, [...(i === 0 ? gone : []), ...ids.filter((id) => !found.has(id))], last ? seq : this.seq, reused, last);
        done += ids.length;
        this.pending = todo.length - done;
      }
      return true;
    } finally {
      this.running = false;
      this.pending = 0;
    }
  }

  /**
   * Stores `records` and `reused` (those not in `entries` yet: taken in from the `snippets` collection) as
   * one chunk, forgets `gone`, records `seq`. `final`: the last save of a catch-up, after which a reconcile
   * under way is done.
   */
  private async save(records: SnippetRecord[], gone: string[], seq: number, reused: SnippetRecord[], final: boolean): Promise<void> {
    const taken = [...records, ...reused];
    const chunk = vectorChunk(taken, gone, {
      after: this.head,
      seq,
      version: VECTORS_VERSION,
      saved: this.ctx.now().toISOString(),
      embedder: this.embedderId,
      reconcile: this.reconcile && !final,
      unique: this.ctx.newId(),
    });
    // The chunk stands for those assets now: their `snippets` records (a restore's, an older version's) go.
    const superseded = [...taken.map((r) => r.id).filter((id) => this.legacy.has(id) || this.stale.has(id)), ...gone];
    await this.ctx.store.write(async (tx) => {
      await Promise.all([tx.put('indexes', chunk), ...superseded.map((id) => tx.delete('snippets', id))]);
    }, ['snippets', 'indexes']);
    for (const r of taken) this.entries.set(r.id, r);
    for (const id of gone) this.entries.delete(id);
    for (const id of [...superseded, ...taken.map((r) => r.id)]) {
      this.stale.delete(id);
      this.legacy.delete(id);
    }
    if (taken.length > 0 || gone.length > 0) this.dropMatrix();
    this.head = chunk.id;
    this.chain.push(chunk.id);
    this.seq = seq;
  }
}

/** The text formats of some assets (those that still exist), original format first, duplicates dropped. */
export async function readAssetTexts(tx: ReadTx, ids: readonly string[]): Promise<AssetText[]> {
  const assets = await tx.getMany('assets', ids);
  return Promise.all(
    assets.map(async (asset) => {
      const [formats, contents] = await Promise.all([tx.getMany('formats', asset.formats), tx.getMany('contents', asset.formats)]);
      return assetText({ asset, formats, contents });
    }),
  );
}

/** An asset's text formats from its records, original format first, duplicates dropped. */
export function assetText({ asset, formats, contents }: Pick<DocumentParts, 'asset' | 'formats' | 'contents'>): AssetText {
  const byId = new Map(formats.map((f) => [f.id, f]));
  const content = new Map(contents.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const texts: AssetText['texts'] = [];
  for (const id of [asset.original, ...asset.formats.filter((f) => f !== asset.original)]) {
    const format = byId.get(id);
    const text = format && contentText(content.get(id));
    if (!format || text === undefined || text.trim() === '' || seen.has(text)) continue;
    seen.add(text);
    texts.push({ format: format.id, text, code: format.classification.generic === 'CODE', specific: format.classification.specific });
  }
  return { asset, texts };
}

/**
 * What is embedded for a snippet: its text, preceded by the asset's name when the text does not contain
 * it (a name like "Parse YAML config" carries meaning the code may not spell out).
 */
export function embeddingText(name: string | undefined, text: string): string {
  return name && !text.includes(name) ? `${name}\n${text}` : text;
}

/**
 * A key of what an asset's vectors are made from: its name (see `embeddingText`) and its text formats.
 * Two FNV-1a hashes and the length: a change detector for the asset's own content, not a digest against
 * crafted collisions (a collision would only leave the asset's own vectors stale).
 */
export function contentKey(item: AssetText): string {
  const made = JSON.stringify([item.asset.name ?? null, item.texts.map((t) => [t.format, t.code, t.text])]);
  return `${made.length.toString(36)}.${fnv1a(made).toString(36)}.${fnv1a(made, 0x2f6b3c1d).toString(36)}`;
}

/**
 * Whether an asset's stored vectors were made from the text read now (their offsets point into it).
 * A record without a key is checked by the asset's `updated`, as before keys existed.
 */
export function madeFrom(entry: SnippetRecord, text: AssetText): boolean {
  return entry.key === undefined ? entry.updated === text.asset.updated : entry.key === contentKey(text);
}

async function embedAssets(ctx: ServiceContext, items: AssetText[]): Promise<{ embedder: string; records: SnippetRecord[] }> {
  const pieces: { item: number; format: string; start: number; end: number; text: string }[] = [];
  items.forEach((item, i) => {
    for (const { format, text, code } of item.texts) {
      for (const span of splitSnippets(text, code)) {
        pieces.push({ item: i, format, ...span, text: embeddingText(item.asset.name, text.slice(span.start, span.end)) });
      }
    }
  });
  const { embedder, vectors } = await embedTagged(ctx.embedder, pieces.map((p) => p.text));
  const records: SnippetRecord[] = items.map((item) => ({
    id: item.asset.id,
    updated: item.asset.updated,
    key: contentKey(item),
    embedder,
    snippets: [],
  }));
  pieces.forEach((p, k) => records[p.item]!.snippets.push({ format: p.format, start: p.start, end: p.end, ...quantize(vectors[k]!) }));
  return { embedder, records };
}

/**
 * The library's vectors and a query's, made by one embedder. When the active embedder changes between the
 * two (a configured endpoint failed), the library's are brought over to the new one and the query embedded
 * again; `query` is undefined only if they still differ (the vector side then sits this call out).
 */
export async function libraryVectorsWithQuery(ctx: ServiceContext, text: string): Promise<LibraryVectors & { query: Float32Array | undefined }> {
  const index = vectorIndexFor(ctx);
  let [vectors, query] = await Promise.all([index.current(), embedTagged(ctx.embedder, [text])]);
  if (query.embedder !== vectors.embedder) [vectors, query] = await Promise.all([index.current(), embedTagged(ctx.embedder, [text])]);
  return { ...vectors, query: query.embedder === vectors.embedder ? query.vectors[0] : undefined };
}

const indexes = new WeakMap<object, WeakMap<object, VectorIndex>>();

/** The vector index of the context's store and embedder: one per pair, whichever layer asks first. */
export function vectorIndexFor(ctx: ServiceContext): VectorIndex {
  let byEmbedder = indexes.get(ctx.store);
  if (!byEmbedder) indexes.set(ctx.store, (byEmbedder = new WeakMap()));
  let index = byEmbedder.get(ctx.embedder);
  if (!index) byEmbedder.set(ctx.embedder, (index = new VectorIndex(ctx)));
  return index;
}

function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
