import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { sharedIndexReads } from '../../worker/core/store/shared-index-reads.ts';
import { addLink, assetsOf } from '../../worker/core/links/link-records.ts';
import type { ReadTx } from '../../worker/core/store/store.ts';

describe('sharedIndexReads', () => {
  it('reads an index range once however often it is asked for, and answers the same', async () => {
    const store = new MemoryStore();
    await store.write(async (tx) => {
      for (const asset of ['a1', 'a2', 'a3']) await addLink(tx, 'tags', 't1', asset);
      await addLink(tx, 'tags', 't2', 'a1');
    });
    const reads: string[] = [];
    const [first, again, other, limited] = await store.read(async (tx) => {
      const getAllFromIndex: ReadTx['getAllFromIndex'] = (c, i, q, l) => (reads.push(JSON.stringify([c, i, q, l])), tx.getAllFromIndex(c, i, q, l));
      const counting = new Proxy(tx, {
        get: (target, key: keyof ReadTx) => (key === 'getAllFromIndex' ? getAllFromIndex : (target[key] as (...a: unknown[]) => unknown).bind(target)),
      });
      const shared = sharedIndexReads(counting);
      return Promise.all([assetsOf(shared, 'tags', 't1'), assetsOf(shared, 'tags', 't1'), assetsOf(shared, 'tags', 't2'), assetsOf(shared, 'tags', 't1', 2)]);
    });
    expect(first).toEqual(['a1', 'a2', 'a3']);
    expect(again).toEqual(first);
    expect(other).toEqual(['a1']);
    expect(limited).toEqual(['a2', 'a3']);
    // t1 whole, t2, and t1 with a limit: three ranges, each read once.
    expect(reads).toHaveLength(3);
  });
});
