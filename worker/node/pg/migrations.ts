/**
 * The PostgreSQL schema, as numbered migrations run at start: each instance that opens the database brings
 * it up to the newest version it knows, in one transaction, under an advisory lock (instances starting
 * together on one database take turns). A database migrated by a newer Tessera is refused, as the browser
 * refuses an IndexedDB of a newer version.
 *
 * Every collection is a table `(id text COLLATE "C" PRIMARY KEY, data json)`: the record as JSON text
 * (worker/node/pg/encode.ts). `json` rather than `jsonb`: jsonb reorders keys and cannot hold U+0000 in a
 * string, and records go back out exactly as they came in; nothing queries inside them. `COLLATE "C"` makes
 * key order byte order, as IndexedDB orders string keys (they differ only above U+FFFF).
 *
 * A collection added to worker/core/store/records.ts needs a migration here that creates its table (as
 * IndexedDB needs one in idb-store.ts); `migrate` says so when one is missing.
 */
import { LinkCarryOver } from '../../core/links/carry-over.ts';
import { POSITION_ID } from '../../core/links/link-records.ts';
import { COLLECTIONS, INDEXES, LINKED_KINDS, foldTag, type CollectionName, type IndexedCollection, type LinkRecord, type TagRecord } from '../../core/store/records.ts';
import type { Database, SqlClient } from './database.ts';
import { decodeRecord, encodeRecord } from './encode.ts';

export interface Migration {
  version: number;
  name: string;
  /** The statements, given the quoted schema name. */
  up(schema: string): string[];
  /** Record rewrites that need code, after the statements, in the same transaction. */
  data?(client: SqlClient, schema: string): Promise<void>;
}

/**
 * A collection's indexes (records.ts INDEXES) as columns beside `data`, one per index, named as the index
 * and filled from the record on every write, with a btree on `(column, id)`: the key order IndexedDB reads
 * an index in. Columns rather than expressions on `data` because `->>` fails on a string holding U+0000.
 */
export function indexColumns(c: CollectionName): { name: string; keyPath: string }[] {
  const indexes = (INDEXES as Record<string, Record<string, { keyPath: string }>>)[c] ?? {};
  return Object.entries(indexes).map(([name, { keyPath }]) => ({ name, keyPath }));
}

/** The record's key in an index column: its string field, or null (not indexed) when absent or not storable. */
export function indexKey(record: unknown, keyPath: string): string | null {
  const key = (record as Record<string, unknown>)[keyPath];
  return typeof key === 'string' && !key.includes('\0') ? key : null;
}

const table = (schema: string, name: string) =>
  `CREATE TABLE IF NOT EXISTS ${schema}.${quote(name)} (id text COLLATE "C" PRIMARY KEY, data json NOT NULL)`;

/** A collection's index columns and their btrees (see indexColumns). */
const indexStatements = (s: string, c: IndexedCollection) =>
  indexColumns(c).flatMap(({ name }) => [
    `ALTER TABLE ${s}.${quote(c)} ADD COLUMN IF NOT EXISTS ${quote(name)} text COLLATE "C"`,
    `CREATE INDEX IF NOT EXISTS ${quote(`${c}_${name}`)} ON ${s}.${quote(c)} (${quote(name)}, id)`,
  ]);

/** The collections version 3 indexed (INDEXES then). */
const INDEXED_IN_3 = ['activities', 'messages', 'tags', 'websites'] as const satisfies readonly IndexedCollection[];

/** Rows of a table in batches by id, so a big table is never all in memory at once. */
async function* batches(client: SqlClient, s: string, c: CollectionName): AsyncGenerator<{ ids: string[]; records: Record<string, unknown>[] }> {
  for (let after = ''; ; ) {
    const rows = await client.query<{ id: string; data: string }>(`SELECT id, data::text AS data FROM ${s}.${quote(c)} WHERE id > $1 ORDER BY id LIMIT 1000`, [after]);
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    yield { ids: rows.map((r) => r.id), records: rows.map((row) => decodeRecord<Record<string, unknown>>(row.data)) };
  }
}

/** Writes records back (the same ids), with their index columns. */
async function rewrite(client: SqlClient, s: string, c: CollectionName, records: readonly Record<string, unknown>[]): Promise<void> {
  const columns = indexColumns(c);
  const sets = ['data = v.data', ...columns.map(({ name }, i) => `${quote(name)} = v.k${i}`)].join(', ');
  const unnest = columns.map((_, i) => `, $${i + 3}::text[]`).join('');
  const keys = columns.map((_, i) => `, k${i}`).join('');
  await client.query(
    `UPDATE ${s}.${quote(c)} t SET ${sets} FROM unnest($1::text[], $2::json[]${unnest}) AS v(id, data${keys}) WHERE t.id = v.id`,
    [records.map((r) => r.id), records.map((r) => encodeRecord(r)), ...columns.map(({ keyPath }) => records.map((r) => indexKey(r, keyPath)))],
  );
}

/** Puts links (new or replacing), with their index columns. */
async function putLinks(client: SqlClient, s: string, links: readonly LinkRecord[]): Promise<void> {
  if (links.length === 0) return;
  const byId = new Map(links.map((l) => [l.id, l]));
  const unique = [...byId.values()];
  await client.query(
    `INSERT INTO ${s}.links (id, data, asset, other) SELECT * FROM unnest($1::text[], $2::json[], $3::text[], $4::text[])
     ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, asset = EXCLUDED.asset, other = EXCLUDED.other`,
    [unique.map((l) => l.id), unique.map((l) => encodeRecord(l)), unique.map((l) => indexKey(l, 'assetKey')), unique.map((l) => indexKey(l, 'otherKey'))],
  );
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'the collections of IndexedDB version 4, and the write lock function',
    up: (s) => [
      ...[
        'assets',
        'formats',
        'contents',
        'tags',
        'websites',
        'summaries',
        'persons',
        'annotations',
        'activities',
        'meta',
        'changes',
        'indexes',
        'snippets',
        'relevant',
        'conversations',
        'messages',
        'folders',
      ].map((name) => table(s, name)),
      // A write takes one transaction-scoped advisory lock per collection it names, in the order given
      // (sorted by the caller, so two writes never wait for each other): writes on disjoint collections run
      // side by side, as IndexedDB's readwrite transactions do, on every instance.
      `CREATE OR REPLACE FUNCTION ${s}.lock_collections(names text[]) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE n text;
        BEGIN
          FOREACH n IN ARRAY names LOOP
            PERFORM pg_advisory_xact_lock(hashtext(${literal(s)}), hashtext(n));
          END LOOP;
        END $$`,
    ],
  },
  {
    version: 2,
    name: 'idempotency keys (IndexedDB version 5)',
    up: (s) => [table(s, 'idempotency')],
  },
  {
    version: 3,
    name: 'indexes: activities by asset, messages by conversation, tags by folded text, websites by url (IndexedDB version 6)',
    up: (s) => INDEXED_IN_3.flatMap((c) => indexStatements(s, c)),
    async data(client, s) {
      for (const c of INDEXED_IN_3) {
        for await (const { records } of batches(client, s, c)) {
          // Tags gain the `folded` field their index reads.
          if (c === 'tags') for (const tag of records) tag.folded = foldTag((tag as unknown as TagRecord).text);
          await rewrite(client, s, c, records);
        }
      }
    },
  },
  {
    version: 4,
    name: 'links as records of their own, from the id arrays on both sides (IndexedDB version 7)',
    up: (s) => [table(s, 'links'), ...indexStatements(s, 'links')],
    // As IndexedDB's migration 7 does (core/links/carry-over.ts): the other sides first, then the assets.
    async data(client, s) {
      const carry = new LinkCarryOver();
      for (const kind of LINKED_KINDS) {
        for await (const { records } of batches(client, s, kind)) {
          const made = records.map((r) => carry.fromOther(kind, r as { id: string; assets?: string[] }));
          await rewrite(client, s, kind, made.map((m) => m.record));
          await putLinks(client, s, made.flatMap((m) => m.links));
        }
      }
      for await (const { records } of batches(client, s, 'assets')) {
        const assets = records as unknown as Parameters<LinkCarryOver['fromAsset']>[0][];
        const ids = assets.flatMap((a) => carry.linkIdsOf(a));
        const rows = ids.length === 0 ? [] : await client.query<{ data: string }>(`SELECT data::text AS data FROM ${s}.links WHERE id = ANY($1::text[])`, [ids]);
        const existing = new Map(rows.map((r) => decodeRecord<LinkRecord>(r.data)).map((l) => [l.id, l]));
        const made = assets.map((a) => carry.fromAsset(a, existing));
        await rewrite(client, s, 'assets', made.map((m) => m.record as unknown as Record<string, unknown>));
        await putLinks(client, s, made.flatMap((m) => m.links));
      }
      if (carry.next === undefined) return;
      await client.query(
        `INSERT INTO ${s}.meta (id, data) VALUES ($1, $2::json) ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data`,
        [POSITION_ID, encodeRecord({ id: POSITION_ID, value: carry.next })],
      );
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Brings `schema` up to SCHEMA_VERSION; returns the version it was at (0: new). */
export async function migrate(db: Database, schema: string): Promise<number> {
  const s = quote(schema);
  const lease = await db.lease();
  let from = 0;
  try {
    const { client } = lease;
    await client.query('BEGIN');
    try {
      // Instances starting together on one database take turns; the second finds the work done.
      if (!db.serial) await client.query(`SELECT pg_advisory_xact_lock(hashtext('tessera-migrate'), hashtext($1))`, [schema]);
      await client.script(
        `CREATE SCHEMA IF NOT EXISTS ${s};
         CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())`,
      );
      const [row] = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.schema_migrations`);
      from = row?.version ?? 0;
      if (from > SCHEMA_VERSION) {
        throw new Error(
          `The database schema ${schema} is at version ${from}, made by a newer Tessera; this one knows up to version ${SCHEMA_VERSION}. Update Tessera.`,
        );
      }
      for (const migration of MIGRATIONS) {
        if (migration.version <= from) continue;
        // One round trip per migration.
        const record = `INSERT INTO ${s}.schema_migrations (version, name) VALUES (${migration.version}, ${literal(migration.name)})`;
        await client.script([...migration.up(s), record].join(';\n'));
        await migration.data?.(client, s);
      }
      await checkTables(client, schema);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    lease.release();
  }
  return from;
}

async function checkTables(client: SqlClient, schema: string): Promise<void> {
  // pg_catalog, not information_schema: the views cost PGlite tens of ms a call.
  const rows = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [schema],
  );
  const present = new Set(rows.map((r) => r.name));
  const missing = COLLECTIONS.filter((c) => !present.has(c));
  if (missing.length > 0) {
    throw new Error(`No table for the collection(s) ${missing.join(', ')}: add a migration that creates it to worker/node/pg/migrations.ts.`);
  }
}
