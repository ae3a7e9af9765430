/**
 * PgStores for tests: on PGlite (one per test file, started from a data-folder tarball cached under
 * node_modules/.cache, so initdb runs once per machine instead of seconds per file), each store in a
 * schema of its own; and on the PostgreSQL server of `DATABASE_URL`, when it is set.
 */
import { join } from 'node:path';
import { PgliteDatabase, PostgresDatabase } from '../../worker/node/pg/database.ts';
import { PgStore, type PgStoreOptions } from '../../worker/node/pg/pg-store.ts';
import { pgliteTemplate } from './pglite-template.ts';

export { pgliteTemplate };

let pglite: Promise<PgliteDatabase> | undefined;

/** This test file's in-memory PGlite (closed after the file: closeFileDatabases). */
export function testPglite(): Promise<PgliteDatabase> {
  pglite ??= pgliteTemplate().then((loadDataDir) => PgliteDatabase.open({ loadDataDir }));
  return pglite;
}

/**
 * The URL of the PostgreSQL server the PostgreSQL part of a test file (`what`) runs on: DATABASE_URL. Never
 * a silent skip: without it, under CI (whose .ci/run always starts PostgreSQL and sets it) this throws,
 * failing the file; elsewhere it says on stderr what is skipped and how to run it, and answers undefined.
 */
export function postgresUrl(what: string): string | undefined {
  const url = process.env.DATABASE_URL;
  if (url) return url;
  if (process.env.CI) throw new Error(`DATABASE_URL is not set, so ${what} cannot run: .ci/run must start PostgreSQL (scripts/postgres.sh) and export it`);
  console.warn(`SKIPPED without DATABASE_URL: ${what}. To run it: export DATABASE_URL="$(sudo bash scripts/postgres.sh)"`);
  return undefined;
}

let postgres: Promise<PostgresDatabase> | undefined;

/** The PostgreSQL server of DATABASE_URL for `what` (see postgresUrl: undefined, said, when it is not set). */
export function testPostgres(what: string): Promise<PostgresDatabase> | undefined {
  const url = postgresUrl(what);
  if (!url) return undefined;
  postgres ??= PostgresDatabase.open({ url });
  return postgres;
}

let n = 0;

/** A fresh schema name, unique across processes and runs. */
export function testSchema(prefix = 't'): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${++n}`;
}

/** The stores this file opened with the two functions below, closed before their database (closeFileDatabases). */
const fileStores = new Set<PgStore>();

function kept(store: PgStore): PgStore {
  fileStores.add(store);
  return store;
}

/** A new, empty PgStore on this file's PGlite. */
export async function openPgliteStore(options: PgStoreOptions = {}): Promise<PgStore> {
  return kept(await PgStore.open(await testPglite(), { schema: testSchema(), ...options }));
}

const suiteSchemas = new Set<string>();

/**
 * A new, empty PgStore on the PostgreSQL server of DATABASE_URL (`TESSERA_TEST_STORE=postgres`); its
 * schema is dropped after the test file.
 */
export async function openPostgresStore(): Promise<PgStore> {
  const db = testPostgres('the route and domain suites on PostgreSQL');
  if (!db) throw new Error('TESSERA_TEST_STORE=postgres needs DATABASE_URL (see scripts/postgres.sh)');
  const schema = testSchema('tu');
  suiteSchemas.add(schema);
  return kept(await PgStore.open(await db, { schema }));
}

/**
 * After each test file (test/support/per-file.ts): closes the file's stores (a background save of an index
 * then fails quietly, as on a host's shutdown, instead of warning that the database is closed), drops the
 * schemas of the route and domain suites' stores and closes the PGlite, and the PostgreSQL pool of
 * `TESSERA_TEST_STORE=postgres` (a file that calls testPostgres itself closes that one), then forgets
 * both: a vitest worker runs many files one after another (vitest.config.ts), and the next file opens its own.
 */
export async function closeFileDatabases(): Promise<void> {
  const [lite, server, schemas] = [pglite, postgres, [...suiteSchemas]];
  pglite = undefined;
  postgres = undefined;
  suiteSchemas.clear();
  for (const store of fileStores) store.close();
  fileStores.clear();
  if (server && process.env.TESSERA_TEST_STORE === 'postgres') {
    const db = await server;
    await dropSchemas(db, schemas);
    await db.close();
  }
  if (lite) await (await lite).close();
}

/** Drops the schemas the given stores used (PostgreSQL tests clean up after themselves). */
export async function dropSchemas(db: PostgresDatabase, schemas: Iterable<string>): Promise<void> {
  for (const schema of schemas) await db.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/**
 * A new temporary Tessera data folder whose PGlite is already initialised (from the template), so a host
 * started on it skips initdb (seconds); `remove()` deletes it.
 */
export async function preparedDataDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(join(tmpdir(), 'tessera-data-'));
  const db = await PgliteDatabase.open({ dataDir: join(dir, 'pglite'), loadDataDir: await pgliteTemplate() });
  await db.close();
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
