import { describe, expect, it } from 'vitest';
import { changesSince, commit } from '../../worker/core/feed/commit.ts';
import { MemoryFeed, type ChangeEvent } from '../../worker/core/feed/feed.ts';
import { HeardChanges } from '../../worker/core/feed/heard.ts';
import { withDefaults, type ServiceContext } from '../../worker/core/deps.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { testClassifier } from '../support/classifier.ts';
import { writeUnderWay } from '../support/write-under-way.ts';
import { fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';
import { searchIndexFor } from '../../worker/core/search/search-index.ts';
import { searchAssets } from '../../worker/core/search/service.ts';

const event = (seq: number, asset = `a${seq}`): ChangeEvent => ({ seq, asset, kind: 'created' });

/** Counts the store's reads that include the change log. */
function countLogReads(store: Store): { count: number } {
  const counter = { count: 0 };
  const read = store.read.bind(store);
  store.read = ((fn: never, scope?: readonly CollectionName[]) => {
    if (!scope || scope.includes('changes')) counter.count++;
    return read(fn, scope);
  }) as Store['read'];
  return counter;
}

describe('the change events a context heard (feed/heard.ts)', () => {
  it('gives the events after a seq while they follow on without a gap, whatever order they arrived in', () => {
    const feed = new MemoryFeed();
    const heard = new HeardChanges(feed);
    expect(heard.since(0)).toEqual([]);
    feed.publish([event(1), event(3), event(2)]);
    expect(heard.since(0)!.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(heard.since(2)).toEqual([event(3)]);
    expect(heard.since(3)).toEqual([]);
    feed.publish([event(5)]);
    expect(heard.since(3)).toBeUndefined();
    expect(heard.since(4)).toEqual([event(5)]);
  });

  it('keeps the newest 10,000: a reader further behind is sent to the log', () => {
    const feed = new MemoryFeed();
    const heard = new HeardChanges(feed);
    feed.publish(Array.from({ length: 10_005 }, (_, i) => event(i + 1)));
    expect(heard.since(4)).toBeUndefined();
    expect(heard.since(5)).toHaveLength(10_000);
  });

  it('answers every change from the first only when seq 1 on was heard without a gap', () => {
    const feed = new MemoryFeed();
    const heard = new HeardChanges(feed);
    // Nothing heard: no history at all, not an empty one.
    expect(heard.fromTheStart()).toBeUndefined();
    feed.publish([event(1), event(2)]);
    expect(heard.fromTheStart()!.map((e) => e.seq)).toEqual([1, 2]);
    feed.publish([event(4)]);
    expect(heard.fromTheStart()).toBeUndefined();
    const late = new HeardChanges(feed);
    feed.publish([event(5)]);
    expect(late.fromTheStart()).toBeUndefined();
    expect(late.since(4)).toEqual([event(5)]);
  });

  it('says a write is under way until it settles, failed or not', async () => {
    const heard = new HeardChanges(new MemoryFeed());
    let end!: () => void;
    const running = heard.during(() => new Promise<void>((resolve) => (end = resolve)));
    const failing = heard.during(async () => {
      throw new Error('no');
    });
    await expect(failing).rejects.toThrow('no');
    expect(heard.writing).toBe(true);
    end();
    await running;
    expect(heard.writing).toBe(false);
  });
});

describe('changesSince while a write of this context is under way', () => {
  async function contexts() {
    const store = new MemoryStore();
    const classifier = await testClassifier();
    const ctx = withDefaults({ store, feed: new MemoryFeed(), classifier });
    // Another tab or instance on the same library: its events are not heard by `ctx`.
    const other = withDefaults({ store, feed: new MemoryFeed(), classifier });
    const logReads = countLogReads(store);
    return { ctx, other, logReads };
  }
  const create = (ctx: ServiceContext, asset: string) => commit(ctx, async (_tx, log) => log.created(asset), []);

  it('answers from the events heard, as the log has them, without reading the log', async () => {
    const { ctx, logReads } = await contexts();
    await create(ctx, 'a');
    await create(ctx, 'b');
    const fromLog = await changesSince(ctx, 0);
    expect(logReads.count).toBe(1);
    const end = writeUnderWay(ctx);
    expect(await changesSince(ctx, 0)).toEqual(fromLog);
    expect(await changesSince(ctx, 2)).toEqual([]);
    expect(logReads.count).toBe(1);
    end();
  });

  it('reads the log when a change was not heard, and when no write of its own is under way', async () => {
    const { ctx, other, logReads } = await contexts();
    await create(ctx, 'a');
    await create(other, 'b');
    await create(ctx, 'c');
    const end = writeUnderWay(ctx);
    // seq 2 (the other context's) was not heard: the log has it.
    expect((await changesSince(ctx, 0))!.map((e) => e.asset)).toEqual(['a', 'b', 'c']);
    expect(logReads.count).toBe(1);
    end();
    await Promise.resolve();
    // Nothing of its own under way: another context's newest commit is found in the log, not missed.
    await create(other, 'd');
    expect((await changesSince(ctx, 3))!.map((e) => e.asset)).toEqual(['d']);
    expect(logReads.count).toBe(2);
  });
});

describe('a search while this context imports', () => {
  it('answers without waiting for the import, with every write acknowledged before it', async () => {
    const api = await createTestApi();
    await api.create(fragmentSeed('def parse_config(path):\n    return load_yaml(path)\n'));
    expect((await api.get('/assets/search?query=parse_config&assets=false')).json().iterable).toHaveLength(1);
    // Saved now: on PGlite (one connection) a save under way when the import begins would wait for it.
    await searchIndexFor(api.ctx).flush();
    // Acknowledged, and not yet in the index.
    const later = await api.create(fragmentSeed('def render_invoice(order):\n    return template(order)\n'));
    // The search goes out as the import's write begins.
    const heard = api.ctx.heard;
    const during = heard.during.bind(heard);
    let writeBegan!: () => void;
    const began = new Promise<void>((resolve) => (writeBegan = resolve));
    heard.during = (write) => during(() => (writeBegan(), write()));
    let imported = false;
    const seeds = Array.from({ length: 300 }, (_, i) => fragmentSeed(`def handler_${i}(event):\n    return dispatch_${i}(event)\n`));
    const importing = api.post('/assets/import', { iterable: seeds }).then((reply) => {
      imported = true;
      return reply;
    });
    await began;
    // In IndexedDB a read of the change log would wait for the import's transaction (TESSERA_TEST_STORE=idb).
    // Called in process: over HTTP on PGlite, whose queries run on this thread, the request would not even
    // be taken before the import's queries are done.
    const found = (await searchAssets(api.ctx, { query: 'render_invoice' }, { assets: false })).iterable;
    expect(imported).toBe(false);
    expect(found.map((hit: { identifier: string }) => hit.identifier)).toEqual([later.id]);
    expect((await importing).status).toBe(200);
    const afterwards = (await api.get('/assets/search?query=handler_7&assets=false')).json().iterable;
    expect(afterwards.length).toBeGreaterThan(0);
  });
});
