import 'fake-indexeddb/auto';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { openPgliteStore, openPostgresStore } from './pg.ts';

/**
 * The engines a domain test runs over: the memory store and IndexedDB (fake-indexeddb in Node), each
 * opened fresh and empty, so one test body checks both (design: one test body per interface); in the
 * PGlite and PostgreSQL runs of the unit suites (`TESSERA_TEST_STORE=pglite` or `postgres`), PgStore there
 * instead.
 */
export const STORES: Record<string, () => Promise<Store>> =
  process.env.TESSERA_TEST_STORE === 'pglite'
    ? { 'PgStore (PGlite)': () => openPgliteStore() }
    : process.env.TESSERA_TEST_STORE === 'postgres'
      ? { 'PgStore (PostgreSQL)': () => openPostgresStore() }
      : {
        MemoryStore: async () => new MemoryStore(),
        'IdbStore (fake-indexeddb)': () => IdbStore.open(`unit-${crypto.randomUUID()}`),
      };
