import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../worker/core/embed/embedder.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import { storedVectorsOf, VECTORS_STATE_ID, VECTORS_VERSION } from '../../worker/core/qgpt/vectors/stored-vectors.ts';
import { chainFrom, CHUNK_PREFIX, RECORDS_BASE, vectorChunk, type VectorChunk } from '../../worker/core/qgpt/vectors/vector-chunks.ts';
import { VECTOR_SNAPSHOT_ID, type VectorSnapshot } from '../../worker/core/qgpt/vectors/vector-snapshot.ts';
import { lastSeq } from '../../worker/core/feed/commit.ts';
import type { SnippetRecord } from '../../worker/core/store/records.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { CSV_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { watchedStore, type StoreReads } from '../support/watched-store.ts';

const HASHING = new HashingEmbedder().id;

/** An embedder with the hashing embedder's id and vectors that notes every text it embeds. */
function countingEmbedder(texts: string[]): Embedder {
  const hashing = new HashingEmbedder();
  return { id: hashing.id, dimensions: hashing.dimensions, embed: async (batch) => (texts.push(...batch), hashing.embed(batch)) };
}

const ask = async (api: TestApi, query: string) =>
  (await api.post('/qgpt/relevance', { query, options: { database: true } })).json<{ relevant: { iterable: { asset: { id: string } }[] } }>().relevant.iterable.map((r) => r.asset.id);

const chunksOf = async (store: Store) => (await store.read((tx) => tx.getAll('indexes'), ['indexes'])).filter((r) => r.id.startsWith(CHUNK_PREFIX)) as VectorChunk[];
const snapshotOf = (store: Store) => store.read((tx) => tx.get('indexes', VECTOR_SNAPSHOT_ID), ['indexes']) as Promise<VectorSnapshot | undefined>;

describe('the vectors stored in chunks', () => {
  it('each save is one record holding every asset it embedded; no record per asset', async () => {
    const api = await createTestApi();
    const ids = [];
    for (const text of [YAML_SNIPPET, RETRY_SNIPPET, CSV_SNIPPET]) ids.push((await api.create(fragmentSeed(text))).id as string);
    await ask(api, 'write csv rows');
    expect(await api.store.read((tx) => tx.count('snippets'), ['snippets'])).toBe(0);
    const chunks = await chunksOf(api.store);
    expect(chunks).toHaveLength(1);
    expect([...chunks[0]!.data.ids].sort()).toEqual([...ids].sort());
    expect(chunks[0]).toMatchObject({ seq: await lastSeq(api.ctx), version: VECTORS_VERSION, data: { after: RECORDS_BASE, embedder: HASHING, reconcile: false } });
    const stored = await storedVectorsOf(api.store, HASHING);
    expect([...stored.keys()].sort()).toEqual([...ids].sort());
    // The stored vectors are those the index holds.
    const held = (await vectorIndexFor(api.ctx).current()).entries;
    for (const id of ids) expect(stored.get(id)).toEqual(held.get(id));
  });

  it('a new worker loads the snapshot and the chunks after it: nothing embedded again, no per-asset record read', async () => {
    const first = await createTestApi();
    const yaml = (await first.create(fragmentSeed(YAML_SNIPPET))).id as string;
    const retry = (await first.create(fragmentSeed(RETRY_SNIPPET))).id as string;
    await ask(first, 'read a yaml config');
    await vectorIndexFor(first.ctx).saveSnapshot();
    expect(await chunksOf(first.store)).toEqual([]);
    // After the snapshot: a write, a deletion, an edit, each caught up and saved as a chunk.
    const csv = (await first.create(fragmentSeed(CSV_SNIPPET))).id as string;
    expect((await first.post(`/assets/${retry}/delete`)).status).toBe(200);
    expect((await first.post('/asset/update', { id: yaml, name: 'yaml loader' })).status).toBe(200);
    await vectorIndexFor(first.ctx).current();
    const chunks = await chunksOf(first.store);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks[0]!.data.after).toBe((await snapshotOf(first.store))!.data.head);

    const embedded: string[] = [];
    const reads: StoreReads = { whole: [], one: [] };
    const second = await createTestApi({ store: watchedStore(first.store, reads), embedder: countingEmbedder(embedded) });
    expect((await ask(second, 'write csv rows'))[0]).toBe(csv);
    expect(await ask(second, 'retry with backoff')).not.toContain(retry);
    expect(embedded).toEqual(['write csv rows', 'retry with backoff']);
    expect(reads.whole).not.toContain('snippets');
    const held = (await vectorIndexFor(second.ctx).current()).entries;
    expect([...held.keys()].sort()).toEqual([yaml, csv].sort());
    expect(held.get(yaml)).toEqual((await vectorIndexFor(first.ctx).current()).entries.get(yaml));
  });

  it('the snapshot replaces the chunks it covers in its own transaction, and the next chunks follow it', async () => {
    const api = await createTestApi();
    await api.create(fragmentSeed(YAML_SNIPPET));
    await ask(api, 'yaml');
    await api.create(fragmentSeed(RETRY_SNIPPET));
    await vectorIndexFor(api.ctx).current();
    const before = await chunksOf(api.store);
    expect(before).toHaveLength(2);
    expect(before[1]!.data.after).toBe(before[0]!.id);
    await vectorIndexFor(api.ctx).saveSnapshot();
    expect(await chunksOf(api.store)).toEqual([]);
    const snapshot = (await snapshotOf(api.store))!;
    expect(snapshot.data.head).toBe(before[1]!.id);
    expect(snapshot.data.ids).toHaveLength(2);
    const csv = (await api.create(fragmentSeed(CSV_SNIPPET))).id as string;
    await vectorIndexFor(api.ctx).current();
    const after = await chunksOf(api.store);
    expect(after.map((c) => [c.data.after, c.data.ids])).toEqual([[snapshot.data.head, [csv]]]);
    expect((await storedVectorsOf(api.store, HASHING)).size).toBe(3);
  });

  it('a chunk off the chain is left out, and the next snapshot deletes it', async () => {
    const api = await createTestApi();
    const yaml = (await api.create(fragmentSeed(YAML_SNIPPET))).id as string;
    await ask(api, 'yaml');
    const [chunk] = await chunksOf(api.store);
    // Another context's chunk from a point that is gone: it claims the asset was deleted.
    const stray = vectorChunk([], [yaml], { after: 'gone-long-ago', seq: chunk!.seq + 1, version: VECTORS_VERSION, saved: '', embedder: HASHING, reconcile: false, unique: 'stray' });
    await api.store.write((tx) => tx.put('indexes', stray), ['indexes']);
    expect([...(await storedVectorsOf(api.store, HASHING)).keys()]).toEqual([yaml]);
    const second = await createTestApi({ store: api.store });
    expect(await ask(second, 'read a yaml config')).toEqual([yaml]);
    await second.create(fragmentSeed(CSV_SNIPPET));
    await vectorIndexFor(second.ctx).current();
    await vectorIndexFor(second.ctx).saveSnapshot();
    expect(await chunksOf(api.store)).toEqual([]);
    expect((await snapshotOf(api.store))!.data.ids).toHaveLength(2);
  });

  it('a library from before chunks: its per-asset records are loaded as they are, and replaced by chunks as assets change', async () => {
    // The records and the state an older version kept, made here from what today's index embeds.
    const first = await createTestApi();
    const ids: string[] = [];
    for (const text of [YAML_SNIPPET, RETRY_SNIPPET, CSV_SNIPPET]) ids.push((await first.create(fragmentSeed(text))).id as string);
    const records = [...(await vectorIndexFor(first.ctx).current()).entries.values()];
    const seq = await lastSeq(first.ctx);
    const chunks = await chunksOf(first.store);
    await first.store.write(async (tx) => {
      for (const chunk of chunks) await tx.delete('indexes', chunk.id);
      for (const record of records) await tx.put('snippets', record);
      await tx.put('indexes', { id: VECTORS_STATE_ID, version: VECTORS_VERSION, seq, saved: '', data: { embedder: HASHING } });
    });

    const embedded: string[] = [];
    const second = await createTestApi({ store: first.store, embedder: countingEmbedder(embedded) });
    expect((await ask(second, 'write csv rows'))[0]).toBe(ids[2]);
    expect(embedded).toEqual(['write csv rows']);
    // An edit: that asset's vectors go to a chunk and its old record goes.
    expect((await second.post('/asset/update', { id: ids[0], name: 'yaml loader' })).status).toBe(200);
    await vectorIndexFor(second.ctx).current();
    const left = await first.store.read((tx) => tx.getAll('snippets'), ['snippets']);
    expect(left.map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
    const stored = await storedVectorsOf(first.store, HASHING);
    expect([...stored.keys()].sort()).toEqual([...ids].sort());
    expect(stored.get(ids[0]!)!.updated).not.toBe(records.find((r) => r.id === ids[0])!.updated);
    // The snapshot holds them all; the records it covers stay until their assets change (no reader needs them).
    await vectorIndexFor(second.ctx).saveSnapshot();
    const third = await createTestApi({ store: first.store, embedder: countingEmbedder(embedded) });
    embedded.length = 0;
    expect((await ask(third, 'load the yaml configuration file'))[0]).toBe(ids[0]);
    expect(embedded).toEqual(['load the yaml configuration file']);
  });
});

describe('the chain of chunks', () => {
  const record = (id: string): SnippetRecord => ({ id, updated: 't', embedder: 'e', snippets: [] });
  const chunk = (after: string, seq: number, unique: string, embedder = 'e', version = 2) =>
    vectorChunk([record(unique)], [], { after, seq, version, saved: '', embedder, reconcile: false, unique });

  it('follows each chunk from the base; at a fork the one that reaches further; skips other embedders and versions', () => {
    const a = chunk('base', 1, 'a');
    const b = chunk(a.id, 2, 'b');
    const shortFork = chunk(a.id, 2, 'c'); // same seq as b: the larger id wins, deterministically
    const other = chunk(a.id, 9, 'd', 'other-embedder');
    const old = chunk(a.id, 9, 'e', 'e', 1);
    const offChain = chunk('elsewhere', 3, 'f');
    const { chain, strays } = chainFrom('base', [offChain, old, other, shortFork, b, a], 'e', 2);
    expect(chain.map((c) => c.data.ids[0])).toEqual(['a', b.id > shortFork.id ? 'b' : 'c']);
    expect(strays.map((c) => c.data.ids[0]).sort()).toEqual(['d', 'e', 'f', b.id > shortFork.id ? 'c' : 'b'].sort());
    expect(chainFrom('nowhere', [a, b], 'e', 2)).toEqual({ chain: [], strays: [a, b] });
  });

  it('chunk ids sort by seq', () => {
    const ids = [chunk('x', 10, 'z'), chunk('x', 9, 'a'), chunk('x', 100, 'm')].map((c) => c.id).sort();
    expect(ids.map((id) => Number(id.slice(CHUNK_PREFIX.length).split('~')[0]))).toEqual([9, 10, 100]);
  });
});
