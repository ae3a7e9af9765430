import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { ReadTx, Store, WriteTx } from '../../worker/core/store/store.ts';

/**
 * A store that hands every call on to another (a MemoryStore unless given: it enforces scopes as IndexedDB
 * does) and notes the scope of each write, for the tests of what writes lock.
 */
export class ScopeNotingStore implements Store {
  readonly writes: (readonly CollectionName[] | undefined)[] = [];
  constructor(private inner: Store = new MemoryStore()) {}
  read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]) {
    return this.inner.read(fn, scope);
  }
  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]) {
    this.writes.push(scope);
    return this.inner.write(fn, scope);
  }
  get closed() {
    return this.inner.closed;
  }
  close() {
    this.inner.close();
  }
}
