import { addLink, assetsOf, linkedTo, removeLink } from '../links/link-records.ts';
import { nodeImmediate } from '../timers.ts';
import type { MessageRecord, TagRecord } from './records.ts';
import type { Store, WriteTx } from './store.ts';

/**
 * The behaviour every Store must have, as plain async cases with no test framework, so the same
 * body runs under vitest in Node (memory store, IndexedDB on fake-indexeddb) and in Chromium
 * (real IndexedDB). A case throws on failure.
 */
export interface StoreHarness {
  /** A new, empty store. */
  open(): Promise<Store>;
  /** The same data seen through a freshly opened store, as after a worker restart; closes `store`. */
  reopen(store: Store): Promise<Store>;
}

export interface StoreCase {
  name: string;
  run(harness: StoreHarness): Promise<void>;
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`store contract: ${message}`);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function tag(id: string, text = id): TagRecord {
  return { id, text, folded: text.toLowerCase(), category: 'UNKNOWN', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', mechanisms: {} };
}

function message(id: string, conversation?: string): MessageRecord {
  const record = { id, conversation, created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', role: 'USER', text: id, assets: [] };
  return record as MessageRecord;
}

const idsOf = (records: { id: string }[]) => records.map((r) => r.id).join(' ');

export const storeContract: StoreCase[] = [
  {
    name: 'a committed put can be read back, and a missing id reads as undefined; `closed` says whether close() was called',
    async run({ open }) {
      const store = await open();
      await store.write((tx) => tx.put('tags', tag('a', 'alpha')));
      check(same(await store.read((tx) => tx.get('tags', 'a')), tag('a', 'alpha')), 'get returns what was put');
      check((await store.read((tx) => tx.get('tags', 'missing'))) === undefined, 'missing id is undefined');
      const closed = () => store.closed;
      check(!closed(), '`closed` is false until close() is called');
      store.close();
      check(closed(), '`closed` is true once close() is called');
    },
  },
  {
    name: 'records come out as copies: changing one does not change the store',
    async run({ open }) {
      const store = await open();
      const record = tag('a');
      await store.write((tx) => tx.put('tags', record));
      record.text = 'changed after put';
      const read = (await store.read((tx) => tx.get('tags', 'a')))!;
      read.mechanisms.x = 'MANUAL';
      const again = (await store.read((tx) => tx.get('tags', 'a')))!;
      check(again.text === 'a' && Object.keys(again.mechanisms).length === 0, 'stored record is isolated from callers');
      store.close();
    },
  },
  {
    name: 'getAll lists by id order; getMany keeps the order asked and skips missing ids',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        for (const id of ['c', 'a', 'b']) await tx.put('tags', tag(id));
      });
      const all = await store.read((tx) => tx.getAll('tags'));
      check(same(all.map((t) => t.id), ['a', 'b', 'c']), `getAll order, got ${all.map((t) => t.id)}`);
      const many = await store.read((tx) => tx.getMany('tags', ['c', 'zz', 'a']));
      check(same(many.map((t) => t.id), ['c', 'a']), `getMany order, got ${many.map((t) => t.id)}`);
      check((await store.read((tx) => tx.getAll('websites'))).length === 0, 'other collections stay empty');
      store.close();
    },
  },
  {
    name: 'deleteUpTo deletes every record up to an id, its own puts before it included, and no other',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        for (const id of ['0003', '0001', '0010', '0004']) await tx.put('tags', tag(id));
        await tx.put('messages', message('0001'));
      });
      const ids = async () => idsOf(await store.read((tx) => tx.getAll('tags')));
      await store.write(async (tx) => {
        await tx.put('tags', tag('0002'));
        await tx.deleteUpTo('tags', '0003');
        await tx.put('tags', tag('0000'));
        check(idsOf(await tx.getRange('tags', undefined, 10)) === '0000 0004 0010', 'a read in the write sees the deletion');
      });
      check((await ids()) === '0000 0004 0010', `after deleteUpTo('0003'), got ${await ids()}`);
      check((await store.read((tx) => tx.getAll('messages'))).length === 1, 'other collections keep their records');
      await store.write((tx) => tx.deleteUpTo('tags', '0003x'));
      check((await ids()) === '0004 0010', `a bound that is not stored, got ${await ids()}`);
      const refused = await store.write(async (tx) => {
        await tx.deleteUpTo('tags', '9999');
        throw new Error('refused');
      }).catch((error: Error) => error.message);
      check(refused === 'refused' && (await ids()) === '0004 0010', 'a write that throws deletes nothing');
      store.close();
    },
  },
  {
    name: 'getRange reads batches in id order after a key; count counts',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        for (const id of ['d', 'b', 'a', 'e', 'c']) await tx.put('tags', tag(id));
      });
      const ids = (records: TagRecord[]) => records.map((t) => t.id).join('');
      const first = await store.read((tx) => tx.getRange('tags', undefined, 2));
      check(ids(first) === 'ab', `first batch, got ${ids(first)}`);
      const next = await store.read((tx) => tx.getRange('tags', 'b', 2));
      check(ids(next) === 'cd', `batch after 'b', got ${ids(next)}`);
      const between = await store.read((tx) => tx.getRange('tags', 'bb', 10));
      check(ids(between) === 'cde', `after a key that is not stored, got ${ids(between)}`);
      check((await store.read((tx) => tx.getRange('tags', 'e', 10))).length === 0, 'nothing after the last');
      check((await store.read((tx) => tx.count('tags'))) === 5, 'count');
      const inWrite = await store.write(async (tx) => {
        await tx.delete('tags', 'a');
        await tx.put('tags', tag('aa'));
        return { range: ids(await tx.getRange('tags', undefined, 3)), count: await tx.count('tags') };
      });
      check(inWrite.range === 'aabc', `range inside a write sees its own changes, got ${inWrite.range}`);
      check(inWrite.count === 5, `count inside a write, got ${inWrite.count}`);
      store.close();
    },
  },
  {
    name: 'a write sees its own puts and deletes before it commits',
    async run({ open }) {
      const store = await open();
      await store.write((tx) => tx.put('tags', tag('gone')));
      const seen = await store.write(async (tx) => {
        await tx.put('tags', tag('new'));
        await tx.delete('tags', 'gone');
        return { got: await tx.get('tags', 'new'), gone: await tx.get('tags', 'gone'), all: await tx.getAll('tags') };
      });
      check(seen.got?.id === 'new', 'own put visible');
      check(seen.gone === undefined, 'own delete visible');
      check(same(seen.all.map((t) => t.id), ['new']), 'getAll inside the write reflects it');
      store.close();
    },
  },
  {
    name: 'a write that throws commits nothing and rethrows',
    async run({ open }) {
      const store = await open();
      await store.write((tx) => tx.put('tags', tag('kept', 'before')));
      let caught: unknown;
      try {
        await store.write(async (tx) => {
          await tx.put('tags', tag('kept', 'after'));
          await tx.put('tags', tag('extra'));
          await tx.delete('tags', 'kept');
          throw new Error('boom');
        });
      } catch (error) {
        caught = error;
      }
      check(caught instanceof Error && caught.message === 'boom', 'the error reaches the caller');
      const all = await store.read((tx) => tx.getAll('tags'));
      check(same(all, [tag('kept', 'before')]), `nothing of the failed write is stored, got ${JSON.stringify(all)}`);
      store.close();
    },
  },
  {
    name: 'concurrent writes run one at a time (read-modify-write keeps every increment)',
    async run({ open }) {
      const store = await open();
      await store.write((tx) => tx.put('meta', { id: 'n', value: 0 }));
      await Promise.all(
        Array.from({ length: 10 }, () =>
          store.write(async (tx) => {
            const n = Number((await tx.get('meta', 'n'))?.value);
            await tx.put('meta', { id: 'n', value: n + 1 });
          }),
        ),
      );
      const n = (await store.read((tx) => tx.get('meta', 'n')))?.value;
      check(n === 10, `ten increments, got ${n}`);
      store.close();
    },
  },
  {
    name: 'a read scoped to some collections reads them and refuses the others',
    async run({ open }) {
      const store = await open();
      await store.write((tx) => tx.put('tags', tag('a')));
      check((await store.read((tx) => tx.get('tags', 'a'), ['tags', 'assets']))?.id === 'a', 'scoped read works');
      let refused = false;
      try {
        await store.read((tx) => tx.getAll('websites'), ['tags']);
      } catch {
        refused = true;
      }
      check(refused, 'reading outside the scope throws');
      store.close();
    },
  },
  {
    name: 'a write scoped to some collections reads and writes them; touching another throws and commits nothing',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        await tx.put('tags', tag('a'));
        await tx.put('meta', { id: 'n', value: 1 });
      }, ['tags', 'meta']);
      check((await store.read((tx) => tx.get('tags', 'a')))?.id === 'a', 'scoped write commits');
      for (const touch of [
        (tx: WriteTx) => tx.put('websites', { ...tag('w'), url: 'https://example.com/', name: 'w' } as never),
        (tx: WriteTx) => tx.delete('websites', 'w'),
        (tx: WriteTx) => tx.get('websites', 'w'),
      ]) {
        let refused = false;
        try {
          await store.write(async (tx) => {
            await tx.put('tags', tag('b'));
            await touch(tx);
          }, ['tags']);
        } catch {
          refused = true;
        }
        check(refused, 'touching a collection outside the scope throws');
      }
      check((await store.read((tx) => tx.get('tags', 'b'))) === undefined, 'the refused write committed nothing');
      store.close();
    },
  },
  {
    name: 'a write whose function awaits a task (a timer) is committed up to there, and its later calls throw',
    async run({ open }) {
      const store = await open();
      let caught: unknown;
      try {
        await store.write(async (tx) => {
          await tx.put('meta', { id: 'before', value: 1 });
          // IndexedDB commits a transaction with nothing pending once control goes back to the event loop.
          // In Node, fake-indexeddb commits in a check-phase task (setImmediate), which a 0 ms timer can
          // run before on a loaded machine: both are waited for, the task fake-indexeddb queued first.
          const immediate = nodeImmediate;
          if (immediate) await new Promise((resolve) => immediate.set(() => resolve(undefined)));
          await new Promise((resolve) => setTimeout(resolve, 0));
          await tx.put('meta', { id: 'after', value: 1 });
        });
      } catch (error) {
        caught = error;
      }
      const name = (caught as Error | undefined)?.name;
      check(name === 'InvalidStateError' || name === 'TransactionInactiveError', `the write fails as on a finished transaction, got ${name}`);
      check((await store.read((tx) => tx.get('meta', 'after'))) === undefined, 'nothing after the wait is stored');
      check((await store.read((tx) => tx.get('meta', 'before')))?.value === 1, 'what came before the wait was committed');
      // The store goes on working.
      await store.write((tx) => tx.put('meta', { id: 'next', value: 1 }));
      check((await store.read((tx) => tx.get('meta', 'next')))?.value === 1, 'a later write works');
      store.close();
    },
  },
  {
    name: 'a read sees the store as of one moment, whatever commits while it runs',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        await tx.put('meta', { id: 'a', value: 1 });
        await tx.put('meta', { id: 'b', value: 1 });
      });
      // Asked for before the read: IndexedDB runs it first, the read then sees both new values; a store
      // that let the read begin first must still not show it one old and one new value.
      const write = store.write(async (tx) => {
        await tx.put('meta', { id: 'a', value: 2 });
        await tx.put('meta', { id: 'b', value: 2 });
      });
      const seen = await store.read(async (tx) => {
        const a = (await tx.get('meta', 'a'))?.value;
        // Microtasks only (a task would end the transaction): time for a write running alongside to commit.
        for (let i = 0; i < 50; i++) await null;
        const b = (await tx.get('meta', 'b'))?.value;
        const all = (await tx.getAll('meta')).map((r) => r.value);
        return { a, b, all };
      }, ['meta']);
      await write;
      check(seen.a === seen.b && seen.all.every((v) => v === seen.a), `one moment, got a=${seen.a} b=${seen.b} all=${seen.all}`);
      const after = await store.read((tx) => tx.getAll('meta'));
      check(after.every((r) => r.value === 2), 'the write committed');
      store.close();
    },
  },
  {
    name: 'committed data survives reopening the store',
    async run({ open, reopen }) {
      const store = await open();
      await store.write(async (tx) => {
        await tx.put('tags', tag('a'));
        await tx.put('meta', { id: 'seq', value: 7 });
      });
      const again = await reopen(store);
      check((await again.read((tx) => tx.get('tags', 'a')))?.id === 'a', 'record survives');
      check((await again.read((tx) => tx.get('meta', 'seq')))?.value === 7, 'meta survives');
      again.close();
    },
  },
  {
    name: 'an index finds records by key, ordered by id; keys, counts and limits agree; records without the key are not in it',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        for (const [id, conversation] of [['m3', 'b'], ['m1', 'b'], ['m2', 'a'], ['m4', 'b'], ['m5', undefined]] as const) await tx.put('messages', message(id, conversation));
      });
      const got = await store.read(async (tx) => ({
        b: idsOf(await tx.getAllFromIndex('messages', 'conversation', 'b')),
        first: idsOf(await tx.getAllFromIndex('messages', 'conversation', 'b', 2)),
        keys: (await tx.getKeysFromIndex('messages', 'conversation', 'b')).join(' '),
        count: await tx.countFromIndex('messages', 'conversation', 'b'),
        none: (await tx.getAllFromIndex('messages', 'conversation', 'zz')).length,
        all: idsOf(await tx.getAllFromIndex('messages', 'conversation', {})),
      }));
      check(got.b === 'm1 m3 m4', `records of key b in id order, got ${got.b}`);
      check(got.first === 'm1 m3', `limit, got ${got.first}`);
      check(got.keys === 'm1 m3 m4', `keys, got ${got.keys}`);
      check(got.count === 3, `count, got ${got.count}`);
      check(got.none === 0, 'a key nobody has finds nothing');
      check(got.all === 'm2 m1 m3 m4', `an unbounded range lists by key, then id, without the record lacking a key, got ${got.all}`);
      store.close();
    },
  },
  {
    name: 'an index range includes or excludes each end as asked',
    async run({ open }) {
      const store = await open();
      await store.write(async (tx) => {
        for (const [id, key] of [['1', 'a'], ['2', 'b'], ['3', 'c'], ['4', 'd']]) await tx.put('messages', message(`m${id}`, key));
      });
      const range = (query: { lower?: string; upper?: string; lowerOpen?: boolean; upperOpen?: boolean }) =>
        store.read(async (tx) => idsOf(await tx.getAllFromIndex('messages', 'conversation', query)));
      check((await range({ lower: 'b', upper: 'c' })) === 'm2 m3', 'closed range');
      check((await range({ lower: 'b', upper: 'd', lowerOpen: true, upperOpen: true })) === 'm3', 'open range');
      check((await range({ lower: 'c' })) === 'm3 m4', 'lower bound only');
      check((await range({ upper: 'b', upperOpen: true })) === 'm1', 'upper bound only, open');
      check((await store.read((tx) => tx.countFromIndex('messages', 'conversation', { lower: 'bb' }))) === 2, 'count of a range');
      store.close();
    },
  },
  {
    name: 'an index inside a write sees its own puts, deletes and key changes; after commit and reopening, the index is in step',
    async run({ open, reopen }) {
      const store = await open();
      await store.write(async (tx) => {
        for (const id of ['m1', 'm2', 'm3']) await tx.put('messages', message(id, 'a'));
      });
      const inWrite = await store.write(async (tx) => {
        await tx.delete('messages', 'm1');
        await tx.put('messages', message('m2', 'b'));
        await tx.put('messages', message('m0', 'a'));
        return { a: idsOf(await tx.getAllFromIndex('messages', 'conversation', 'a')), b: (await tx.getKeysFromIndex('messages', 'conversation', 'b')).join(' ') };
      });
      check(inWrite.a === 'm0 m3', `own changes seen in the write, got ${inWrite.a}`);
      check(inWrite.b === 'm2', `a record moved to another key, got ${inWrite.b}`);
      const after = async (s: Store) =>
        s.read(async (tx) => `${idsOf(await tx.getAllFromIndex('messages', 'conversation', 'a'))} | ${await tx.countFromIndex('messages', 'conversation', 'b')}`);
      check((await after(store)) === 'm0 m3 | 1', `after commit, got ${await after(store)}`);
      const again = await reopen(store);
      check((await after(again)) === 'm0 m3 | 1', `after reopening, got ${await after(again)}`);
      again.close();
    },
  },
  {
    name: 'each side of a link is one range of its index, newest first, whatever the ids hold (quotes, colons, U+0000, emoji)',
    async run({ open, reopen }) {
      const store = await open();
      const assets = ['a', 'a"', 'a:1', 'a\u0000b', '😀'];
      const tags = ['t', 't"]', 't:', '😀'];
      await store.write(async (tx) => {
        for (const tag of tags) for (const asset of assets) await addLink(tx, 'tags', tag, asset);
        await addLink(tx, 'websites', 't', 'a');
      });
      const sides = (s: Store) =>
        s.read(async (tx) => ({
          ofTag: await Promise.all(tags.map((t) => assetsOf(tx, 'tags', t))),
          ofAsset: await Promise.all(assets.map((a) => linkedTo(tx, a, 'tags'))),
          newest: await assetsOf(tx, 'tags', 't', 2),
          websites: await linkedTo(tx, 'a', 'websites'),
        }));
      const got = await sides(store);
      check(got.ofTag.every((list) => same(list, assets)), `a tag's assets in the order linked, got ${JSON.stringify(got.ofTag)}`);
      check(got.ofAsset.every((list) => same(list, tags)), `an asset's tags in the order linked, got ${JSON.stringify(got.ofAsset)}`);
      check(same(got.newest, ['a\u0000b', '😀']), `a limit takes the newest, got ${JSON.stringify(got.newest)}`);
      check(same(got.websites, ['t']), `another kind is another side, got ${JSON.stringify(got.websites)}`);
      await store.write(async (tx) => {
        await removeLink(tx, 'tags', 't"]', 'a:1');
        await addLink(tx, 'tags', 't"]', 'a:1');
      });
      const again = await reopen(store);
      const after = await again.read((tx) => Promise.all([assetsOf(tx, 'tags', 't"]'), linkedTo(tx, 'a:1', 'tags')]));
      check(same(after[0], ['a', 'a"', 'a\u0000b', '😀', 'a:1']), `linked again comes last, got ${JSON.stringify(after[0])}`);
      check(same(after[1], ['t', 't:', '😀', 't"]']), `on both sides, got ${JSON.stringify(after[1])}`);
      again.close();
    },
  },
  {
    name: 'a write that throws leaves the index as it was',
    async run({ open }) {
      const store = await open();
      await store.write((tx) => tx.put('tags', tag('t1', 'Alpha')));
      await store
        .write(async (tx) => {
          await tx.put('tags', tag('t2', 'alpha'));
          await tx.delete('tags', 't1');
          throw new Error('boom');
        })
        .catch(() => undefined);
      const found = await store.read((tx) => tx.getAllFromIndex('tags', 'folded', 'alpha'));
      check(idsOf(found) === 't1', `the failed write changed nothing in the index, got ${idsOf(found)}`);
      store.close();
    },
  },
];
