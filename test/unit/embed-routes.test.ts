import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../worker/core/embed/embedder.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { DeferredEmbedder } from '../../worker/core/embed/select.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { createTestApi } from '../support/test-api.ts';

const app = (embedder?: Embedder) => createTestApi({ store: new MemoryStore(), ...(embedder ? { embedder } : {}) });

describe('/api/embeddings', () => {
  it('reports the hashing embedder by default', async () => {
    const response = await (await app()).get('/embeddings');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ id: 'hashing-v3-1024', dimensions: 1024, kind: 'hashing', status: 'ready' });
  });

  it('embeds texts in order with the active embedder', async () => {
    const texts = ['getUserName', 'get_user_name', ''];
    const response = await (await app()).post('/embeddings', { texts });
    expect(response.status).toBe(200);
    const body = response.json() as { embedder: string; dimensions: number; vectors: number[][] };
    expect(body.embedder).toBe('hashing-v3-1024');
    expect(body.dimensions).toBe(1024);
    const expected = await new HashingEmbedder().embed(texts);
    expect(body.vectors).toHaveLength(3);
    body.vectors.forEach((v, i) => v.forEach((x, j) => expect(x).toBeCloseTo(expected[i]![j]!, 6)));
  });

  it('refuses bad bodies with the documented errors', async () => {
    const api = await app();
    expect((await api.post('/embeddings', '{')).status).toBe(400);
    expect((await api.post('/embeddings', { texts: 'x' })).status).toBe(422);
    expect((await api.post('/embeddings', { texts: [1] })).status).toBe(422);
    expect((await api.post('/embeddings', { texts: Array(1025).fill('x') })).status).toBe(422);
    expect((await api.post('/embeddings')).status).toBe(422);
  });

  it('answers 503 when the embedder fails', async () => {
    const broken: Embedder = { id: 'broken', dimensions: 3, embed: () => Promise.reject(new Error('no weights')) };
    const response = await (await app(broken)).post('/embeddings', { texts: ['x'] });
    expect(response.status).toBe(503);
    expect(response.json()).toMatchObject({ error: { status: 503, code: 'embedder_unavailable' } });
    expect((await (await app(broken)).get('/embeddings')).json()).toMatchObject({ id: 'broken', kind: 'custom' });
  });
});

describe('DeferredEmbedder (chosen in the background)', () => {
  it('waits for the choice before embedding, and reads id and dimensions only once chosen', async () => {
    let choose!: (e: HashingEmbedder) => void;
    const deferred = new DeferredEmbedder(new Promise((resolve) => (choose = resolve)));
    expect(() => deferred.id).toThrow(/ready/);
    expect(deferred.describe()).toMatchObject({ status: 'loading' });
    const vectors = deferred.embed(['getUserName']);
    choose(new HashingEmbedder({ dimensions: 64 }));
    expect((await vectors)[0]!.length).toBe(64);
    await deferred.ready();
    expect([deferred.id, deferred.dimensions]).toEqual(['hashing-v3-64', 64]);
  });

  it('given a function, starts choosing only when first needed', async () => {
    let probes = 0;
    const deferred = new DeferredEmbedder(async () => {
      probes++;
      return new HashingEmbedder({ dimensions: 32 });
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(probes).toBe(0);
    await deferred.ready();
    await deferred.embed(['x']);
    expect([probes, deferred.dimensions]).toEqual([1, 32]);
  });

  it('falls back to hashing when choosing fails, and says why', async () => {
    const deferred = new DeferredEmbedder(Promise.reject(new Error('probe exploded')));
    await deferred.ready();
    expect(deferred.id).toBe('hashing-v3-1024');
    expect(deferred.describe().reason).toContain('probe exploded');
  });

  it('serves the routes once chosen', async () => {
    const api = await app(new DeferredEmbedder(new Promise((resolve) => setTimeout(() => resolve(new HashingEmbedder()), 20))));
    expect((await api.get('/embeddings')).json()).toMatchObject({ id: 'hashing-v3-1024', status: 'ready' });
    expect((await api.post('/embeddings', { texts: ['a'] })).json().dimensions).toBe(1024);
  });
});
