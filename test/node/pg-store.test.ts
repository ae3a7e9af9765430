import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { addLink, assetsOf, linkedTo } from '../../worker/core/links/link-records.ts';
import type { SnippetRecord } from '../../worker/core/store/records.ts';
import { PgliteDatabase, PostgresDatabase, type Database } from '../../worker/node/pg/database.ts';
import { decodeRecord, encodeRecord } from '../../worker/node/pg/encode.ts';
import { quote, SCHEMA_VERSION } from '../../worker/node/pg/migrations.ts';
import { PgStore } from '../../worker/node/pg/pg-store.ts';
import { dropSchemas, pgliteTemplate, postgresUrl, testPglite, testPostgres, testSchema } from '../support/pg.ts';

describe('record encoding', () => {
  it('keeps what structured clone keeps: typed arrays, buffers, dates, maps, sets, undefined, -0, NaN, key order, U+0000', () => {
    const record = {
      id: 'x',
      zeta: 1,
      alpha: 'a\u0000b\ud800',
      vector: Int8Array.from([-128, -1, 0, 1, 127]),
      bytes: new Uint8Array([0, 255, 7]),
      floats: new Float32Array([1.5, Number.NaN, -0]),
      wide: new BigInt64Array([-(2n ** 63n), 5n]),
      buffer: new Uint8Array([9, 8, 7]).buffer,
      when: new Date('2026-01-02T03:04:05.678Z'),
      map: new Map<unknown, unknown>([['k', new Uint16Array([1, 2])], [2, { deep: new Set([1, 'two']) }]]),
      missing: undefined,
      list: [1, undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null],
      big: 12345678901234567890n,
      lookalike: { $t: 'Date', v: 0 },
      nested: { $t: 'o', v: { $t: 'u', v: 0 } },
    };
    const back = decodeRecord<typeof record>(encodeRecord(record));
    expect(back).toStrictEqual(record);
    expect(Object.keys(back)).toEqual(Object.keys(record));
    expect(back.vector).toBeInstanceOf(Int8Array);
    expect(back.buffer).toBeInstanceOf(ArrayBuffer);
    expect(Object.is(back.list[2], -0)).toBe(true);
    expect('missing' in back).toBe(true);
  });

  it('stores a Buffer as the Uint8Array it is, and refuses functions and symbols', () => {
    const back = decodeRecord<{ b: Uint8Array }>(encodeRecord({ b: Buffer.from('hi') }));
    expect(back.b.constructor).toBe(Uint8Array);
    expect([...back.b]).toEqual([104, 105]);
    expect(() => encodeRecord({ f: () => 1 })).toThrow(TypeError);
    expect(() => encodeRecord({ s: Symbol('s') })).toThrow(TypeError);
  });
});

interface Engine {
  name: string;
  open(schema?: string): Promise<PgStore>;
}

const schemas = new Set<string>();
const engines: Engine[] = [{ name: 'PGlite', open: async (schema = testSchema()) => PgStore.open(await testPglite(), { schema }) }];
const postgres = testPostgres('PgStore on PostgreSQL');
if (postgres) {
  engines.push({
    name: 'PostgreSQL',
    async open(schema = testSchema()) {
      schemas.add(schema);
      return PgStore.open(await postgres, { schema });
    },
  });
  afterAll(async () => {
    const db = await postgres;
    await dropSchemas(db, schemas);
    await db.close();
  });
}

const snippet = (id: string): SnippetRecord => ({
  id,
  updated: '2026-01-01T00:00:00.000Z',
  key: 'k',
  embedder: 'hashing-v1',
  snippets: [{ format: 'f', start: 0, end: 10, vector: Int8Array.from({ length: 384 }, (_, i) => (i % 255) - 127), scale: 12.5 }],
});

for (const engine of engines) {
  describe(`PgStore on ${engine.name}`, () => {
    it('round-trips a snippet record with its Int8Array vector, deep-equal', async () => {
      const store = await engine.open();
      await store.write((tx) => tx.put('snippets', snippet('a')));
      expect(await store.read((tx) => tx.get('snippets', 'a'))).toStrictEqual(snippet('a'));
      store.close();
    });

    it('one write of thousands of records (sent in batches) commits them all; getRange pages through them', async () => {
      const store = await engine.open();
      const ids = Array.from({ length: 2_500 }, (_, i) => `id-${String(i).padStart(5, '0')}`);
      await store.write(async (tx) => {
        for (const id of ids) await tx.put('meta', { id, value: { n: id, bytes: new Uint8Array([1, 2]) } });
        // Read-your-writes across the batch boundary, and deletes of staged and committed ids alike.
        expect(await tx.count('meta')).toBe(2_500);
        await tx.delete('meta', ids[0]!);
      });
      expect(await store.read((tx) => tx.count('meta'))).toBe(2_499);
      const seen: string[] = [];
      for (let after: string | undefined; ; ) {
        const page = await store.read((tx) => tx.getRange('meta', after, 700));
        if (page.length === 0) break;
        seen.push(...page.map((r) => r.id));
        after = page.at(-1)!.id;
      }
      expect(seen).toEqual(ids.slice(1));
      expect(await store.read((tx) => tx.getMany('meta', [ids[5]!, ids[5]!, 'nope', ids[1]!]))).toHaveLength(3);
      store.close();
    });

    it('a write whose function opens another transaction ends there (as IndexedDB) instead of waiting on it', async () => {
      const store = await engine.open();
      let later: unknown;
      const inner = await store.write(async (tx) => {
        await tx.put('meta', { id: 'a', value: 1 });
        const seen = await store.read((t) => t.get('meta', 'a'));
        later = await tx.put('meta', { id: 'b', value: 1 }).catch((error: Error) => error.name);
        return seen;
      });
      expect(inner?.value).toBe(1);
      expect(later).toBe('TransactionInactiveError');
      expect(await store.read((tx) => tx.get('meta', 'b'))).toBeUndefined();
      store.close();
    });

    it('ids and values with quotes, backslashes, braces, commas and $n read back exactly (PGlite inlines them)', async () => {
      const store = await engine.open();
      const ids = [`a'b`, 'c\\d', 'e"f', '{g,h}', 'i $1 $2', "j''k", 'l\'m', 'naïve ☃ 𝄞', 'NULL', ''];
      await store.write(async (tx) => {
        for (const id of ids) await tx.put('meta', { id, value: `${id}'"\\$1` });
      });
      for (const id of ids) expect((await store.read((tx) => tx.get('meta', id)))?.value).toBe(`${id}'"\\$1`);
      const many = await store.read((tx) => tx.getMany('meta', ids));
      expect(many.map((r) => r.id)).toEqual(ids);
      const all = await store.read((tx) => tx.getAll('meta'));
      expect(new Set(all.map((r) => r.id))).toEqual(new Set(ids));
      expect(await store.read((tx) => tx.getRange('meta', `a'b`, 100))).toHaveLength(ids.filter((id) => id > `a'b`).length);
      await store.write(async (tx) => {
        for (const id of ids) await tx.delete('meta', id);
      });
      expect(await store.read((tx) => tx.count('meta'))).toBe(0);
      store.close();
    });

    it('stores in different schemas of one database are separate libraries', async () => {
      const [a, b] = [await engine.open(), await engine.open()];
      await a.write((tx) => tx.put('meta', { id: 'k', value: 'a' }));
      expect(await b.read((tx) => tx.get('meta', 'k'))).toBeUndefined();
      a.close();
      b.close();
    });

    it('a schema as version 2 left it (no index columns, tags without their index key) migrates with every record intact and found by index, in batches', async () => {
      const schema = testSchema();
      const stamp = '2026-01-01T00:00:00.000Z';
      const tag = { id: 't', text: 'MixedCase', category: 'UNKNOWN' as const, created: stamp, updated: stamp, mechanisms: {}, assets: [] };
      const first = await engine.open(schema);
      await first.write(async (tx) => {
        await tx.put('tags', { ...tag, folded: 'mixedcase' });
        await tx.put('websites', { id: 'w', url: 'https://example.com/\u0000', name: 'w', created: stamp, updated: stamp, mechanisms: {}, assets: [] } as never);
        // More than one batch of the migration (1,000 rows).
        for (let i = 0; i < 1005; i++) {
          await tx.put('activities', { id: `a${String(i).padStart(4, '0')}`, asset: 'x', created: stamp, updated: stamp, event: {}, application: {} as never, mechanism: 'AUTOMATIC' });
        }
      });
      // Back to version 2: the index columns gone, the tag as version 2 wrote it.
      const s = quote(schema);
      const lease = await first.db.lease();
      for (const [table, column] of [['activities', 'asset'], ['messages', 'conversation'], ['tags', 'folded'], ['websites', 'url']]) {
        await lease.client.query(`ALTER TABLE ${s}.${quote(table!)} DROP COLUMN ${quote(column!)}`);
      }
      await lease.client.query(`UPDATE ${s}.tags SET data = $1::json`, [encodeRecord(tag)]);
      await lease.client.query(`DELETE FROM ${s}.schema_migrations WHERE version > 2`);
      lease.release();
      first.close();

      const store = await engine.open(schema);
      // Version 4 took the id array off the tag (links are records of their own).
      const { assets: _, ...stored } = tag;
      expect(await store.read((tx) => tx.get('tags', 't'))).toEqual({ ...stored, folded: 'mixedcase' });
      expect((await store.read((tx) => tx.getAllFromIndex('tags', 'folded', 'mixedcase'))).map((t) => t.id)).toEqual(['t']);
      // A key PostgreSQL text cannot hold (U+0000) is not in the index; the record is intact.
      expect((await store.read((tx) => tx.get('websites', 'w')))?.url).toBe('https://example.com/\u0000');
      expect(await store.read((tx) => tx.countFromIndex('websites', 'url', {}))).toBe(0);
      expect(await store.read((tx) => tx.countFromIndex('activities', 'asset', 'x'))).toBe(1005);
      store.close();
    });

    it('a schema as version 3 left it (links as id arrays on both sides) migrates to link records, each side in its order, in batches', async () => {
      const schema = testSchema();
      const stamp = '2026-01-01T00:00:00.000Z';
      const asset = (id: string, tags: string[]) =>
        ({ id, creator: 'c', created: stamp, updated: stamp, mechanism: 'MANUAL', original: 'f', preview: { base: 'f' }, formats: [], annotations: [], activities: [], score: {}, pseudo: false, tags, websites: [], summaries: [], persons: [], conversations: [] }) as never;
      // More assets than one batch of the migration (1,000 rows), every one tagged 'many'; 'b' names 'few' before 'many'.
      const ids = Array.from({ length: 1005 }, (_, i) => `a${String(i).padStart(4, '0')}`);
      const tag = (id: string, assets: string[]) => ({ id, text: id, folded: id, category: 'UNKNOWN', created: stamp, updated: stamp, mechanisms: {}, assets }) as never;
      const first = await engine.open(schema);
      await first.write(async (tx) => {
        await tx.put('tags', tag('many', [...ids].reverse()));
        await tx.put('tags', tag('few', ['a0001']));
        for (const id of ids) await tx.put('assets', asset(id, id === 'a0001' ? ['few', 'many'] : ['many']));
      });
      const s = quote(schema);
      const lease = await first.db.lease();
      await lease.client.query(`DROP TABLE ${s}.links`);
      await lease.client.query(`DELETE FROM ${s}.schema_migrations WHERE version > 3`);
      lease.release();
      first.close();

      const store = await engine.open(schema);
      const got = await store.read(async (tx) => ({
        many: await assetsOf(tx, 'tags', 'many'),
        newest: await assetsOf(tx, 'tags', 'many', 2),
        b: await linkedTo(tx, 'a0001', 'tags'),
        links: await tx.count('links'),
        tag: await tx.get('tags', 'few'),
        asset: await tx.get('assets', 'a0001'),
      }));
      expect(got.many).toEqual([...ids].reverse());
      expect(got.newest).toEqual(['a0001', 'a0000']);
      expect(got.b).toEqual(['few', 'many']);
      expect(got.links).toBe(1006);
      expect(Object.keys(got.tag!)).not.toContain('assets');
      expect(Object.keys(got.asset!)).not.toContain('tags');
      // A link made now comes after every one carried over.
      await store.write(async (tx) => {
        await tx.put('assets', { ...got.asset!, id: 'new' });
        await addLink(tx, 'tags', 'many', 'new');
      });
      expect((await store.read((tx) => assetsOf(tx, 'tags', 'many'))).at(-1)).toBe('new');
      store.close();
    });

    it('refuses a schema a newer Tessera migrated, and a closed store', async () => {
      const schema = testSchema();
      const store = await engine.open(schema);
      await store.db.lease().then(async (lease) => {
        await lease.client.query(`INSERT INTO ${quote(schema)}.schema_migrations (version, name) VALUES ($1, 'future')`, [SCHEMA_VERSION + 1]);
        lease.release();
      });
      await expect(engine.open(schema)).rejects.toThrow(/newer Tessera/);
      store.close();
      await expect(store.read((tx) => tx.count('meta'))).rejects.toThrow(/closed/);
    });
  });
}

const droppedUrl = postgresUrl('PgStore when PostgreSQL drops its connection');
describe.skipIf(!droppedUrl)('PgStore when PostgreSQL drops its connection', () => {
  it('a write cut off is a 503 that commits nothing; the next one works on a new connection', async () => {
    const url = new URL(droppedUrl!);
    const name = `tessera_victim_${process.pid}`;
    url.searchParams.set('application_name', name);
    const db = await PostgresDatabase.open({ url: url.href, max: 1 });
    const admin = await PostgresDatabase.open({ url: droppedUrl! });
    const schema = testSchema();
    try {
      const store = await PgStore.open(db, { schema });
      const failed = await store
        .write(async (tx) => {
          await tx.put('meta', { id: 'lost', value: 1 });
          await tx.count('meta');
          // Not awaited (that would end the transaction): the connection is killed while it is in use.
          void admin.pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
          for (const end = Date.now() + 10_000; Date.now() < end; ) await tx.count('meta');
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failed).toMatchObject({ status: 503, code: 'storage_unavailable' });
      await store.write((tx) => tx.put('meta', { id: 'next', value: 1 }));
      expect(await store.read((tx) => tx.getAll('meta'))).toEqual([{ id: 'next', value: 1 }]);
    } finally {
      await dropSchemas(admin, [schema]);
      await db.close();
      await admin.close();
    }
  });
});

const queuedUrl = postgresUrl('PgStore reads asked side by side on PostgreSQL');
describe.skipIf(!queuedUrl)('PgStore reads asked side by side on PostgreSQL', () => {
  it('runs one query at a time on a connection, not on node-postgres\'s queue of a busy client (deprecated, gone in pg@9)', async () => {
    const db = await PostgresDatabase.open({ url: queuedUrl!, max: 2 });
    const schema = testSchema();
    /** The most queries seen under way at once on any one connection. */
    let most = 0;
    const connect = db.pool.connect.bind(db.pool) as (...args: unknown[]) => Promise<pg.PoolClient>;
    // The promise form is what a transaction's lease takes; the callback form (pool.query) is left as it is.
    db.pool.connect = (async (...args: unknown[]) => {
      if (args.length > 0) return connect(...args);
      const connection = await connect();
      let running = 0;
      const query = connection.query.bind(connection) as (...args: unknown[]) => Promise<unknown>;
      connection.query = (async (...args: unknown[]) => {
        most = Math.max(most, ++running);
        try {
          return await query(...args);
        } finally {
          running--;
        }
      }) as typeof connection.query;
      return connection;
    }) as typeof db.pool.connect;
    try {
      const store = await PgStore.open(db, { schema });
      await store.write((tx) => Promise.all([tx.put('meta', { id: 'a', value: 1 }), tx.put('tags', { id: 't', text: 't', folded: 't', category: 'UNKNOWN', created: '', updated: '', mechanisms: {} })]));
      const [meta, tags, links] = await store.read((tx) => Promise.all([tx.getAll('meta'), tx.getAll('tags'), tx.getAll('links')]));
      expect([meta.length, tags.length, links.length]).toEqual([1, 1, 0]);
      expect(most).toBe(1);
    } finally {
      await dropSchemas(db, [schema]);
      await db.close();
    }
  });
});

describe('PGlite in a data folder', () => {
  it('keeps committed writes across a close and reopen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tessera-pglite-'));
    let db: Database = await PgliteDatabase.open({ dataDir: dir, loadDataDir: await pgliteTemplate() });
    try {
      let store = await PgStore.open(db);
      await store.write((tx) => tx.put('snippets', snippet('kept')));
      await db.close();
      db = await PgliteDatabase.open({ dataDir: dir });
      store = await PgStore.open(db);
      expect(await store.read((tx) => tx.get('snippets', 'kept'))).toStrictEqual(snippet('kept'));
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
