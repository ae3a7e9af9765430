import { describe, expect, it } from 'vitest';
import { CHANGE_LOG_SIZE, changeKey, changesSince, commit, lastSeq } from '../../worker/core/feed/commit.ts';
import { MemoryFeed, type ChangeEvent } from '../../worker/core/feed/feed.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { testClassifier } from '../support/classifier.ts';

async function context() {
  const feed = new MemoryFeed();
  const heard: ChangeEvent[] = [];
  feed.subscribe((e) => heard.push(e));
  return { ctx: withDefaults({ store: new MemoryStore(), feed, classifier: await testClassifier() }), heard };
}

describe('commit and the change log', () => {
  it('numbers changes in commit order, one per asset per write, and publishes them after the commit', async () => {
    const { ctx, heard } = await context();
    await commit(ctx, async (_tx, log) => {
      log.created('a');
      log.updated('a');
      log.created('b');
    }, []);
    await commit(ctx, async (_tx, log) => log.deleted('a'), []);
    expect(heard).toEqual([
      { seq: 1, asset: 'a', kind: 'created' },
      { seq: 2, asset: 'b', kind: 'created' },
      { seq: 3, asset: 'a', kind: 'deleted' },
    ]);
    expect(await lastSeq(ctx)).toBe(3);
    expect(await changesSince(ctx, 1)).toEqual(heard.slice(1));
    expect(await changesSince(ctx, 3)).toEqual([]);
  });

  it('publishes nothing and logs nothing when the write fails', async () => {
    const { ctx, heard } = await context();
    await expect(
      commit(ctx, async (_tx, log) => {
        log.created('a');
        throw new Error('no');
      }, []),
    ).rejects.toThrow('no');
    expect(heard).toEqual([]);
    expect(await lastSeq(ctx)).toBe(0);
  });

  it('keeps only the newest entries and says when a reader fell too far behind', async () => {
    const { ctx } = await context();
    // Pretend many changes happened already: jump the counter near the window's edge.
    await ctx.store.write(async (tx) => {
      await tx.put('meta', { id: 'seq', value: CHANGE_LOG_SIZE });
      await tx.put('changes', { id: changeKey(1), seq: 1, asset: 'old', kind: 'created' });
    });
    expect(await ctx.store.read((tx) => tx.get('changes', changeKey(1)))).toBeDefined();
    await commit(ctx, async (_tx, log) => {
      log.updated('x');
    }, []);
    expect(await ctx.store.read((tx) => tx.get('changes', changeKey(1)))).toBeUndefined();
    expect(await changesSince(ctx, 0)).toBeUndefined();
    expect(await changesSince(ctx, CHANGE_LOG_SIZE)).toEqual([{ seq: CHANGE_LOG_SIZE + 1, asset: 'x', kind: 'updated' }]);
  });

  it('logs a write as one entry, however many assets it changed, and reads the changes back one by one', async () => {
    const { ctx } = await context();
    await commit(ctx, async (_tx, log) => {
      log.created('a');
      log.created('b');
      log.deleted('c');
    }, []);
    await commit(ctx, async (_tx, log) => log.updated('a'), []);
    expect(await ctx.store.read((tx) => tx.getAll('changes'))).toEqual([
      { id: changeKey(3), seq: 3, assets: ['a', 'b', 'c'], kinds: ['created', 'created', 'deleted'] },
      { id: changeKey(4), seq: 4, assets: ['a'], kinds: ['updated'] },
    ]);
    expect(await changesSince(ctx, 1)).toEqual([
      { seq: 2, asset: 'b', kind: 'created' },
      { seq: 3, asset: 'c', kind: 'deleted' },
      { seq: 4, asset: 'a', kind: 'updated' },
    ]);
  });

  it('reads the entries of one change that older versions wrote, before and beside entries of a write', async () => {
    const { ctx } = await context();
    await ctx.store.write(async (tx) => {
      await tx.put('meta', { id: 'seq', value: 2 });
      await tx.put('changes', { id: changeKey(1), seq: 1, asset: 'old', kind: 'created' });
      await tx.put('changes', { id: changeKey(2), seq: 2, asset: 'old', kind: 'updated' });
    });
    await commit(ctx, async (_tx, log) => {
      log.deleted('old');
      log.created('new');
    }, []);
    expect(await changesSince(ctx, 1)).toEqual([
      { seq: 2, asset: 'old', kind: 'updated' },
      { seq: 3, asset: 'old', kind: 'deleted' },
      { seq: 4, asset: 'new', kind: 'created' },
    ]);
  });

  it('drops an entry only once its last change falls out of the window, and says when a reader is behind what it holds', async () => {
    const { ctx } = await context();
    const edge = CHANGE_LOG_SIZE;
    // An entry of two changes (edge - 2, edge - 1) and one of a single change long before them.
    await ctx.store.write(async (tx) => {
      await tx.put('meta', { id: 'seq', value: edge - 1 });
      await tx.put('changes', { id: changeKey(2), seq: 2, assets: ['gone'], kinds: ['created'] });
      await tx.put('changes', { id: changeKey(edge - 1), seq: edge - 1, assets: ['a', 'b'], kinds: ['created', 'created'] });
    });
    await commit(ctx, async (_tx, log) => {
      log.updated('a');
      log.updated('b');
      log.updated('c');
    }, []);
    // The window now starts after edge + 2 - CHANGE_LOG_SIZE = 2: the entry ending at 2 is gone, the others stay.
    expect((await ctx.store.read((tx) => tx.getAll('changes'))).map((e) => e.id)).toEqual([changeKey(edge - 1), changeKey(edge + 2)]);
    expect((await changesSince(ctx, edge - 3))?.map((c) => c.seq)).toEqual([edge - 2, edge - 1, edge, edge + 1, edge + 2]);
    // Changes 3 to edge - 3 were never logged here: a reader at 2 cannot be told what changed.
    expect(await changesSince(ctx, 2)).toBeUndefined();
    expect(await changesSince(ctx, 1)).toBeUndefined();
  });
});
