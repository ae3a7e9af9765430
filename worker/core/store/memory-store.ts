import { COLLECTIONS, type CollectionName, type Collections } from './records.ts';
import type { ReadTx, Store, WriteTx } from './store.ts';

type Tables = { [C in CollectionName]: Map<string, Collections[C]> };

/** A Store held in memory: for tests, and for hosts without persistent storage. */
export class MemoryStore implements Store {
  private tables = Object.fromEntries(COLLECTIONS.map((c) => [c, new Map()])) as unknown as Tables;
  /** Writes run one at a time, as they do in IndexedDB. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Each collection's ids in key order, made on first use after a write changed it (getRange reads them in batches). */
  private sorted = new Map<CollectionName, string[]>();

  read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    return fn(this.reader((c, id) => this.tables[c].get(id), undefined, scope));
  }

  write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    const run = async () => {
      // Staged changes: a value, or null for a delete. Applied only when fn resolves.
      const staged = new Map<CollectionName, Map<string, unknown>>();
      const lookup = (c: CollectionName, id: string) => {
        const change = staged.get(c);
        if (change?.has(id)) return change.get(id) ?? undefined;
        return this.tables[c].get(id);
      };
      const stage = (c: CollectionName, id: string, value: unknown) => {
        if (!staged.has(c)) staged.set(c, new Map());
        staged.get(c)!.set(id, value);
      };
      const tx: WriteTx = {
        ...this.reader(lookup as never, staged),
        put: async (c, record) => stage(c, record.id, structuredClone(record)),
        delete: async (c, id) => stage(c, id, null),
      };
      const result = await fn(tx);
      for (const [c, changes] of staged) {
        this.sorted.delete(c);
        const table = this.tables[c] as Map<string, unknown>;
        for (const [id, value] of changes) {
          if (value === null) table.delete(id);
          else table.set(id, value);
        }
      }
      return result;
    };
    const result = this.queue.then(run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  close(): void {}

  private reader(
    find: <C extends CollectionName>(c: C, id: string) => Collections[C] | undefined,
    staged?: Map<CollectionName, Map<string, unknown>>,
    scope?: readonly CollectionName[],
  ): ReadTx {
    const lookup = <C extends CollectionName>(c: C, id: string) => find(inScope(c, scope), id);
    /** Every id the transaction may see (committed and staged), in key order, as IndexedDB orders string keys. */
    const ids = (c: CollectionName): string[] => {
      inScope(c, scope);
      const changes = staged?.get(c);
      if (!changes) {
        let committed = this.sorted.get(c);
        if (!committed) this.sorted.set(c, (committed = [...this.tables[c].keys()].sort()));
        return committed;
      }
      const all = new Set(this.tables[c].keys());
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
