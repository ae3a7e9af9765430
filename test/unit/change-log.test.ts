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
});
