import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { COLLECTIONS, type CollectionName, type Collections } from '../core/store/records.ts';
import type { ReadTx, Store, WriteTx } from '../core/store/store.ts';

interface TesseraDB extends DBSchema {
  assets: { key: string; value: Collections['assets'] };
  formats: { key: string; value: Collections['formats'] };
  contents: { key: string; value: Collections['contents'] };
  tags: { key: string; value: Collections['tags'] };
  websites: { key: string; value: Collections['websites'] };
  summaries: { key: string; value: Collections['summaries'] };
  persons: { key: string; value: Collections['persons'] };
  annotations: { key: string; value: Collections['annotations'] };
  activities: { key: string; value: Collections['activities'] };
  meta: { key: string; value: Collections['meta'] };
  changes: { key: string; value: Collections['changes'] };
  indexes: { key: string; value: Collections['indexes'] };
  snippets: { key: string; value: Collections['snippets'] };
  relevant: { key: string; value: Collections['relevant'] };
  conversations: { key: string; value: Collections['conversations'] };
  messages: { key: string; value: Collections['messages'] };
  folders: { key: string; value: Collections['folders'] };
}

type Db = IDBPDatabase<TesseraDB>;

/** Numbered schema migrations: entry i upgrades a database from version i to i + 1. */
const MIGRATIONS: ((db: Db) => void)[] = [
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
];

export const IDB_VERSION = MIGRATIONS.length;

/** The Store on IndexedDB, through `idb`. One `write` is one readwrite transaction. */
export class IdbStore implements Store {
  private constructor(private db: Db) {}

  static async open(name = 'tessera'): Promise<IdbStore> {
    const db = await openDB<TesseraDB>(name, IDB_VERSION, {
      upgrade(db, oldVersion) {
        for (let v = oldVersion; v < IDB_VERSION; v++) MIGRATIONS[v](db);
      },
    });
    return new IdbStore(db);
  }

  read<T>(fn: (tx: ReadTx) => Promise<T>, scope: readonly CollectionName[] = COLLECTIONS): Promise<T> {
    // Once `fn` has its answer, every request it made has succeeded: nothing is left to wait for
    // (a read-only transaction has nothing to commit), so the answer goes out without that round trip.
    return fn(reader(this.db.transaction(scope, 'readonly')));
  }

  async write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    const tx = this.db.transaction(COLLECTIONS, 'readwrite');
    const writer: WriteTx = {
      ...reader(tx),
      put: async (c, record) => {
        await tx.objectStore(c).put(record as never);
      },
      delete: async (c, id) => {
        await tx.objectStore(c).delete(id);
      },
    };
    let result: T;
    try {
      result = await fn(writer);
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished or aborted: nothing to undo.
      }
      await tx.done.catch(() => undefined);
      throw error;
    }
    await tx.done;
    return result;
  }

  close(): void {
    this.db.close();
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
  };
}
