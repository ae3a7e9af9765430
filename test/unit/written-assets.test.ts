import { describe, expect, it } from 'vitest';
import { withDefaults, type ServiceContext } from '../../worker/core/deps.ts';
import { importAssets } from '../../worker/core/assets/import.ts';
import { updateAsset } from '../../worker/core/assets/update.ts';
import { settleDeletes } from '../../worker/core/assets/half-deleted.ts';
import { MemoryFeed, type ChangeEvent } from '../../worker/core/feed/feed.ts';
import { WrittenAssets } from '../../worker/core/feed/written.ts';
import { assetText, readAssetTexts, vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import { DOCUMENT_SCOPE, readDocuments, searchDocument, type DocumentParts } from '../../worker/core/search/documents.ts';
import { searchIndexFor } from '../../worker/core/search/search-index.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { ReadTx, Store, WriteTx } from '../../worker/core/store/store.ts';
import type { Seeds } from '../../worker/core/model/schemas.ts';
import { testClassifier } from '../support/classifier.ts';
import { writeUnderWay } from '../support/write-under-way.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';

/** A store that counts the read requests of each collection made in read transactions. */
class ReadCountingStore implements Store {
  readonly reads = new Map<CollectionName, number>();
  constructor(private inner: Store = new MemoryStore()) {}
  read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]) {
    return this.inner.read((tx) => fn(this.counting(tx)), scope);
  }
  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]) {
    return this.inner.write(fn, scope);
  }
  get closed() {
    return this.inner.closed;
  }
  close() {
    this.inner.close();
  }
  private counting(tx: ReadTx): ReadTx {
    return new Proxy(tx, {
      get: (target, key: keyof ReadTx) => {
        const value = target[key];
        if (typeof value !== 'function') return value;
        return (collection: CollectionName, ...rest: unknown[]) => {
          this.reads.set(collection, (this.reads.get(collection) ?? 0) + 1);
          return (value as (...args: unknown[]) => unknown).call(target, collection, ...rest);
        };
      },
    });
  }
}

const seeds = (): Seeds =>
  ({
    iterable: [
      fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'cli' }, { text: 'CLI' }, { text: 'args' }], websites: [{ url: 'https://docs.python.org', name: 'Python docs' }] }),
      fragmentSeed(GO_SNIPPET, { annotations: [{ type: 'DESCRIPTION', text: 'prints a greeting' }] }),
      fragmentSeed(YAML_SNIPPET, { name: 'Load the YAML config', persons: [{ type: { basic: { username: 'ada' } } }] }),
      ...Array.from({ length: 20 }, (_, i) => fragmentSeed(`def handler_${i}(event):\n    return dispatch_${i}(event)\n`)),
    ],
  }) as unknown as Seeds;

async function context(store: Store, feed = new MemoryFeed()): Promise<ServiceContext> {
  return withDefaults({ store, feed, classifier: await testClassifier() });
}

describe('what a commit wrote, handed to the background indexes (feed/written.ts)', () => {
  it('makes the same search documents and vector texts as reading the assets back', async () => {
    const ctx = await context(new MemoryStore());
    const events: ChangeEvent[] = [];
    ctx.feed.subscribe((e) => events.push(e));
    const ids = (await importAssets(ctx, seeds())).iterable!.map((r) => r.id);
    expect(events.map((e) => e.asset)).toEqual(ids);
    const handed = events.map((e) => ctx.written.at(e.asset, e.seq));
    expect(handed.every(Boolean)).toBe(true);
    const [documents, texts] = await ctx.store.read(
      (tx) => Promise.all([readDocuments(tx, ids), readAssetTexts(tx, ids)]),
      [...DOCUMENT_SCOPE],
    );
    expect(handed.map((parts) => searchDocument(parts!))).toEqual(documents);
    expect(handed.map((parts) => assetText(parts!))).toEqual(texts);
    // The tag named twice in two cases is linked once, as the read gives it.
    expect(documents[0]!.meta.tags).toEqual(['cli', 'args']);
    expect(documents[2]!.meta.persons.length).toBeGreaterThan(0);
  });

  it('lets the search index and the vectors follow an import without reading its assets back', async () => {
    const store = new ReadCountingStore();
    const ctx = await context(store);
    const search = searchIndexFor(ctx);
    const vectors = vectorIndexFor(ctx);
    await search.current(undefined, { meta: false });
    await vectors.current();
    const ids = (await importAssets(ctx, seeds())).iterable!.map((r) => r.id);
    store.reads.clear();
    const index = await search.current(undefined, { meta: false });
    const library = await vectors.current();
    expect(store.reads.get('contents') ?? 0).toBe(0);
    expect(store.reads.get('formats') ?? 0).toBe(0);
    expect(ids.every((id) => index.has(id))).toBe(true);
    expect([...library.entries.keys()].sort()).toEqual([...ids].sort());
    expect(library.entries.get(ids[2]!)!.snippets.length).toBeGreaterThan(0);
  });

  it('follows a first import into a library that began empty without reading every asset back', async () => {
    const store = new ReadCountingStore();
    const ctx = await context(store);
    // What every service operation does first: it finds the store empty.
    await settleDeletes(ctx, true);
    const ids = (await importAssets(ctx, seeds())).iterable!.map((r) => r.id);
    // No vectors stored yet, so the first catch-up would compare every asset: while the import goes on,
    // in IndexedDB that read waits for it.
    const end = writeUnderWay(ctx);
    store.reads.clear();
    const library = await vectorIndexFor(ctx).current();
    end();
    expect(store.reads.get('assets') ?? 0).toBe(0);
    expect(store.reads.get('changes') ?? 0).toBe(0);
    expect([...library.entries.keys()].sort()).toEqual([...ids].sort());
  });

  it('reads every asset of a library from before the change log, though it heard each change since', async () => {
    const inner = new MemoryStore();
    const before = await context(new ReadCountingStore(inner));
    const old = (await importAssets(before, seeds())).iterable!.map((r) => r.id);
    // As a library upgraded from IndexedDB version 1 holds them: assets, no change log, no seq, no marker.
    await inner.write(async (tx) => {
      for (const change of await tx.getAll('changes')) await tx.delete('changes', change.id);
      for (const meta of await tx.getAll('meta')) await tx.delete('meta', meta.id);
    });
    const store = new ReadCountingStore(inner);
    const ctx = await context(store);
    await settleDeletes(ctx, true);
    // This context's changes are then seq 1 on: all heard, but not all there is.
    const added = (await importAssets(ctx, { iterable: [fragmentSeed('def quokka_count(zoo):\n    return len(zoo.quokkas)\n')] } as unknown as Seeds)).iterable!.map((r) => r.id);
    expect(ctx.heard.fromTheStart()?.map((e) => e.seq)).toEqual([1]);
    const end = writeUnderWay(ctx);
    const library = await vectorIndexFor(ctx).current();
    end();
    expect(store.reads.get('assets')).toBeGreaterThan(0);
    expect([...library.entries.keys()].sort()).toEqual([...old, ...added].sort());
  });

  it('reads an asset that another context changed after this one wrote it', async () => {
    const store = new ReadCountingStore();
    const feed = new MemoryFeed();
    const writer = await context(store, feed);
    const other = await context(store, feed);
    const search = searchIndexFor(writer);
    const vectors = vectorIndexFor(writer);
    await search.current(undefined, { meta: false });
    await vectors.current();
    const ids = (await importAssets(writer, seeds())).iterable!.map((r) => r.id);
    await updateAsset(other, { id: ids[1]!, name: 'Quokka greeter' });
    store.reads.clear();
    const index = await search.current(undefined, { meta: false });
    const library = await vectors.current();
    // Only the changed asset is read, by each index.
    expect(store.reads.get('contents')).toBe(2);
    expect(index.meta(ids[1]!)?.name).toBe('Quokka greeter');
    expect(index.meta(ids[0]!)?.tags).toEqual(['cli', 'args']);
    const renamed = (await store.read((tx) => tx.get('assets', ids[1]!)))!;
    expect(library.entries.get(ids[1]!)!.updated).toBe(renamed.updated);
  });

  it('keeps a bounded number of assets, the oldest going first, and answers only for the change that wrote them', () => {
    const written = new WrittenAssets();
    const parts = (id: string, text: string): DocumentParts =>
      ({ asset: { id }, formats: [], contents: [{ id: `${id}-f`, fragment: { string: { raw: text } } }], tags: [], websites: [], persons: [], annotations: [] }) as unknown as DocumentParts;
    for (let i = 0; i < 20_005; i++) written.remember(i + 1, parts(`a${i}`, 'x'));
    expect(written.size).toBe(20_000);
    expect(written.at('a0', 1)).toBeUndefined();
    expect(written.at('a5', 6)).toBeDefined();
    expect(written.at('a5', 7)).toBeUndefined();
    written.remember(30_000, parts('big', 'y'.repeat(8 * 1024 * 1024)));
    expect(written.at('big', 30_000)).toBeUndefined();
  });
});
