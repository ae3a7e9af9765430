import { unref } from '../timers.ts';
import { COLLECTIONS, type CollectionName, type Collections } from './records.ts';
import type { ReadTx, Store, WriteTx } from './store.ts';

type Tables = { [C in CollectionName]: Map<string, Collections[C]> };
type Staged = Map<CollectionName, Map<string, unknown>>;

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
  private queue: Promise<unknown> = Promise.resolve();
  /** Reads under way: while there are any, a commit replaces the tables it changes instead of changing them. */
  private reading = 0;
  /** A table's ids in key order, made on first use after a write changed it (getRange reads them in batches). */
  private sorted = new WeakMap<Map<string, unknown>, string[]>();

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
    const result = this.queue.then(run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  close(): void {}

  private commit(staged: Staged): void {
    // An open read keeps the tables it began with: changed ones are replaced, not changed in place.
    const tables = this.reading > 0 ? { ...this.tables } : this.tables;
    for (const [c, changes] of staged) {
      const current = this.tables[c] as Map<string, unknown>;
      const table = this.reading > 0 ? new Map(current) : current;
      this.sorted.delete(current);
      for (const [id, value] of changes) {
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
    };
  }
}

/** Node's check-phase tasks (setImmediate), which can run before a 0 ms timer; absent in browsers. */
const nodeImmediate = (() => {
  const g = globalThis as { setImmediate?: (fn: () => void) => unknown; clearImmediate?: (handle: unknown) => void };
  return g.setImmediate && g.clearImmediate ? { set: g.setImmediate, clear: g.clearImmediate } : undefined;
})();

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
