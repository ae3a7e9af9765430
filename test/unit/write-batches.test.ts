import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { changesSince, commit, loggedChanges, readSeq } from '../../worker/core/feed/commit.ts';
import { MemoryFeed, type ChangeEvent } from '../../worker/core/feed/feed.ts';
import { notFound } from '../../worker/core/errors.ts';
import type { Store, WriteTx } from '../../worker/core/store/store.ts';
import { batchedWrite } from '../../worker/core/store/write-batches.ts';
import { testClassifier } from '../support/classifier.ts';
import { STORES } from '../support/stores.ts';

/** A store that counts the transactions it is asked for. */
function counting(store: Store): Store & { writes: number } {
  const counted = {
    writes: 0,
    read: store.read.bind(store),
    write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: Parameters<Store['write']>[1]) {
      counted.writes++;
      return store.write(fn, scope);
    },
    close: () => store.close(),
    get closed() {
      return store.closed;
    },
  };
  return counted;
}

async function contextOn(open: () => Promise<Store>) {
  const store = counting(await open());
  const feed = new MemoryFeed();
  const events: ChangeEvent[] = [];
  feed.subscribe((event) => events.push(event));
  return { store, events, ctx: withDefaults({ store, feed, classifier: await testClassifier() }) };
}

/** A user write through `commit` that puts the record `name` (and logs a change of an asset `name`). */
const putRecord = (ctx: ReturnType<typeof withDefaults>, name: string) =>
  commit(ctx, async (tx, log) => {
    await tx.put('meta', { id: `record ${name}`, value: name });
    log.updated(name);
    return name;
  }, ['meta']);
const records = (store: Store, names: string[]) => store.read((tx) => tx.getMany('meta', names.map((name) => `record ${name}`)));

describe.each(Object.entries(STORES))('user writes that wait share a transaction (%s)', (_, open) => {
  it('a write alone runs at once in its own transaction', async () => {
    const { store, ctx } = await contextOn(open);
    expect(await putRecord(ctx, 'a')).toBe('a');
    expect(store.writes).toBe(1);
  });

  it('writes issued together commit in fewer transactions, each with its own result, events in order', async () => {
    const { store, ctx, events } = await contextOn(open);
    const names = Array.from({ length: 12 }, (_, i) => `t${i}`);
    expect(await Promise.all(names.map((name) => putRecord(ctx, name)))).toEqual(names);
    expect(store.writes).toBeLessThan(names.length);
    expect(store.writes).toBeGreaterThanOrEqual(2);
    expect(events.map((e) => e.asset)).toEqual(names);
    expect(events.map((e) => e.seq)).toEqual(names.map((_, i) => i + 1));
    expect(await store.read((tx) => readSeq(tx))).toBe(12);
    expect((await records(store, names)).map((r) => r.value)).toEqual(names);
    // One change-log entry a transaction, not one a write: their changes in order, numbered without a gap.
    const entries = await store.read((tx) => tx.getAll('changes'));
    expect(entries).toHaveLength(store.writes);
    expect(loggedChanges(entries).map((c) => [c.seq, c.asset])).toEqual(names.map((name, i) => [i + 1, name]));
    expect(await changesSince(ctx, 3)).toEqual(events.slice(3));
  });

  it('one failing write fails alone: the others commit once, nothing of the failing one is kept', async () => {
    const { store, ctx, events } = await contextOn(open);
    await putRecord(ctx, 'first');
    const writes = ['x0', 'x1', 'bad', 'x3', 'x4'].map((name) =>
      name === 'bad'
        ? commit(ctx, async (tx, log) => {
            await tx.put('meta', { id: 'record half-done', value: 'half-done' });
            log.updated('half-done');
            throw notFound('asset', 'missing');
          }, ['meta'])
        : putRecord(ctx, name),
    );
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ status: 404 });
    expect(await records(store, ['half-done'])).toEqual([]);
    expect((await records(store, ['x0', 'x1', 'x3', 'x4'])).map((r) => r.value)).toEqual(['x0', 'x1', 'x3', 'x4']);
    // Each committed write's change is logged and published exactly once, none for the failed one.
    expect(events.map((e) => e.asset)).toEqual(['first', 'x0', 'x1', 'x3', 'x4']);
    expect(await store.read((tx) => readSeq(tx))).toBe(5);
  });

  it('a shared transaction that one write ended early (it awaited a timer) is not run again: no write applies twice', async () => {
    const { ctx } = await contextOn(open);
    const count = () => ctx.store.read(async (tx) => Number((await tx.get('meta', 'n'))?.value ?? 0), ['meta']);
    const increment = () =>
      batchedWrite(ctx.store, async (tx) => {
        await tx.put('meta', { id: 'n', value: Number((await tx.get('meta', 'n'))?.value ?? 0) + 1 });
      }, ['meta']);
    // Long enough for the shared transaction to have ended under it: fake-indexeddb takes a put after a
    // timer while the transaction still has requests to run (5 ms was not enough once on a loaded CI).
    const waitsOutside = () =>
      batchedWrite(ctx.store, async (tx) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.put('meta', { id: 'late', value: 1 });
      }, ['meta']);
    const alone = increment(); // runs at once; the three below wait for it and share the next transaction
    const settled = await Promise.allSettled([alone, increment(), waitsOutside(), increment()]);
    expect(settled[0]!.status).toBe('fulfilled');
    expect(settled.slice(1).map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ name: expect.stringMatching(/^(TransactionInactiveError|InvalidStateError)$/) });
    // The shared increment before the wait may be committed (the contract), but none ran twice.
    expect(await count()).toBeLessThanOrEqual(2);
    expect(await ctx.store.read((tx) => tx.get('meta', 'late'))).toBeUndefined();
  });

  it('a shared transaction covers the collections of all its writes', async () => {
    const { ctx } = await contextOn(open);
    const results = await Promise.all([
      batchedWrite(ctx.store, (tx) => tx.put('meta', { id: 'one', value: 1 }).then(() => 1), ['meta']),
      batchedWrite(ctx.store, (tx) => tx.put('meta', { id: 'two', value: 2 }).then(() => 2), ['meta']),
      batchedWrite(ctx.store, async (tx) => (await tx.get('meta', 'one'))?.value, ['meta']),
      batchedWrite(ctx.store, (tx) => tx.put('folders', { id: 'f', created: '', handle: null }).then(() => 'f'), ['folders']),
    ]);
    // The third saw the first's put: writes of one transaction run in arrival order.
    expect(results).toEqual([1, 2, 1, 'f']);
  });
});
