import type { CollectionName, Collections, IndexedCollection, IndexName } from './records.ts';

/** Index keys from `lower` to `upper` (either may be absent: unbounded), each end included unless open, as IDBKeyRange. */
export interface KeyRange {
  lower?: string;
  upper?: string;
  lowerOpen?: boolean;
  upperOpen?: boolean;
}

/** One index key, or a range of them. */
export type IndexQuery = string | KeyRange;

export interface ReadTx {
  get<C extends CollectionName>(collection: C, id: string): Promise<Collections[C] | undefined>;
  getMany<C extends CollectionName>(collection: C, ids: readonly string[]): Promise<Collections[C][]>;
  getAll<C extends CollectionName>(collection: C): Promise<Collections[C][]>;
  /**
   * Up to `limit` records with ids after `after` (all ids when undefined), in id order: a collection read
   * in bounded batches (a backup) without holding all of it, each batch in its own transaction.
   */
  getRange<C extends CollectionName>(collection: C, after: string | undefined, limit: number): Promise<Collections[C][]>;
  /** How many records the collection holds. */
  count(collection: CollectionName): Promise<number>;
  /**
   * The records whose index key matches `query` (up to `limit`), ordered by index key and then by id, as
   * IndexedDB's `index.getAll`. Indexes are declared in records.ts (`INDEXES`).
   */
  getAllFromIndex<C extends IndexedCollection>(collection: C, index: IndexName<C>, query: IndexQuery, limit?: number): Promise<Collections[C][]>;
  /** The ids of the records `getAllFromIndex` would return, without reading the records. */
  getKeysFromIndex<C extends IndexedCollection>(collection: C, index: IndexName<C>, query: IndexQuery, limit?: number): Promise<string[]>;
  /** How many records the index query matches. */
  countFromIndex<C extends IndexedCollection>(collection: C, index: IndexName<C>, query: IndexQuery): Promise<number>;
}

/**
 * A write's changes. Their promises may settle as soon as the change is asked for (IndexedDB): a change
 * the database then refuses fails the whole write, and a read later in the transaction sees it either way.
 */
export interface WriteTx extends ReadTx {
  put<C extends CollectionName>(collection: C, record: Collections[C]): Promise<void>;
  delete(collection: CollectionName, id: string): Promise<void>;
  /** Deletes every record whose id is `id` or sorts before it (one request: the change log drops its oldest entries). */
  deleteUpTo(collection: CollectionName, id: string): Promise<void>;
}

/**
 * Where Tessera keeps its records. Every implementation passes `store/contract.ts`.
 *
 * `write` runs `fn` as one atomic transaction: either everything it put or deleted is committed, or
 * (when `fn` throws) nothing is, and the error is rethrown. `fn` may await only the transaction's
 * own calls (an IndexedDB transaction commits as soon as it has nothing pending), so do any other
 * async work before opening it. Records go in and come out as copies.
 */
export interface Store {
  /**
   * `scope` names the collections `fn` reads (default: all). A narrower transaction is cheaper in
   * IndexedDB; reading a collection outside the scope throws, in every implementation.
   */
  read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T>;
  /**
   * `scope` names the collections `fn` reads or writes (default: all). IndexedDB locks the scope for the
   * whole transaction, so writes on disjoint scopes run side by side: background writes (the search
   * snapshot, vectors, the relevant ring) name theirs and do not hold up a user's write. Touching a
   * collection outside the scope throws, and the write commits nothing.
   */
  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T>;
  close(): void;
  /**
   * Whether `close()` was called. A background save or catch-up that fails once its store is closed (a host
   * shutting down, a test ending) is not worth a warning: what it would have written is derived data.
   */
  readonly closed: boolean;
}
