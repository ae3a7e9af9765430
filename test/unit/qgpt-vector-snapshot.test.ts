import { describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../../worker/core/embed/embedder.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { VECTOR_SNAPSHOT_ID, restoreVectorSnapshot, takeVectorSnapshot, vectorSnapshotSteps, type VectorSnapshot } from '../../worker/core/qgpt/vectors/vector-snapshot.ts';
import { finish } from '../../worker/core/timers.ts';
import { vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import { quantize, VectorMatrix } from '../../worker/core/qgpt/vectors/vector-matrix.ts';
import type { SnippetRecord } from '../../worker/core/store/records.ts';
import { CSV_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { SlowSnapshots } from '../support/slow-snapshots.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { watchedStore, type StoreReads } from '../support/watched-store.ts';

/** An embedder with the hashing embedder's id and vectors that notes every text it embeds. */
function countingEmbedder(texts: string[]): Embedder {
  const hashing = new HashingEmbedder();
  return { id: hashing.id, dimensions: hashing.dimensions, embed: async (batch) => (texts.push(...batch), hashing.embed(batch)) };
}

const ask = async (api: TestApi, query: string) =>
  (await api.post('/qgpt/relevance', { query, options: { database: true } })).json<{ relevant: { iterable: { asset: { id: string } }[] } }>();

describe('the vector snapshot', () => {
  it('gives back the records it was taken from, vectors and all', () => {
    const hashing = new HashingEmbedder({ dimensions: 8 });
    const records: SnippetRecord[] = [
      { id: 'a', updated: 't1', key: 'k1', embedder: hashing.id, snippets: [
        { format: 'f1', start: 0, end: 5, vector: Int8Array.from([1, 2, 3, 4, 5, 6, 7, 8]), scale: 0.5 },
        { format: 'f2', start: 5, end: 9, vector: Int8Array.from([-1, -2, -3, -4, -5, -6, -7, -8]), scale: 0.25 },
      ] },
      { id: 'b', updated: 't2', embedder: hashing.id, snippets: [] },
      { id: 'c', updated: 't3', key: 'k3', embedder: hashing.id, snippets: [{ format: 'f3', start: 1, end: 2, vector: new Int8Array(8).fill(127), scale: 1 }] },
    ];
    const snapshot = takeVectorSnapshot(records, { embedder: hashing.id, seq: 7, version: 2, saved: 'now' });
    expect(snapshot).toMatchObject({ id: VECTOR_SNAPSHOT_ID, seq: 7, version: 2 });
    // No component is zero: a bitmap would only add to them, so they are stored end to end.
    expect(snapshot.data.rows!.byteLength).toBe(3 * 8);
    expect(snapshot.data.mask).toBeUndefined();
    const restored = restoreVectorSnapshot(snapshot.data);
    expect(restored.records).toEqual(records);
    // The matrix over the snapshot's buffer scores as one made from the records.
    const query = Float32Array.from([1, 0, -1, 0, 2, 0, 0, 1]);
    expect(restored.matrix.bestByAsset(query)).toEqual(VectorMatrix.of(records).bestByAsset(query));
    expect([...restored.matrix.bestByAsset(query).keys()]).toEqual(['a', 'c']);
  });


  it('is the same taken in steps, a pause every thousand records or so', () => {
    const hashing = new HashingEmbedder({ dimensions: 16 });
    const records: SnippetRecord[] = Array.from({ length: 2500 }, (_, i) => ({
      id: `a${i}`,
      updated: `t${i}`,
      embedder: hashing.id,
      snippets: [{ format: `f${i}`, start: 0, end: i, vector: Int8Array.from({ length: 16 }, (_, d) => ((i + d) % 5 === 0 ? 0 : ((i * d) % 255) - 127)), scale: 1 / 2 ** (i % 8) }],
    }));
    const args = { embedder: hashing.id, seq: 3, version: 2, saved: 'now' };
    const steps = vectorSnapshotSteps(records, args);
    let pauses = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(3);
    const whole = takeVectorSnapshot(records, args);
    expect(finish(vectorSnapshotSteps(records, args))).toEqual(whole);
    expect(restoreVectorSnapshot(whole.data).records).toEqual(records);
  });
  it('stores sparse vectors as a bitmap and their non-zero components, and gives them back whole', async () => {
    const hashing = new HashingEmbedder();
    const texts = [YAML_SNIPPET, CSV_SNIPPET, RETRY_SNIPPET, 'x', ''];
    const vectors = (await hashing.embed(texts)).map(quantize);
    const records: SnippetRecord[] = vectors.map((q, i) => ({
      id: `a${i}`,
      updated: 't',
      embedder: hashing.id,
      // The snapshot keeps scales as 32-bit floats.
      snippets: [{ format: `f${i}`, start: 0, end: texts[i]!.length, vector: q.vector, scale: Math.fround(q.scale) }],
    }));
    const snapshot = takeVectorSnapshot(records, { embedder: hashing.id, seq: 1, version: 2, saved: 'now' });
    const nonZero = vectors.reduce((n, q) => n + q.vector.filter((x) => x !== 0).length, 0);
    expect(snapshot.data.rows).toBeUndefined();
    expect(snapshot.data.values!.length).toBe(nonZero);
    expect(snapshot.data.mask!.byteLength + snapshot.data.values!.byteLength).toBeLessThan((5 * 1024) / 2);
    const restored = restoreVectorSnapshot(snapshot.data);
    expect(restored.records).toEqual(records);
    const [query] = await hashing.embed(['parse the yaml config and retry']);
    expect(restored.matrix.bestByAsset(query!)).toEqual(VectorMatrix.of(records).bestByAsset(query!));
    expect(restored.matrix.bestByAsset(query!).size).toBe(5);
  });

  it('reads a bitmap whose length is no whole number of words, and one that starts at any byte', () => {
    // 3 vectors of 12: a 36-bit mask, one 32-bit word and a byte after it.
    const vector = (...at: number[]) => Int8Array.from({ length: 12 }, (_, i) => (at.includes(i) ? i + 1 : 0));
    const records: SnippetRecord[] = [[0, 11], [3], [4, 7, 8, 11]].map((at, i) => ({
      id: `a${i}`,
      updated: 't',
      embedder: 'e',
      snippets: [{ format: `f${i}`, start: 0, end: 1, vector: vector(...at), scale: 1 }],
    }));
    const { data } = takeVectorSnapshot(records, { embedder: 'e', seq: 1, version: 2, saved: 'now' });
    expect(data.mask!.byteLength).toBe(5);
    expect(restoreVectorSnapshot(data).records).toEqual(records);
    const shifted = new Uint8Array(new ArrayBuffer(8), 1, 5);
    shifted.set(data.mask!);
    expect(restoreVectorSnapshot({ ...data, mask: shifted }).records).toEqual(records);
  });

  it('packs the bitmap and the values bit for bit, whatever the length of the vectors and wherever their zeros are', () => {
    let seed = 99;
    let packed = 0;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    for (const dims of [8, 12, 13, 64, 1024]) {
      for (const density of [0, 0.1, 0.3, 0.9]) {
        // Sparse enough to be packed: some vectors all zero (the last one always), one whose last component
        // is its only non-zero, components of -128 (0x80, the byte whose top bit alone is set), and vectors
        // that are views at odd offsets of a buffer (as restored records are views into a snapshot's).
        const buffer = new Int8Array(10 * dims + 1);
        const vectors = Array.from({ length: 10 }, (_, k) => {
          const vector = k % 3 === 0 ? new Int8Array(dims) : buffer.subarray(1 + k * dims, 1 + (k + 1) * dims);
          for (let i = 0; i < dims; i++) vector[i] = k === 9 ? 0 : k === 8 ? (i === dims - 1 ? -5 : 0) : random() < density ? (random() < 0.1 ? -128 : Math.floor(random() * 254) - 127 || 1) : 0;
          return vector;
        });
        const records: SnippetRecord[] = vectors.map((vector, k) => ({ id: `a${k}`, updated: 't', embedder: 'e', snippets: [{ format: 'f', start: 0, end: 1, vector, scale: 1 }] }));
        const { data } = takeVectorSnapshot(records, { embedder: 'e', seq: 1, version: 2, saved: 'now' });
        if (!data.mask) continue; // too dense to be packed: stored end to end
        packed++;
        const mask = new Uint8Array(Math.ceil((10 * dims) / 8));
        const values: number[] = [];
        vectors.forEach((vector, k) =>
          vector.forEach((x, i) => {
            if (x === 0) return;
            mask[(k * dims + i) >> 3]! |= 1 << ((k * dims + i) & 7);
            values.push(x);
          }),
        );
        expect(data.mask, `${dims} dims at ${density}`).toEqual(mask);
        expect([...data.values!], `${dims} dims at ${density}`).toEqual(values);
        expect(restoreVectorSnapshot(data).records).toEqual(records);
      }
    }
    expect(packed).toBeGreaterThanOrEqual(12);
  });

  it('is what a new worker loads instead of every snippet record, catching up on what changed after it', async () => {
    const embedder = countingEmbedder([]);
    const first = await createTestApi({ embedder });
    const yaml = (await first.create(fragmentSeed(YAML_SNIPPET))).id as string;
    const retry = (await first.create(fragmentSeed(RETRY_SNIPPET))).id as string;
    await ask(first, 'read a yaml config');
    // The first worker's index writes the snapshot; then a write and a deletion land after it.
    const snapshotOf = () => first.store.read((tx) => tx.get('indexes', VECTOR_SNAPSHOT_ID));
    expect(await snapshotOf()).toBeUndefined();
    await saveSnapshotOf(first);
    expect((await snapshotOf())?.data).toMatchObject({ ids: expect.arrayContaining([yaml, retry]) });
    const csv = (await first.create(fragmentSeed(CSV_SNIPPET))).id as string;
    expect((await first.post(`/assets/${retry}/delete`)).status).toBe(200);

    const embedded: string[] = [];
    const reads: StoreReads = { whole: [], one: [] };
    const second = await createTestApi({ store: watchedStore(first.store, reads), embedder: countingEmbedder(embedded) });
    const csvAnswer = await ask(second, 'write csv rows');
    expect(csvAnswer.relevant.iterable[0]!.asset.id).toBe(csv);
    expect((await ask(second, 'read a yaml config')).relevant.iterable[0]!.asset.id).toBe(yaml);
    expect((await ask(second, 'retry with backoff')).relevant.iterable.map((r) => r.asset.id)).not.toContain(retry);
    // Loaded from the snapshot: the snippet records were not read whole, and nothing in it was embedded again.
    expect(reads.whole).not.toContain('snippets');
    expect(embedded.filter((t) => t.includes('load_config') || t.includes('retryWithBackoff'))).toEqual([]);
  });

  it('is read while a new worker still chooses its embedder, not after', async () => {
    const first = await createTestApi({ embedder: countingEmbedder([]) });
    const yaml = (await first.create(fragmentSeed(YAML_SNIPPET))).id as string;
    await ask(first, 'read a yaml config');
    await saveSnapshotOf(first);

    // A second worker whose embedder is chosen only when the test says (as one probing the origin for model files).
    let choose: () => void = () => {};
    const chosen = new Promise<void>((resolve) => (choose = resolve));
    const hashing = new HashingEmbedder();
    const choosing: Embedder = { id: hashing.id, dimensions: hashing.dimensions, embed: async (t) => (await chosen, hashing.embed(t)), ready: () => chosen };
    const reads: StoreReads = { whole: [], one: [] };
    const snapshotReads = () => reads.one.filter((r) => r === `indexes/${VECTOR_SNAPSHOT_ID}`);
    const second = await createTestApi({ store: watchedStore(first.store, reads), embedder: choosing });
    const answer = ask(second, 'read a yaml config');
    await vi.waitFor(() => expect(snapshotReads()).toHaveLength(1));
    choose();
    expect((await answer).relevant.iterable[0]!.asset.id).toBe(yaml);
    expect(snapshotReads()).toHaveLength(1);
  });

  it('is asked for by a relevance call over the library before its input is checked, and not by one over given texts', async () => {
    const first = await createTestApi({ embedder: countingEmbedder([]) });
    await first.create(fragmentSeed(YAML_SNIPPET));
    await ask(first, 'read a yaml config');
    await saveSnapshotOf(first);
    const reads: StoreReads = { whole: [], one: [] };
    const snapshotReads = () => reads.one.filter((r) => r === `indexes/${VECTOR_SNAPSHOT_ID}`);
    const second = await createTestApi({ store: watchedStore(first.store, reads) });
    // Refused by the check, as a call over the text it gives: the library is not read.
    const refused = await second.post('/qgpt/relevance', { query: 'yaml', seeds: { iterable: [{ type: 'SEEDED_ASSET', asset: { application: 'not an application' } }] } });
    expect(refused.status).toBe(422);
    expect(snapshotReads()).toEqual([]);
    // Refused by the check, over the library: the input is checked after the library's loads began (a new
    // worker's check builds its schemas meanwhile), so the snapshot is read all the same.
    expect((await second.post('/qgpt/relevance', { query: 42, options: { database: true } })).status).toBe(422);
    await vi.waitFor(() => expect(snapshotReads()).toHaveLength(1));
    expect((await ask(second, 'read a yaml config')).relevant.iterable).toHaveLength(1);
    expect(snapshotReads()).toHaveLength(1);
    // Asked for early once a worker: later calls find the library loaded and only ask as they rank.
    const current = vi.spyOn(vectorIndexFor(second.ctx), 'current');
    await ask(second, 'read a yaml config');
    await ask(second, 'write csv rows');
    expect(current).toHaveBeenCalledTimes(2);
  });

  it('when the change log no longer reaches back to it, is compared with the whole library; not used by another embedder', async () => {
    const embedder = new HashingEmbedder();
    const first = await createTestApi({ embedder });
    await first.create(fragmentSeed(YAML_SNIPPET));
    await ask(first, 'yaml');
    await saveSnapshotOf(first);
    // The change log moved on past the snapshot (as after more changes than it keeps).
    await first.store.write(async (tx) => {
      const snapshot = (await tx.get('indexes', VECTOR_SNAPSHOT_ID))!;
      await tx.put('indexes', { ...snapshot, seq: -1_000_000 });
    });
    const reads: StoreReads = { whole: [], one: [] };
    const texts: string[] = [];
    const second = await createTestApi({ store: watchedStore(first.store, reads), embedder: countingEmbedder(texts) });
    expect((await ask(second, 'read a yaml config')).relevant.iterable).toHaveLength(1);
    // Every asset compared with its vectors (by `updated`): the snapshot's still stand, nothing embedded but the query.
    expect(reads.whole).toContain('assets');
    expect(texts).toEqual(['read a yaml config']);

    const embedded: string[] = [];
    const other: Embedder = { id: 'other-64', dimensions: 64, embed: async (texts) => (embedded.push(...texts), new HashingEmbedder({ dimensions: 64 }).embed(texts)) };
    const third = await createTestApi({ store: first.store, embedder: other });
    expect((await ask(third, 'read a yaml config')).relevant.iterable).toHaveLength(1);
    expect(embedded.some((t) => t.includes('load_config'))).toBe(true);
  });
});

/**
 * Writes the snapshot of the test app's vector index now (it would a moment after the vectors changed).
 * The index is the one of the app's store and embedder, made by its first relevance call.
 */
async function saveSnapshotOf(api: TestApi): Promise<void> {
  await vectorIndexFor(api.ctx).saveSnapshot();
}

describe('the vector index following writes', () => {
  it('embeds what is written in the background once told to follow, before any relevance call', async () => {
    const embedded: string[] = [];
    const embedder = countingEmbedder(embedded);
    const api = await createTestApi({ embedder });
    await api.create(fragmentSeed(YAML_SNIPPET));
    const library = async () => (await api.get('/embeddings/library')).json<{ embedded: number; pending: number }>();
    expect((await library()).embedded).toBe(0); // this makes the app's vector index, which follows() below reaches
    await api.create(fragmentSeed(CSV_SNIPPET));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(embedded).toEqual([]); // not following yet: nothing embedded without a relevance call
    vectorIndexFor(api.ctx).follow();
    await api.create(fragmentSeed(RETRY_SNIPPET));
    await vi.waitFor(async () => expect((await library()).embedded).toBe(3), { timeout: 5000, interval: 50 });
    expect(embedded.filter((t) => t.includes('load_config') || t.includes('write_rows') || t.includes('retryWithBackoff'))).toHaveLength(3);
    // The first relevance call finds them embedded, and their matrix made (no write was under way when
    // the sync ended): it embeds only its query.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const matrices = vi.spyOn(VectorMatrix, 'of');
    embedded.length = 0;
    expect((await ask(api, 'write csv rows')).relevant.iterable).not.toHaveLength(0);
    expect(embedded).toEqual(['write csv rows']);
    expect(matrices).not.toHaveBeenCalled();
    matrices.mockRestore();
  });

  it('takes its snapshot once the vectors are quiet, not right after a catch-up that outlasted the delay', async () => {
    const hashing = new HashingEmbedder();
    let gate: Promise<void> = Promise.resolve();
    const embedder: Embedder = { id: hashing.id, dimensions: hashing.dimensions, embed: async (batch) => (await gate, hashing.embed(batch)) };
    const api = await createTestApi({ embedder });
    const index = vectorIndexFor(api.ctx);
    index.follow();
    const snapshot = () => api.store.read((tx) => tx.get('indexes', VECTOR_SNAPSHOT_ID), ['indexes']);
    await api.create(fragmentSeed(YAML_SNIPPET));
    await vi.waitFor(() => expect(index.progress.embedded).toBe(1), { timeout: 5000, interval: 20 });
    // The next catch-up is held longer than the snapshot's delay (2 s) after the last one ended.
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    await api.create(fragmentSeed(CSV_SNIPPET));
    await vi.waitFor(() => expect(index.progress.running).toBe(true), { timeout: 5000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    open();
    await vi.waitFor(() => expect(index.progress.embedded).toBe(2), { timeout: 5000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Not taken the moment the catch-up let go (it was due while it ran)...
    expect(await snapshot()).toBeUndefined();
    // ...but once the vectors were quiet for the delay.
    await vi.waitFor(async () => expect((await snapshot())?.seq).toBe(2), { timeout: 5000, interval: 100 });
  });

  it('makes the matrix in the background between other work, and does not keep one the vectors changed under', async () => {
    const api = await createTestApi({ embedder: new HashingEmbedder() });
    const index = vectorIndexFor(api.ctx);
    index.follow();
    // Each matrix made in the background waits, letting other work in, until released.
    const stepsOf = VectorMatrix.steps;
    let making = 0;
    let release = false;
    vi.spyOn(VectorMatrix, 'steps').mockImplementation(function* (list) {
      making++;
      while (!release) yield;
      const matrix = yield* stepsOf.call(VectorMatrix, list);
      making--;
      return matrix;
    });
    const yaml = (await api.create(fragmentSeed(YAML_SNIPPET))).id;
    await vi.waitFor(() => expect(making).toBe(1), { timeout: 5000, interval: 20 });
    // While that one (of the first vectors alone) is being made, a second asset is written and embedded.
    const csv = (await api.create(fragmentSeed(CSV_SNIPPET))).id;
    await vi.waitFor(() => expect(making).toBe(2), { timeout: 5000, interval: 20 });
    expect(index.progress.embedded).toBe(2);
    release = true;
    await vi.waitFor(() => expect(making).toBe(0), { timeout: 5000, interval: 20 });
    vi.mocked(VectorMatrix.steps).mockRestore();
    const matrices = vi.spyOn(VectorMatrix, 'of');
    const { matrix } = await index.current();
    expect(matrices).not.toHaveBeenCalled();
    expect([...matrix.bestByAsset(new Float32Array(new HashingEmbedder().dimensions).fill(1)).keys()].sort()).toEqual([yaml, csv].sort());
  });

  it('spaces its snapshots by what the last one cost: after a costly save, one change waits 20 times as long', async () => {
    // Snapshot writes that take 300 ms: a save then costs that, and the next after one change waits 6 s.
    const store = new SlowSnapshots(300);
    const api = await createTestApi({ store, embedder: new HashingEmbedder() });
    const index = vectorIndexFor(api.ctx);
    index.follow();
    const snapshotSeq = async () => ((await store.read((tx) => tx.get('indexes', VECTOR_SNAPSHOT_ID), ['indexes'])) as VectorSnapshot | undefined)?.seq;
    await api.create(fragmentSeed(YAML_SNIPPET));
    await vi.waitFor(async () => expect(await snapshotSeq()).toBe(1), { timeout: 6000, interval: 50 });

    await api.create(fragmentSeed(CSV_SNIPPET));
    await vi.waitFor(() => expect(index.progress.embedded).toBe(2), { timeout: 5000, interval: 20 });
    // Past the quiet delay (2 s), not past 20 times the last save's 300 ms.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await snapshotSeq()).toBe(1);
  });

  it('embeds in the background while writes keep coming, not only once they stop', async () => {
    const embedded: string[] = [];
    const api = await createTestApi({ embedder: countingEmbedder(embedded) });
    vectorIndexFor(api.ctx).follow();
    // A write every 50 ms, far more often than the sync's delay (300 ms): a sync that each write pushed
    // back would run only after the last one.
    let writes = 0;
    while (embedded.length === 0 && writes < 100) {
      await api.create(fragmentSeed(`def step_${writes}(x):\n    return x + ${writes}\n`));
      writes++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(embedded.length).toBeGreaterThan(0);
    expect(writes).toBeLessThan(100);
  });
});
