import { afterAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../worker/core/deps.ts';
import { commit } from '../../worker/core/feed/commit.ts';
import type { ChangeEvent } from '../../worker/core/feed/feed.ts';
import { HeardChanges } from '../../worker/core/feed/heard.ts';
import { WrittenAssets } from '../../worker/core/feed/written.ts';
import { LogFeed } from '../../worker/node/log-feed.ts';
import { PostgresDatabase } from '../../worker/node/pg/database.ts';
import { PgListener } from '../../worker/node/pg/listen.ts';
import { PgStore } from '../../worker/node/pg/pg-store.ts';
import { dropSchemas, openPgliteStore, postgresUrl, testSchema } from '../support/pg.ts';

/** What `commit` uses of a ServiceContext, one for each feed. */
const contexts = new WeakMap<LogFeed, ServiceContext>();
function contextOf(store: PgStore, feed: LogFeed): ServiceContext {
  let ctx = contexts.get(feed);
  if (!ctx) contexts.set(feed, (ctx = { store, feed, heard: new HeardChanges(feed), written: new WrittenAssets() } as unknown as ServiceContext));
  return ctx;
}

/** Commits a change to `asset` through the core's commit (change log, seq, publish after commit). */
function change(store: PgStore, feed: LogFeed, asset: string, kind: ChangeEvent['kind'] = 'created') {
  return commit(contextOf(store, feed), async (tx, log) => {
    await tx.put('meta', { id: `touched-${asset}`, value: kind });
    log[kind](asset);
  }, []);
}

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('LogFeed (one instance, PGlite)', () => {
  it('delivers this process’s commits at once, in seq order', async () => {
    const store = await openPgliteStore();
    const feed = await LogFeed.start(store);
    const seen: number[] = [];
    feed.subscribe((e) => seen.push(e.seq));
    await change(store, feed, 'a');
    expect(seen).toEqual([1]);
    await Promise.all(['b', 'c', 'd'].map((asset) => change(store, feed, asset)));
    await feed.settled();
    expect(seen).toEqual([1, 2, 3, 4]);
    feed.close();
  });

  it('fills a gap from the change log: an event ahead of the last delivered one brings the missing ones first', async () => {
    const store = await openPgliteStore();
    const feed = await LogFeed.start(store);
    // Another writer's feed (as another instance would be): its commits reach our log, not our feed.
    const other = await LogFeed.start(store);
    const seen: ChangeEvent[] = [];
    feed.subscribe((e) => seen.push(e));
    await change(store, other, 'x');
    await change(store, other, 'y', 'updated');
    await change(store, feed, 'z', 'deleted');
    await feed.settled();
    expect(seen).toEqual([
      { seq: 1, asset: 'x', kind: 'created' },
      { seq: 2, asset: 'y', kind: 'updated' },
      { seq: 3, asset: 'z', kind: 'deleted' },
    ]);
    // A poke with nothing new delivers nothing; one after another writer's commit delivers it.
    feed.poke();
    await feed.settled();
    expect(seen).toHaveLength(3);
    await change(store, other, 'w');
    feed.poke();
    await feed.settled();
    expect(seen.map((e) => e.asset)).toEqual(['x', 'y', 'z', 'w']);
    feed.close();
    other.close();
  });
});

const url = postgresUrl('LogFeed with LISTEN/NOTIFY on PostgreSQL');
describe.skipIf(!url)('LogFeed with LISTEN/NOTIFY (two instances on PostgreSQL)', () => {
  const schemas = new Set<string>();
  const closers: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    const db = await PostgresDatabase.open({ url: url! });
    await dropSchemas(db, schemas);
    await db.close();
  });

  /** A feed's LISTEN session as the host makes it (storage.ts), without its poll: only NOTIFY and (re)connects read the log. */
  function listenerOf(schema: string, feed: LogFeed, applicationName?: string) {
    const target = new URL(url!);
    if (applicationName) target.searchParams.set('application_name', applicationName);
    return new PgListener({
      url: target.href,
      channels: { tessera_changes: (payload) => payload === schema && feed.poke() },
      onConnect: () => feed.poke(),
    });
  }

  async function instance(schema: string, applicationName?: string) {
    const db = await PostgresDatabase.open({ url: url! });
    const store = await PgStore.open(db, { schema, notify: 'tessera_changes' });
    const feed = await LogFeed.start(store);
    const listener = listenerOf(schema, feed, applicationName);
    await listener.start();
    closers.push(async () => {
      listener.close();
      feed.close();
      await db.close();
    });
    return { db, store, feed, listener };
  }

  it('a commit on A reaches B’s feed within a second, through NOTIFY; what B missed while not listening is caught up', async () => {
    const schema = testSchema();
    schemas.add(schema);
    const a = await instance(schema);
    const b = await instance(schema);
    const seen: ChangeEvent[] = [];
    b.feed.subscribe((e) => seen.push(e));
    const t0 = performance.now();
    await change(a.store, a.feed, 'first');
    await until(() => seen.length === 1, 1000);
    const ms = performance.now() - t0;
    expect(seen[0]).toEqual({ seq: 1, asset: 'first', kind: 'created' });
    expect(ms).toBeLessThan(1000);

    // B stops listening (a dropped connection): A's commits go unannounced to B...
    b.listener.close();
    await change(a.store, a.feed, 'second');
    await change(a.store, a.feed, 'third');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(1);
    // ...and are delivered, in order, when B listens again (a reconnect reads the log).
    const again = listenerOf(schema, b.feed);
    await again.start();
    closers.push(() => again.close());
    await until(() => seen.length === 3);
    expect(seen.map((e) => [e.seq, e.asset])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, 'third'],
    ]);
  });

  it('its session killed (pg_terminate_backend), the listener connects again by itself and catches up what was committed meanwhile', async () => {
    const schema = testSchema();
    schemas.add(schema);
    const name = `tessera_listener_${process.pid}`;
    const a = await instance(schema);
    const b = await instance(schema, name);
    const admin = await PostgresDatabase.open({ url: url! });
    closers.push(() => admin.close());
    const seen: string[] = [];
    b.feed.subscribe((e) => seen.push(e.asset));
    await change(a.store, a.feed, 'before');
    await until(() => seen.length === 1);

    // Killed until a commit lands while B has no session (B reconnects after 100 ms, so the first try
    // almost always does): that commit's NOTIFY reached nobody, and only the reconnect's read of the log
    // can deliver it.
    let missed: string | undefined;
    for (let attempt = 0; attempt < 5 && !missed; attempt++) {
      const killed = b.listener.session!;
      const { rows } = await admin.pool.query('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1', [name]);
      expect(rows).toEqual([{ done: true }]);
      await until(() => b.listener.session !== killed, 5000);
      const gone = b.listener.session === undefined;
      await change(a.store, a.feed, `meanwhile-${attempt}`);
      if (gone && b.listener.session === undefined) missed = `meanwhile-${attempt}`;
      await until(() => b.listener.session !== undefined && b.listener.session !== killed, 10_000);
    }
    expect(missed).toBeDefined();
    await until(() => seen.includes(missed!), 5000);
    // And the new session hears NOTIFY again (no poll runs here).
    await change(a.store, a.feed, 'after');
    await until(() => seen.includes('after'), 5000);
    expect(seen.filter((asset) => asset.startsWith('meanwhile') || asset === 'after')).toEqual([...seen.slice(1)]);
    expect(seen.at(-1)).toBe('after');
  });

  it('only the library of its own schema is announced', async () => {
    const [one, two] = [testSchema(), testSchema()];
    schemas.add(one).add(two);
    const a = await instance(one);
    const b = await instance(two);
    let pokes = 0;
    const poke = b.feed.poke.bind(b.feed);
    b.feed.poke = () => {
      pokes++;
      poke();
    };
    await change(a.store, a.feed, 'elsewhere');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pokes).toBe(0);
  });
});
