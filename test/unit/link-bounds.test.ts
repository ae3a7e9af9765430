/**
 * Links are records of their own (links/link-records.ts), so neither a link nor a read grows with the
 * number of assets a tag has. Through a store that notes every record put and every record a read hands
 * out, over the memory store and IndexedDB:
 *
 * - linking the 1,001st asset to a tag puts the same records, of the same sizes, as linking the 2nd did
 *   (the change log and its seq aside, whose numbers grow a digit);
 * - reading that asset hands out at most NESTED_ASSETS_SHOWN links of the tag (its nested Tag lists the
 *   newest that many, in order), while `GET /tags` lists all 1,001;
 * - no stored record lists links as an id array any more.
 */
import { describe, expect, it } from 'vitest';
import { NESTED_ASSETS_SHOWN } from '../../worker/core/links/link-records.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { ReadTx, Store, WriteTx } from '../../worker/core/store/store.ts';
import { fragmentSeed } from '../support/seeds.ts';
import { STORES } from '../support/stores.ts';
import { createTestApi } from '../support/test-api.ts';

/** Notes each record put (collection and JSON size) and how many records of each collection reads hand out. */
class RecordingStore implements Store {
  puts: { collection: CollectionName; bytes: number }[] = [];
  handedOut = new Map<CollectionName, number>();
  constructor(private inner: Store) {}

  private note(c: CollectionName, records: unknown): void {
    const n = Array.isArray(records) ? records.length : records === undefined ? 0 : 1;
    this.handedOut.set(c, (this.handedOut.get(c) ?? 0) + n);
  }

  private reader(tx: ReadTx): ReadTx {
    const noted = <T>(c: CollectionName, result: Promise<T>) => result.then((r) => (this.note(c, r), r));
    return {
      get: (c, id) => noted(c, tx.get(c, id)),
      getMany: (c, ids) => noted(c, tx.getMany(c, ids)),
      getAll: (c) => noted(c, tx.getAll(c)),
      getRange: (c, after, limit) => noted(c, tx.getRange(c, after, limit)),
      count: (c) => tx.count(c),
      getAllFromIndex: (c, index, query, limit) => noted(c, tx.getAllFromIndex(c, index, query, limit)),
      getKeysFromIndex: (c, index, query, limit) => noted(c, tx.getKeysFromIndex(c, index, query, limit)),
      countFromIndex: (c, index, query) => tx.countFromIndex(c, index, query),
    };
  }

  read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]) {
    return this.inner.read((tx) => fn(this.reader(tx)), scope);
  }

  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]) {
    return this.inner.write(
      (tx) =>
        fn({
          ...this.reader(tx),
          put: (c, record) => (this.puts.push({ collection: c, bytes: JSON.stringify(record).length }), tx.put(c, record)),
          delete: (c, id) => tx.delete(c, id),
          deleteUpTo: (c, id) => tx.deleteUpTo(c, id),
        }),
      scope,
    );
  }

  get closed() {
    return this.inner.closed;
  }
  close() {
    this.inner.close();
  }

  reset() {
    this.puts = [];
    this.handedOut = new Map();
  }
}

const TAGGED = 1000;

for (const [engine, open] of Object.entries(STORES)) {
  describe(`links stay bounded: ${engine}`, () => {
    it('linking the 1,001st asset to a tag writes what linking the 2nd did; reading an asset reads a bounded part of the tag', async () => {
      const store = new RecordingStore(await open());
      const api = await createTestApi({ store });
      const tag = (await api.post('/tags/create', { text: 'shared' })).json().id as string;
      /** The records put by linking a fresh asset to the tag (the asset made first, alike each time). */
      const link = async () => {
        const asset = await api.create(fragmentSeed('value = 1\n', { name: 'alike' }));
        store.reset();
        expect((await api.post(`/asset/${asset.id}/tags/associate/${tag}`)).status).toBe(204);
        const puts = store.puts.filter((p) => p.collection !== 'changes' && p.collection !== 'meta');
        return { id: asset.id as string, puts: puts.map((p) => `${p.collection} ${p.bytes}`).sort(), log: store.puts.length - puts.length };
      };
      const first = await link();
      const second = await link();
      const seeds = Array.from({ length: TAGGED - 2 }, (_, i) => fragmentSeed(`n_${i} = ${i}\n`, { tags: [{ text: 'shared' }] }));
      expect((await api.post('/assets/import', { iterable: seeds })).status).toBe(200);
      const last = await link();

      // One link, the tag's `updated`, the asset with its new activity: the same records, the same sizes.
      expect(second.puts.map((p) => p.split(' ')[0])).toEqual(['activities', 'assets', 'links', 'tags']);
      expect(last.puts).toEqual(second.puts);
      expect(last.log).toBe(second.log);
      const tagged = (await api.get('/tags')).json().iterable.find((t: { id: string }) => t.id === tag).assets.iterable.map((a: { id: string }) => a.id);
      expect(tagged).toHaveLength(TAGGED + 1);
      expect(tagged[0]).toBe(first.id);
      expect(tagged.at(-1)).toBe(last.id);

      // Reading the first asset: its nested Tag shows the newest NESTED_ASSETS_SHOWN, oldest first.
      store.reset();
      const read = (await api.get(`/asset/${first.id}?transferables=false`)).json();
      expect(read.tags.iterable[0].assets.iterable.map((a: { id: string }) => a.id)).toEqual(tagged.slice(-NESTED_ASSETS_SHOWN));
      expect(store.handedOut.get('links')).toBeLessThanOrEqual(NESTED_ASSETS_SHOWN + 1);
      expect(store.handedOut.get('assets')).toBe(1);

      // What is stored: the tag and the assets carry no id arrays, the links are records.
      const stored = await store.read(async (tx) => ({ tag: await tx.get('tags', tag), asset: await tx.get('assets', first.id), links: await tx.count('links') }));
      expect(Object.keys(stored.tag!)).not.toContain('assets');
      for (const kind of ['tags', 'websites', 'summaries', 'persons', 'conversations']) expect(Object.keys(stored.asset!)).not.toContain(kind);
      expect(stored.links).toBe(TAGGED + 1);
    }, 120_000);
  });
}
