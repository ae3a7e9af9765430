import type { ServiceContext } from '../deps.ts';
import { changesSince, readSeq } from '../feed/commit.ts';
import type { Store } from '../store/store.ts';
import { DOCUMENT_SCOPE, DOC_META_CODEC, PSEUDO, WHOLE_LIBRARY_ASSETS, documentFields, readDocuments, readEveryDocument, searchDocument, type DocMeta, type SearchDocument } from './documents.ts';
import { TypoIndex } from './fuzzy.ts';
import { LexicalIndex } from './lexical/lexical-index.ts';
import { DEFAULT_BM25 } from './lexical/ranking.ts';
import type { LexicalSnapshot } from './lexical/snapshot.ts';
import { needsTypos } from './query.ts';
import { BACKGROUND_SLICE_MS, finishInSlices, timeSlices, unref } from '../timers.ts';
import { NEVER_SAVED, snapshotWait, type LastSave } from '../snapshot-pacing.ts';
import { exclusive } from '../exclusive.ts';

/**
 * The search index of one store, kept in step with the change log and saved as a snapshot.
 *
 * - `current()` answers with an index that includes every committed write: it first loads the index (from
 *   the snapshot, else by reading the whole library) and then applies the change-log entries after the
 *   index's seq, re-reading the assets they name. So a search never misses a write, even one committed
 *   just before the worker was stopped and never seen by the index.
 * - The snapshot (the compacted index and its seq) lives in the store's `indexes` collection. It is written
 *   in the background, a moment after the index changed, in a transaction of its own; a user's write never
 *   waits for it to be computed. It is ignored and rebuilt when missing, unreadable, of another format
 *   version, or older than the change log reaches back. Two parts are saved in records of their own, in
 *   the same transaction, and read only when needed, so that a worker's first plain query does without
 *   them: the documents' metadata (`search.meta`, a third of the size; filters, tags, related) and the
 *   typo index (`search.typos`; a query with a word the index does not know).
 * - While loaded, the index follows the feed: a burst of writes is applied in the background, so the next
 *   search finds little to catch up on and the snapshot stays fresh.
 * - Loading, catching up and taking the snapshot run one at a time.
 */
export interface SearchIndexOptions {
  /** Delay after the last change before the snapshot is written. Default 1.5 s. */
  snapshotDelayMs?: number;
  /** Delay after a feed event before the index catches up in the background. Default 300 ms. */
  syncDelayMs?: number;
  /** Set false to never write snapshots (tests). */
  persist?: boolean;
  /**
   * Changes not in the saved snapshot from which it is saved sooner (snapshot-pacing.ts's eager spacing;
   * see `changed`). Default 1,000.
   */
  eagerSaveChanges?: number;
  /** A library of at most this many assets is rebuilt from one read (tests set 0 for the batched read). Default 5,000. */
  wholeLibraryAssets?: number;
}

/** The snapshot's record id in the `indexes` collection, and its format version (bump on any change of layout or analysis). */
export const SNAPSHOT_ID = 'search';
export const SNAPSHOT_META_ID = 'search.meta';
export const SNAPSHOT_TYPOS_ID = 'search.typos';
export const SNAPSHOT_VERSION = 7;

/** After a rebuild the snapshot is saved this much later (see `rebuild`). */
const REBUILT_SAVE_DELAY_MS = 500;

export interface SearchSnapshot {
  id: string;
  version: number;
  seq: number;
  saved: string;
  /** Without `meta`: see SnapshotPart. */
  data: LexicalSnapshot;
}

/**
 * A part of the snapshot with the same `version`, `seq` and `saved`, in a record of its own: `search.meta`,
 * the documents' metadata (LexicalSnapshot.meta), and `search.typos`, the typo index (FlexSearch's export,
 * so that the first fuzzy query after a restart need not build it).
 */
export interface SnapshotPart<T> {
  id: string;
  version: number;
  seq: number;
  saved: string;
  data: T;
}
export type SearchMetaSnapshot = SnapshotPart<string[]>;
export type SearchTyposSnapshot = SnapshotPart<[string, string][]>;

/** What a caller of `current()` reads from the index. */
export interface CurrentOptions {
  /** The documents' metadata (`metaOf`, `meta`). Default true; a plain ranked query can do without. */
  meta?: boolean;
  /** The query the caller will analyse: the typo index is loaded (`TypoIndex.load`, the saved one) when it has a word the index does not know. */
  query?: string;
  /**
   * A background catch-up (the sync that follows writes): it yields to the event loop every
   * BACKGROUND_SLICE_MS, so the requests it shares the thread with (an import's next slice) are not held up.
   */
  background?: boolean;
}


/** Applying the change log in chunks bounds how many documents are held at once. */
const CATCH_UP_CHUNK = 500;
/** Documents applied between two looks at the clock. */
const APPLY_SLICE = 50;

export class SearchIndex {
  private lexical = new LexicalIndex<DocMeta>(DEFAULT_BM25, DOC_META_CODEC);
  readonly typos: TypoIndex;
  private seq = 0;
  private loaded = false;
  private following = false;
  /** Load, catch-up and taking a snapshot never interleave. */
  private readonly exclusive = exclusive();
  /** One save at a time: a later one must not be overwritten by an earlier one that took longer. */
  private readonly saving = exclusive();
  /**
   * Callers of `current()` that are not the background sync, waiting or under way. While there is one, a
   * background catch-up stops yielding: its turn is theirs. (After an import of 10,000, the first search
   * waited for a catch-up that yielded every 5 ms to the vectors' embedding: about 0.3 s of 1.2 s.)
   */
  private foreground = 0;
  private dirty = false;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending save is due, if later changes must not put it off (`changed`'s `firm`). */
  private firmSaveAt: number | undefined;
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly options: Required<SearchIndexOptions>;
  private lastSave: LastSave = NEVER_SAVED;
  /** The seq of the snapshot in the store (restored or saved by this index); -Infinity when there is none. */
  private savedSeq = -Infinity;
  /**
   * The last committed seq, read in the same transaction as the snapshot: when it is the snapshot's, the
   * catch-up that follows a load has nothing to read (one IndexedDB round trip less on a worker's start).
   */
  private loadedAt: number | undefined;
  /**
   * The snapshot the index was restored from, while a part of it is still to be read, with the vocabulary
   * its typo index was saved for.
   */
  private restored: { seq: number; saved: string; meta: boolean; typos: boolean; vocabulary: { generation: number; size: number } } | undefined;
  /** How the last load went, for diagnostics and tests. */
  lastLoad: { from: 'snapshot' | 'rebuild'; ms: number; documents: number } | undefined;

  constructor(
    private ctx: ServiceContext,
    options: SearchIndexOptions = {},
  ) {
    this.options = { snapshotDelayMs: 1500, syncDelayMs: 300, persist: true, eagerSaveChanges: 1000, wholeLibraryAssets: WHOLE_LIBRARY_ASSETS, ...options };
    this.typos = new TypoIndex(() => this.lexical, ctx.loadModule);
    ctx.feed.subscribe(() => {
      if (this.loaded || this.following) this.scheduleSync();
    });
  }

  /**
   * From now on, committed writes are indexed in the background, loaded or not: the first search after
   * an import finds the library indexed (and the snapshot saved soon after), instead of building the
   * index from the store then.
   */
  follow(): void {
    this.following = true;
  }

  /** The index with every committed write applied. `timing` receives the ms spent waiting for its turn, loading and catching up. */
  async current(timing?: { wait?: number; load?: number; catchUp?: number }, options: CurrentOptions = {}): Promise<LexicalIndex<DocMeta>> {
    const background = options.background === true;
    if (!background) this.foreground++;
    const asked = performance.now();
    try {
      await this.exclusive(() => {
        if (timing) timing.wait = performance.now() - asked;
        return this.bringUpToDate(timing, options);
      });
    } finally {
      if (!background) this.foreground--;
    }
    return this.lexical;
  }

  /** `current()` under the lock: loads the index if need be, applies the change log, reads the typo index a query needs. */
  private async bringUpToDate(timing: { load?: number; catchUp?: number } | undefined, options: CurrentOptions): Promise<void> {
    const t0 = performance.now();
    const loading = !this.loaded || (options.meta !== false && this.restored?.meta === true);
    if (!this.loaded) await this.load();
    if (options.meta !== false) await this.loadMeta();
    const t1 = performance.now();
    await this.catchUp(options.background === true);
    const t2 = performance.now();
    const typos = options.query !== undefined && (!TypoIndex.loaded || this.restored?.typos === true) && needsTypos(this.lexical, options.query);
    if (typos) {
      try {
        await this.typos.load();
        await this.loadTypos();
      } catch (error) {
        // FlexSearch's script missing (offline, its cache dropped): answer without typo lookups.
        console.warn(`search: no typo lookups for now (${(error as Error).message})`);
      }
    }
    if (timing) {
      if (loading || typos) timing.load = t1 - t0 + (performance.now() - t2);
      timing.catchUp = t2 - t1;
    }
  }

  /** The index as it is, without catching up (for tests and diagnostics). */
  get index(): LexicalIndex<DocMeta> {
    return this.lexical;
  }

  get position(): number {
    return this.seq;
  }

  /** Before a planned stop: a loaded index applies every committed write, then saves the snapshot if it changed. */
  async catchUpAndSave(): Promise<void> {
    if (this.loaded) await this.current(undefined, { meta: false });
    await this.flush();
  }

  /** Writes the snapshot now if the index changed since the last one (tests, and before a planned stop). */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.firmSaveAt = undefined;
    await this.save();
  }

  private async load(): Promise<void> {
    const t0 = performance.now();
    const snapshot = await this.readSnapshot();
    if (snapshot) {
      try {
        this.lexical = LexicalIndex.restore({ ...snapshot.data, meta: undefined }, DEFAULT_BM25, DOC_META_CODEC);
        this.typos.restore(undefined);
        this.seq = snapshot.seq;
        this.savedSeq = snapshot.seq;
        this.restored = { seq: snapshot.seq, saved: snapshot.saved, meta: true, typos: true, vocabulary: this.typos.vocabulary() };
        this.loaded = true;
        this.lastLoad = { from: 'snapshot', ms: performance.now() - t0, documents: this.lexical.size };
        return;
      } catch (error) {
        console.warn(`search: the saved index is unreadable (${(error as Error).message}); rebuilding it`);
      }
    }
    await this.rebuild();
  }

  /** Installs the restored snapshot's metadata; rebuilds the index when it is missing or does not match. */
  private async loadMeta(): Promise<void> {
    const restored = this.restored;
    if (!restored?.meta || this.lexical.hasMeta) return;
    restored.meta = false;
    try {
      this.lexical.installMeta(await this.readPart<string[]>(SNAPSHOT_META_ID, restored));
    } catch (error) {
      console.warn(`search: the saved index's metadata is unreadable (${(error as Error).message}); rebuilding the index`);
      await this.rebuild();
    }
  }

  /** Gives the typo index its saved state; without one (missing, unreadable, vocabulary renumbered) it is rebuilt when first used. */
  private async loadTypos(): Promise<void> {
    const restored = this.restored;
    if (!restored?.typos) return;
    restored.typos = false;
    if (this.typos.ready || this.lexical.generation !== restored.vocabulary.generation) return;
    try {
      this.typos.restore(await this.readPart<[string, string][]>(SNAPSHOT_TYPOS_ID, restored), restored.vocabulary);
    } catch (error) {
      console.warn(`search: the saved typo index is unreadable (${(error as Error).message}); it is rebuilt from the vocabulary`);
    }
  }

  /**
   * The typo index's parts for a snapshot; undefined when FlexSearch cannot be loaded (the snapshot is then
   * saved without them, and the typo index is built from the vocabulary when next used).
   */
  private async typoParts(): Promise<[string, string][] | undefined> {
    try {
      await this.typos.load();
    } catch (error) {
      console.warn(`search: the typo index is not saved (${(error as Error).message})`);
      return undefined;
    }
    await this.loadTypos();
    return this.typos.exportParts();
  }

  /** A part of the snapshot the index was restored from (SnapshotPart). */
  private async readPart<T>(id: string, restored: { seq: number; saved: string }): Promise<T> {
    const record = (await this.ctx.store.read((tx) => tx.get('indexes', id), ['indexes'])) as SnapshotPart<T> | undefined;
    if (record?.version !== SNAPSHOT_VERSION || record.seq !== restored.seq || record.saved !== restored.saved) throw new Error('missing or of another snapshot');
    return record.data;
  }

  private async readSnapshot(): Promise<SearchSnapshot | undefined> {
    try {
      const [record, last] = await this.ctx.store.read(
        (tx) => Promise.all([tx.get('indexes', SNAPSHOT_ID) as Promise<SearchSnapshot | undefined>, readSeq(tx)]),
        ['indexes', 'meta'],
      );
      this.loadedAt = last;
      return record && record.version === SNAPSHOT_VERSION && Number.isInteger(record.seq) ? record : undefined;
    } catch (error) {
      console.warn(`search: cannot read the saved index (${(error as Error).message})`);
      return undefined;
    }
  }

  /** Indexes the whole library from the store. */
  private async rebuild(): Promise<void> {
    const t0 = performance.now();
    this.restored = undefined;
    const lexical = new LexicalIndex<DocMeta>(DEFAULT_BM25, DOC_META_CODEC);
    // Each document is indexed as soon as it is read, while the store reads the rest. The seq is read
    // first: a write committed while the documents are read (in many transactions, so that writes are not
    // held up for all of it) is then applied again by the catch-up that follows.
    const { seq } = await readEveryDocument(this.ctx.store, (doc) => lexical.set(doc.id, documentFields(doc), doc.meta, doc.meta.pseudo ? PSEUDO : 0), {
      wholeUpTo: this.options.wholeLibraryAssets,
    });
    lexical.compact();
    this.lexical = lexical;
    this.seq = seq;
    this.loaded = true;
    this.lastLoad = { from: 'rebuild', ms: performance.now() - t0, documents: lexical.size };
    // Saved soon, and not put off by the changes that follow (`firm`): a worker stopped within the usual
    // quiet delay (an idle service worker, a user closing the tab) would otherwise rebuild again at every
    // start until the next write. Not at once either: the save holds the thread while it encodes (about
    // 2 s at 100,000 assets), and at once it ran while the search that asked for the rebuild read its
    // result assets (tens of milliseconds when nothing holds the thread).
    this.changed(Math.min(this.options.snapshotDelayMs, REBUILT_SAVE_DELAY_MS), true);
  }

  /** Applies the change-log entries after the index's seq; rebuilds when the log no longer reaches back. */
  private async catchUp(background: boolean): Promise<void> {
    const loadedAt = this.loadedAt;
    this.loadedAt = undefined;
    if (loadedAt === this.seq) return;
    const changes = await changesSince(this.ctx, this.seq);
    if (changes === undefined) return this.rebuild();
    if (changes.length === 0) return;
    // Each asset's latest change: what this context wrote at that change is not read back (feed/written.ts).
    const latest = new Map(changes.map((c) => [c.asset, c.seq]));
    const ids = [...latest.keys()];
    const slices = timeSlices(BACKGROUND_SLICE_MS);
    for (let i = 0; i < ids.length; i += CATCH_UP_CHUNK) {
      const chunk = ids.slice(i, i + CATCH_UP_CHUNK);
      const { written, unread } = this.ctx.written.split(chunk, latest);
      const read = unread.length === 0 ? [] : await this.ctx.store.read((tx) => readDocuments(tx, unread), DOCUMENT_SCOPE);
      const docs = [...written.map(searchDocument), ...read];
      this.remove(chunk, docs);
      for (let j = 0; j < docs.length; j += APPLY_SLICE) {
        if (background && this.foreground === 0 && slices.due()) await slices.next();
        this.apply(docs.slice(j, j + APPLY_SLICE));
      }
    }
    this.seq = changes[changes.length - 1]!.seq;
    this.changed();
  }

  /** Removes the assets of `ids` that have no document: they were deleted. */
  private remove(ids: readonly string[], docs: readonly SearchDocument[]) {
    const found = new Set(docs.map((d) => d.id));
    for (const id of ids) if (!found.has(id)) this.lexical.remove(id);
    this.lexical.maintain();
  }

  /** Re-indexes assets from their documents. */
  private apply(docs: readonly SearchDocument[]) {
    for (const doc of docs) this.lexical.set(doc.id, documentFields(doc), doc.meta, doc.meta.pseudo ? PSEUDO : 0);
    this.lexical.maintain();
  }

  /**
   * Schedules the snapshot a moment after the last change, spaced after the previous save by its cost
   * (snapshot-pacing.ts), the sooner once `eagerSaveChanges` are unsaved: past the change log's reach
   * (CHANGE_LOG_SIZE) the next start would rebuild the index. (The spacing alone left a 100,000-asset
   * import unsaved for minutes, longer than a browser keeps an idle service worker.)
   */
  private changed(delayMs = this.options.snapshotDelayMs, firm = false) {
    this.dirty = true;
    if (!this.options.persist) return;
    const now = performance.now();
    const wait = snapshotWait(delayMs, this.lastSave, this.seq - this.savedSeq >= this.options.eagerSaveChanges, now);
    // A firm save (after a rebuild) stays due when later changes would put it off.
    if (this.firmSaveAt !== undefined && this.firmSaveAt <= now + wait) return;
    clearTimeout(this.saveTimer);
    this.firmSaveAt = firm ? now + wait : undefined;
    this.saveTimer = unref(
      setTimeout(() => {
        this.firmSaveAt = undefined;
        void this.save();
      }, wait),
    );
  }

  private scheduleSync() {
    if (this.syncTimer !== undefined) return;
    this.syncTimer = unref(
      setTimeout(() => {
        this.syncTimer = undefined;
        void this.current(undefined, { meta: false, background: true }).catch((error) => {
          if (!this.ctx.store.closed) console.warn(`search: background catch-up failed: ${String(error)}`);
        });
      }, this.options.syncDelayMs),
    );
  }

  private save(): Promise<void> {
    return this.saving(() => this.saveOnce());
  }

  private async saveOnce(): Promise<void> {
    if (!this.options.persist) return;
    const t0 = performance.now();
    // Taken between two queued operations, so the data and its seq agree; worked out afterwards in slices,
    // while searches and catch-ups go on (at 100,000 assets it held the thread for about 0.8 s).
    const taken = await this.exclusive(async () => {
      if (!this.dirty || !this.loaded) return undefined;
      await this.loadMeta();
      const typos = await this.typoParts();
      this.dirty = false;
      return { seq: this.seq, typos, steps: this.lexical.snapshotSteps() };
    });
    if (!taken) return;
    const { seq, typos } = taken;
    try {
      const { meta, ...data } = await finishInSlices(taken.steps, BACKGROUND_SLICE_MS);
      const saved = this.ctx.now().toISOString();
      const part = <T>(id: string, partData: T): SnapshotPart<T> => ({ id, version: SNAPSHOT_VERSION, seq, saved, data: partData });
      const snapshot: SearchSnapshot = { id: SNAPSHOT_ID, version: SNAPSHOT_VERSION, seq, saved, data };
      const records = [snapshot, part(SNAPSHOT_META_ID, meta), ...(typos ? [part(SNAPSHOT_TYPOS_ID, typos)] : [])];
      await this.ctx.store.write(async (tx) => {
        await Promise.all(records.map((record) => tx.put('indexes', record)));
      }, ['indexes']);
      this.savedSeq = seq;
    } catch (error) {
      this.dirty = true;
      if (!this.ctx.store.closed) console.warn(`search: could not save the index (${String(error)})`);
    }
    this.lastSave = { ms: performance.now() - t0, end: performance.now() };
  }
}


const indexes = new WeakMap<Store, SearchIndex>();

/** The search index of the context's store: one per store, whichever layer (routes, RPC) asks first. */
export function searchIndexFor(ctx: ServiceContext): SearchIndex {
  let index = indexes.get(ctx.store);
  if (!index) indexes.set(ctx.store, (index = new SearchIndex(ctx)));
  return index;
}

/** Installs a search index for a store (a host or a test that wants its own options). */
export function useSearchIndex(ctx: ServiceContext, options: SearchIndexOptions = {}): SearchIndex {
  const index = new SearchIndex(ctx, options);
  indexes.set(ctx.store, index);
  return index;
}
