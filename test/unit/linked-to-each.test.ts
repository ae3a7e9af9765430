/**
 * An asset's links of several kinds from one index read (links/link-records.ts `linkedToEach`, which
 * `withLinks` and the search documents use): the same lists, in the same order, as a read per kind and as
 * the bulk LinkTable, on every store; nothing of another asset whose id extends this one's ("ab", "abc").
 */
import { describe, expect, it } from 'vitest';
import { LinkTable, addLink, linkedTo, linkedToEach, withLinks } from '../../worker/core/links/link-records.ts';
import { LINKED_KINDS, type AssetRecord } from '../../worker/core/store/records.ts';
import { STORES } from '../support/stores.ts';

const record = (id: string) => ({ id, formats: [], annotations: [], activities: [] }) as unknown as AssetRecord;

for (const [engine, open] of Object.entries(STORES)) {
  describe(`linkedToEach: ${engine}`, () => {
    it('reads every kind of an asset in one range, as reads per kind do, and nothing of its neighbours', async () => {
      const store = await open();
      try {
        // Interleaved across kinds and assets, so each list's order is the order of linking.
        await store.write(async (tx) => {
          for (let i = 0; i < 4; i++) {
            for (const kind of LINKED_KINDS) {
              for (const asset of ['ab', 'abc', 'a']) await addLink(tx, kind, `${kind}-${asset}-${i}`, asset);
            }
          }
        }, ['links', 'meta']);
        await store.read(async (tx) => {
          const each = await linkedToEach(tx, 'ab', ['tags', 'websites', 'persons']);
          expect(Object.keys(each).sort()).toEqual(['persons', 'tags', 'websites']);
          for (const kind of ['tags', 'websites', 'persons'] as const) {
            expect(each[kind]).toEqual([0, 1, 2, 3].map((i) => `${kind}-ab-${i}`));
            expect(each[kind]).toEqual(await linkedTo(tx, 'ab', kind));
          }
          const table = await LinkTable.read(tx);
          for (const id of ['a', 'ab', 'abc']) {
            const read = await withLinks(tx, record(id), { conversations: 2 });
            expect(read).toEqual(table.withLinks(record(id), { conversations: 2 }));
            expect(read.conversations).toEqual([`conversations-${id}-2`, `conversations-${id}-3`]);
            expect(read.summaries).toEqual([0, 1, 2, 3].map((i) => `summaries-${id}-${i}`));
          }
        }, ['links']);
      } finally {
        store.close();
      }
    });
  });
}
