import 'fake-indexeddb/auto';
import { describe, it } from 'vitest';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import { storeContract, type StoreHarness } from '../../worker/core/store/contract.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { Store } from '../../worker/core/store/store.ts';

let n = 0;
const idb = new Map<Store, string>();

const harnesses: Record<string, StoreHarness> = {
  MemoryStore: {
    open: async () => new MemoryStore(),
    // Memory has no second connection: the same instance is what a restart would see.
    reopen: async (store) => store,
  },
  'IdbStore (fake-indexeddb)': {
    async open() {
      const name = `contract-${++n}`;
      const store = await IdbStore.open(name);
      idb.set(store, name);
      return store;
    },
    async reopen(store) {
      store.close();
      const name = idb.get(store)!;
      const again = await IdbStore.open(name);
      idb.set(again, name);
      return again;
    },
  },
};

for (const [name, harness] of Object.entries(harnesses)) {
  describe(`Store contract: ${name}`, () => {
    for (const c of storeContract) it(c.name, () => c.run(harness));
  });
}
