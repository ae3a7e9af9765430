import 'fake-indexeddb/auto';
import { afterAll, describe, it } from 'vitest';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import { storeContract, type StoreHarness } from '../../worker/core/store/contract.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { PgStore } from '../../worker/node/pg/pg-store.ts';
import { dropSchemas, openPgliteStore, testPostgres, testSchema } from '../support/pg.ts';

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
  'PgStore (PGlite)': {
    open: () => openPgliteStore(),
    async reopen(store) {
      const pg = store as PgStore;
      store.close();
      return PgStore.open(pg.db, { schema: pg.schema });
    },
  },
};

// The PostgreSQL server of DATABASE_URL (.ci/run starts one; docs/node.md says how to run it locally).
const postgres = testPostgres('the Store contract on PostgreSQL');
if (postgres) {
  const schemas = new Set<string>();
  harnesses['PgStore (PostgreSQL)'] = {
    async open() {
      const schema = testSchema();
      schemas.add(schema);
      return PgStore.open(await postgres, { schema });
    },
    async reopen(store) {
      const pg = store as PgStore;
      store.close();
      return PgStore.open(pg.db, { schema: pg.schema });
    },
  };
  afterAll(async () => {
    const db = await postgres;
    await dropSchemas(db, schemas);
    await db.close();
  });
}

for (const [name, harness] of Object.entries(harnesses)) {
  describe(`Store contract: ${name}`, () => {
    for (const c of storeContract) it(c.name, () => c.run(harness));
  });
}
