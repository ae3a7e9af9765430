import { exclusive } from '../exclusive.ts';
import { nodeImmediate, unref } from '../timers.ts';
import { COLLECTIONS, INDEXES, type CollectionName, type Collections, type IndexedCollection } from './records.ts';
import type { IndexQuery, ReadTx, Store, WriteTx } from './store.ts';

type Tables = { [C in CollectionName]: Map<string, Collections[C]> };
type Staged = Map<CollectionName, Map<string, unknown>>;
/** One index of a table: index key → the ids of the records with that key. */
type IndexMap = Map<string, Set<string>>;

/**
 * A Store held in memory: for tests, and for hosts without persistent storage. It behaves like IndexedDB
 * where code could come to rely on a difference:
 * - a write whose function awaits anything but its own calls (a timer, `fetch`, the embedder) is committed
 *   at that point, as IndexedDB auto-commits an idle transaction, and its later calls throw
 *   `InvalidStateError` (as `IdbStore`'s do);
 * - a read sees the store as it was when it began, whatever commits while it runs.
 */
export class MemoryStore implements Store {
  private tables = Object.fromEntries(COLLECTIONS.map((c) => [c, new Map()])) as unknown as Tables;
  /** Writes run one at a time, as they do in IndexedDB. */
  private readonly exclusive = exclusive();
  /** Reads under way: while there are any, a commit replaces the tables it changes instead of changing them. */
  private reading = 0;
  /** A table's ids in key order, made on first use after a write changed it (getRange reads them in batches). */
  private sorted = new WeakMap<Map<string, unknown>, string[]>();
  /** A table's indexes by name, made on first use and kept in step by commits that change the table in place. */
  private indexes = new WeakMap<Map<string, unknown>, Map<string, IndexMap>>();

  async read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    const tables = this.tables;
    this.reading++;
    try {
      return await fn(this.reader(tables, (c, id) => tables[c].get(id), undefined, scope, () => true));
    } finally {
      this.reading--;
    }
  }

  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    const run = async () => {
      // Staged changes: a value, or null for a delete. Applied when fn resolves (or when it goes idle).
      const staged: Staged = new Map();
      let active = true;
      const live = () => {
        if (!active) {
          throw new DOMException(
            'The transaction has finished: its function awaited something other than its own calls, and IndexedDB commits an idle transaction.',
            'InvalidStateError',
          );
        }
        return true;
      };
      const lookup = (c: CollectionName, id: string) => {
        const change = staged.get(c);
        if (change?.has(id)) return change.get(id) ?? undefined;
        return this.tables[c].get(id);
      };
      const stage = (c: CollectionName, id: string, value: unknown) => {
        live();
        if (!staged.has(c)) staged.set(c, new Map());
        staged.get(c)!.set(id, value);
      };
      const tx: WriteTx = {
        ...this.reader(this.tables, lookup as never, staged, scope, live),
        put: async (c, record) => stage(inScope(c, scope), record.id, structuredClone(record)),
        delete: async (c, id) => stage(inScope(c, scope), id, null),
        deleteUpTo: async (c, upTo) => {
          inScope(c, scope);
          for (const id of [...this.tables[c].keys(), ...(staged.get(c)?.keys() ?? [])]) if (id <= upTo) stage(c, id, null);
        },
      };
      // Every call above settles within microtasks, so a function that awaits only them is done before any
      // task runs: the first task to run (whichever kind comes first) means it awaits something else.
      const idle = () => {
        if (!active) return;
        active = false;
        this.commit(staged);
      };
      const timer = unref(setTimeout(idle, 0));
      const immediate = nodeImmediate?.set(idle);
      try {
        const result = await fn(tx);
        idle();
        return result;
      } finally {
        active = false;
        clearTimeout(timer);
        if (immediate !== undefined) nodeImmediate?.clear(immediate);
      }
    };
    return this.exclusive(run);
  }

  closed = false;

  close(): void {
    this.closed = true;
  }

  private commit(staged: Staged): void {
    // An open read keeps the tables it began with: changed ones are replaced, not changed in place.
    const tables = this.reading > 0 ? { ...this.tables } : this.tables;
    for (const [c, changes] of staged) {
      const current = this.tables[c] as Map<string, unknown>;
      const table = this.reading > 0 ? new Map(current) : current;
      this.sorted.delete(current);
      // A replaced table gets its indexes made again on first use; one changed in place keeps them in step.
      const indexes = table === current ? this.indexes.get(current) : undefined;
      for (const [id, value] of changes) {
        if (indexes) {
          for (const [name, index] of indexes) {
            unindex(index, keyOf(c, name, table.get(id)), id);
            const key = keyOf(c, name, value ?? undefined);
            if (key !== undefined) (index.get(key) ?? index.set(key, new Set()).get(key)!).add(id);
          }
        }
        if (value === null) table.delete(id);
        else table.set(id, value);
      }
      (tables as Record<CollectionName, Map<string, unknown>>)[c] = table;
    }
    this.tables = tables;
  }

  private reader(
    tables: Tables,
    find: <C extends CollectionName>(c: C, id: string) => Collections[C] | undefined,
    staged: Staged | undefined,
    scope: readonly CollectionName[] | undefined,
    live: () => boolean,
  ): ReadTx {
    const self = this;
    const lookup = <C extends CollectionName>(c: C, id: string) => (live(), find(inScope(c, scope), id));
    /** Every id the transaction may see (committed and staged), in key order, as IndexedDB orders string keys. */
    const ids = (c: CollectionName): string[] => {
      live();
      inScope(c, scope);
      const table = tables[c] as Map<string, unknown>;
      const changes = staged?.get(c);
      if (!changes) {
        let committed = this.sorted.get(table);
        if (!committed) this.sorted.set(table, (committed = [...table.keys()].sort()));
        return committed;
      }
      const all = new Set(table.keys());
      for (const id of changes.keys()) all.add(id);
      return [...all].sort();
    };
    return {
      get: async (c, id) => clone(lookup(c, id)),
      getMany: async (c, ids) => ids.map((id) => lookup(c, id)).filter((r) => r !== undefined).map((r) => clone(r)!),
      getAll: async (c) => ids(c).map((id) => lookup(c, id)).filter((r) => r !== undefined).map((r) => clone(r)!),
      getRange: async (c, after, limit) => {
        const found = [];
        const all = ids(c);
        for (let i = after === undefined ? 0 : firstAfter(all, after); i < all.length; i++) {
          const record = lookup(c, all[i]!);
          if (record !== undefined) found.push(clone(record)!);
          if (found.length >= limit) break;
        }
        return found;
      },
      count: async (c) => ids(c).filter((id) => lookup(c, id) !== undefined).length,
      getAllFromIndex: async (c, index, query, limit) =>
        indexed(c, index, query, limit).map((id) => clone(lookup(c, id))!) as never,
      getKeysFromIndex: async (c, index, query, limit) => indexed(c, index, query, limit),
      countFromIndex: async (c, index, query) => indexed(c, index, query).length,
    };
    /** The ids an index query matches in this transaction's view (committed, then its staged changes), in index order. */
    function indexed(c: IndexedCollection, name: string, query: IndexQuery, limit = Infinity): string[] {
      live();
      inScope(c, scope);
      const found: [key: string, id: string][] = [];
      const changes = staged?.get(c);
      for (const [key, ids] of indexOf(tables[c] as Map<string, unknown>, c, name)) {
        if (!matches(key, query)) continue;
        for (const id of ids) if (!changes?.has(id)) found.push([key, id]);
      }
      for (const [id, value] of changes ?? []) {
        const key = keyOf(c, name, value ?? undefined);
        if (key !== undefined && matches(key, query)) found.push([key, id]);
      }
      found.sort(([ka, ia], [kb, ib]) => (ka < kb ? -1 : ka > kb ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0));
      return found.slice(0, limit).map(([, id]) => id);
    }
    function indexOf(table: Map<string, unknown>, c: IndexedCollection, name: string): IndexMap {
      let all = self.indexes.get(table);
      if (!all) self.indexes.set(table, (all = new Map()));
      let index = all.get(name);
      if (!index) {
        all.set(name, (index = new Map()));
        for (const [id, record] of table) {
          const key = keyOf(c, name, record);
          if (key !== undefined) (index.get(key) ?? index.set(key, new Set()).get(key)!).add(id);
        }
      }
      return index;
    }
  }
}

/** The record's key in the index (undefined: not in it), as IndexedDB reads a key path holding a string. */
function keyOf(c: CollectionName, name: string, record: unknown): string | undefined {
  const spec = (INDEXES as Record<string, Record<string, { keyPath: string }> | undefined>)[c]?.[name];
  if (!spec) throw new DOMException(`'${c}' has no index '${name}'`, 'NotFoundError');
  const key = (record as Record<string, unknown> | undefined)?.[spec.keyPath];
  return typeof key === 'string' ? key : undefined;
}

function unindex(index: IndexMap, key: string | undefined, id: string): void {
  if (key === undefined) return;
  const ids = index.get(key);
  ids?.delete(id);
  if (ids?.size === 0) index.delete(key);
}

function matches(key: string, query: IndexQuery): boolean {
  if (typeof query === 'string') return key === query;
  const { lower, upper, lowerOpen, upperOpen } = query;
  if (lower !== undefined && (lowerOpen ? key <= lower : key < lower)) return false;
  if (upper !== undefined && (upperOpen ? key >= upper : key > upper)) return false;
  return true;
}

/** The index of the first id greater than `key` in sorted `ids` (binary search). */
function firstAfter(ids: readonly string[], key: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** As IndexedDB does, refuse a collection the transaction was not opened on. */
function inScope<C extends CollectionName>(c: C, scope: readonly CollectionName[] | undefined): C {
  if (scope && !scope.includes(c)) throw new DOMException(`'${c}' is not in this transaction's scope`, 'NotFoundError');
  return c;
}

function clone<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}
