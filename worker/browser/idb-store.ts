import { openDB, unwrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { COLLECTIONS, INDEXES, LINKED_KINDS, foldTag, type CollectionName, type Collections } from '../core/store/records.ts';
import { LinkCarryOver } from '../core/links/carry-over.ts';
import { POSITION_ID } from '../core/links/link-records.ts';
import type { IndexQuery, ReadTx, Store, WriteTx } from '../core/store/store.ts';
import { ApiError } from '../core/errors.ts';
import { unref } from '../core/timers.ts';

interface TesseraDB extends DBSchema {
  assets: { key: string; value: Collections['assets'] };
  formats: { key: string; value: Collections['formats'] };
  contents: { key: string; value: Collections['contents'] };
  tags: { key: string; value: Collections['tags']; indexes: { folded: string } };
  websites: { key: string; value: Collections['websites']; indexes: { url: string } };
  summaries: { key: string; value: Collections['summaries'] };
  persons: { key: string; value: Collections['persons'] };
  annotations: { key: string; value: Collections['annotations'] };
  activities: { key: string; value: Collections['activities']; indexes: { asset: string } };
  meta: { key: string; value: Collections['meta'] };
  changes: { key: string; value: Collections['changes'] };
  indexes: { key: string; value: Collections['indexes'] };
  snippets: { key: string; value: Collections['snippets'] };
  relevant: { key: string; value: Collections['relevant'] };
  conversations: { key: string; value: Collections['conversations'] };
  messages: { key: string; value: Collections['messages']; indexes: { conversation: string } };
  folders: { key: string; value: Collections['folders'] };
  idempotency: { key: string; value: Collections['idempotency'] };
  links: { key: string; value: Collections['links']; indexes: { asset: string; other: string } };
}

type Db = IDBPDatabase<TesseraDB>;
type UpgradeTx = IDBPTransaction<TesseraDB, CollectionName[], 'versionchange'>;

/**
 * Numbered schema migrations: entry i upgrades a database from version i to i + 1. One that rewrites records
 * returns when it is done (awaiting only the upgrade transaction's requests), and the next one starts then:
 * two cursors rewriting one store side by side would each put back the other's old record.
 */
const MIGRATIONS: ((db: Db, tx: UpgradeTx) => void | Promise<void>)[] = [
  (db) => {
    const first = ['assets', 'formats', 'contents', 'tags', 'websites', 'summaries', 'persons', 'annotations', 'activities', 'meta'] as const;
    for (const name of first) db.createObjectStore(name, { keyPath: 'id' });
  },
  (db) => {
    db.createObjectStore('changes', { keyPath: 'id' });
  },
  (db) => {
    // Saved derived indexes (the search index snapshot).
    db.createObjectStore('indexes', { keyPath: 'id' });
  },
  (db) => {
    // Question answering: snippet vectors, relevance results, conversations, granted folders.
    for (const name of ['snippets', 'relevant', 'conversations', 'messages', 'folders'] as const) db.createObjectStore(name, { keyPath: 'id' });
  },
  (db) => {
    // The responses of writes sent with an Idempotency-Key (worker/core/idempotency.ts).
    db.createObjectStore('idempotency', { keyPath: 'id' });
  },
  async (_db, tx) => {
    // The indexes of records.ts (INDEXES) as version 6 had them. Tags gain the `folded` key their index reads.
    const indexes = { activities: INDEXES.activities, messages: INDEXES.messages, tags: INDEXES.tags, websites: INDEXES.websites };
    for (const [collection, named] of Object.entries(indexes)) {
      for (const [name, { keyPath }] of Object.entries(named)) tx.objectStore(collection as 'tags').createIndex(name as 'folded', keyPath);
    }
    for (let cursor = await tx.objectStore('tags').openCursor(); cursor; cursor = await cursor.continue()) {
      await cursor.update({ ...cursor.value, folded: foldTag(cursor.value.text) });
    }
  },
  async (db, tx) => {
    // Links become records of their own (links/carry-over.ts): the id arrays on both sides are read, turned
    // into `links` records, and dropped from their records.
    const links = db.createObjectStore('links', { keyPath: 'id' });
    for (const [name, { keyPath }] of Object.entries(INDEXES.links)) links.createIndex(name as 'asset', keyPath);
    const carry = new LinkCarryOver();
    for (const kind of LINKED_KINDS) {
      for (let cursor = await tx.objectStore(kind).openCursor(); cursor; cursor = await cursor.continue()) {
        const { record, links: made } = carry.fromOther(kind, cursor.value);
        await Promise.all([cursor.update(record), ...made.map((link) => links.put(link))]);
      }
    }
    for (let cursor = await tx.objectStore('assets').openCursor(); cursor; cursor = await cursor.continue()) {
      const found = await Promise.all(carry.linkIdsOf(cursor.value).map((id) => links.get(id)));
      const { record, links: made } = carry.fromAsset(cursor.value, new Map(found.flatMap((l) => (l ? [[l.id, l]] : []))));
      await Promise.all([cursor.update(record), ...made.map((link) => links.put(link))]);
    }
    if (carry.next !== undefined) await tx.objectStore('meta').put({ id: POSITION_ID, value: carry.next });
  },
];

export const IDB_VERSION = MIGRATIONS.length;

/** How long an open waits on an upgrade that older connections (another tab or worker) block. */
export const BLOCKED_TIMEOUT_MS = 5_000;

const blockedError = () =>
  new ApiError(
    503,
    'storage_blocked',
    'The database upgrade is blocked: another tab or worker of this app still holds the older version open. Close or reload the other tabs of this app, then try again.',
  );

const upgradedError = () =>
  new ApiError(503, 'storage_upgraded', 'A newer version of this app has upgraded the database; this one is out of date. Reload the page.');

/**
 * The Store on IndexedDB, through `idb`. One `write` is one readwrite transaction.
 *
 * The connection never hangs nor dies for good: it closes itself when a newer version wants to upgrade
 * (`blocking`), is opened again on next use after the browser closed it (`terminated`), and an open that
 * older connections block fails with a 503 after `blockedTimeoutMs` (the attempt goes on, and the next use
 * waits for it again).
 */
export class IdbStore implements Store {
  private db: Db | undefined;
  private opening: Promise<Db> | undefined;
  private blocked = false;
  private onBlocked = new Set<() => void>();
  closed = false;

  private constructor(
    private name: string,
    private blockedTimeoutMs: number,
  ) {}

  /** Opens (creating or upgrading) the database; rejects with a 503 ApiError when the upgrade stays blocked. */
  static async open(name = 'tessera', options: { blockedTimeoutMs?: number } = {}): Promise<IdbStore> {
    const store = new IdbStore(name, options.blockedTimeoutMs ?? BLOCKED_TIMEOUT_MS);
    try {
      await store.connection();
    } catch (error) {
      // Nobody holds this store: a connection the attempt makes later is closed at once.
      store.close();
      throw error;
    }
    return store;
  }

  private connection(): Promise<Db> {
    if (this.db) return Promise.resolve(this.db);
    if (this.closed) return Promise.reject(new DOMException('The store is closed.', 'InvalidStateError'));
    this.opening ??= this.connect();
    const attempt = this.opening;
    return new Promise<Db>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const wait = () => {
        timer ??= unref(setTimeout(() => reject(blockedError()), this.blockedTimeoutMs));
      };
      this.onBlocked.add(wait);
      if (this.blocked) wait();
      attempt.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        this.onBlocked.delete(wait);
      });
    });
  }

  private connect(): Promise<Db> {
    const attempt = openDB<TesseraDB>(this.name, IDB_VERSION, {
      upgrade(db, oldVersion, _newVersion, tx) {
        let done: Promise<void> = Promise.resolve();
        for (let v = oldVersion; v < IDB_VERSION; v++) done = done.then(() => MIGRATIONS[v](db, tx as UpgradeTx));
        // A failed request aborts the transaction by itself; a thrown error must abort it too, or the upgrade
        // would commit half done. The open then fails with the abort.
        done.catch((error: unknown) => {
          console.error('IndexedDB upgrade failed', error);
          try {
            tx.abort();
          } catch {
            // Already aborted by the failed request.
          }
        });
      },
      blocked: () => {
        this.blocked = true;
        for (const wait of this.onBlocked) wait();
      },
      // A newer version waits for us: let it upgrade. Our next use fails with `upgradedError`.
      blocking: () => this.drop(db),
      terminated: () => this.drop(db),
    });
    let db: Db | undefined;
    return attempt.then(
      (opened) => {
        db = opened;
        this.opening = undefined;
        this.blocked = false;
        if (this.closed) opened.close();
        else this.db = opened;
        return opened;
      },
      (error: unknown) => {
        this.opening = undefined;
        this.blocked = false;
        throw error instanceof Error && error.name === 'VersionError' ? upgradedError() : error;
      },
    );
  }

  private drop(db: Db | undefined): void {
    db?.close();
    if (this.db === db) this.db = undefined;
  }

  async read<T>(fn: (tx: ReadTx) => Promise<T>, scope: readonly CollectionName[] = COLLECTIONS): Promise<T> {
    const db = await this.connection();
    // Once `fn` has its answer, every request it made has succeeded: nothing is left to wait for
    // (a read-only transaction has nothing to commit), so the answer goes out without that round trip.
    return fn(reader(db.transaction(scope, 'readonly')));
  }

  async write<T>(fn: (tx: WriteTx) => Promise<T>, scope: readonly CollectionName[] = COLLECTIONS): Promise<T> {
    const db = await this.connection();
    const tx = db.transaction(scope, 'readwrite');
    // Puts and deletes are issued on the bare transaction and not awaited one by one: a request that fails
    // aborts the transaction, and the write then fails with its error at `tx.done`. An import makes tens of
    // thousands of them, and a promise with its listeners for each cost a tenth of the worker's time.
    const bare = unwrap(tx);
    const writer: WriteTx = {
      ...reader(tx),
      put: (c, record) => issued(() => bare.objectStore(c).put(record)),
      delete: (c, id) => issued(() => bare.objectStore(c).delete(id)),
      deleteUpTo: (c, id) => issued(() => bare.objectStore(c).delete(IDBKeyRange.upperBound(id))),
    };
    let result: T;
    try {
      result = await fn(writer);
    } catch (error) {
      // A call after the function awaited something else (a timer) finds the transaction inactive: it ends
      // as IndexedDB ends it, committing what was asked before (as the other stores do), not aborted here.
      if (!(error instanceof DOMException && error.name === 'TransactionInactiveError')) abort(tx);
      await tx.done.catch(() => undefined);
      // When the browser aborts the transaction (a full disk: QuotaExceededError), each pending request
      // fails with a bare AbortError; the transaction's own error says why. After our abort() it is null.
      throw tx.error ?? error;
    }
    await tx.done.catch((error: unknown) => {
      throw tx.error ?? error;
    });
    return result;
  }

  close(): void {
    this.closed = true;
    this.db?.close();
    this.db = undefined;
  }
}

const ISSUED = Promise.resolve();

/** A change asked for: settled at once (one promise for all of them), or rejected when asking throws. */
function issued(ask: () => unknown): Promise<void> {
  try {
    ask();
    return ISSUED;
  } catch (error) {
    return Promise.reject(error);
  }
}

function abort(tx: IDBPTransaction<TesseraDB, CollectionName[], IDBTransactionMode>): void {
  try {
    tx.abort();
  } catch {
    // Already finished or aborted: nothing to undo.
  }
}

function reader(tx: IDBPTransaction<TesseraDB, CollectionName[], IDBTransactionMode>): ReadTx {
  return {
    get: (c, id) => tx.objectStore(c).get(id) as never,
    getMany: async (c, ids) => {
      const store = tx.objectStore(c);
      const found = await Promise.all(ids.map((id) => store.get(id)));
      return found.filter((r) => r !== undefined) as never;
    },
    getAll: (c) => tx.objectStore(c).getAll() as never,
    getRange: (c, after, limit) =>
      tx.objectStore(c).getAll(after === undefined ? null : IDBKeyRange.lowerBound(after, true), limit) as never,
    count: (c) => tx.objectStore(c).count(),
    getAllFromIndex: (c, index, query, limit) => tx.objectStore(c).index(index as never).getAll(keyRange(query) as never, limit) as never,
    getKeysFromIndex: (c, index, query, limit) => tx.objectStore(c).index(index as never).getAllKeys(keyRange(query) as never, limit) as never,
    countFromIndex: (c, index, query) => tx.objectStore(c).index(index as never).count(keyRange(query) as never),
  };
}

function keyRange(query: IndexQuery): string | IDBKeyRange | null {
  if (typeof query === 'string') return query;
  const { lower, upper, lowerOpen, upperOpen } = query;
  if (lower !== undefined && upper !== undefined) return IDBKeyRange.bound(lower, upper, lowerOpen, upperOpen);
  if (lower !== undefined) return IDBKeyRange.lowerBound(lower, lowerOpen);
  if (upper !== undefined) return IDBKeyRange.upperBound(upper, upperOpen);
  return null;
}
