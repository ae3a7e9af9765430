import { describe, expect, it } from 'vitest';
import { AssetCache, estimateBytes } from '../../worker/core/assets/asset-cache.ts';
import { MemoryFeed } from '../../worker/core/feed/feed.ts';
import type { Asset } from '../../worker/core/model/schemas.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';

const fake = (name: string) => ({ id: name, name }) as unknown as Asset;

describe('AssetCache', () => {
  it('answers a repeated read from memory and reloads after any published change', async () => {
    const feed = new MemoryFeed();
    const cache = new AssetCache(feed);
    let loads = 0;
    const load = async () => fake(`v${++loads}`);
    expect((await cache.get('a', load)).name).toBe('v1');
    expect((await cache.get('a', load)).name).toBe('v1');
    feed.publish([{ seq: 1, asset: 'other', kind: 'updated' }]);
    expect((await cache.get('a', load)).name).toBe('v2');
    expect(loads).toBe(2);
  });

  it('does not keep what a read saw before a change that landed while it ran', async () => {
    const feed = new MemoryFeed();
    const cache = new AssetCache(feed);
    let release!: () => void;
    const slow = cache.get('a', () => new Promise<Asset>((resolve) => (release = () => resolve(fake('stale')))));
    feed.publish([{ seq: 1, asset: 'a', kind: 'updated' }]);
    release();
    expect((await slow).name).toBe('stale');
    expect((await cache.get('a', async () => fake('fresh'))).name).toBe('fresh');
  });

  it('answers several keys at once: those kept as they are, the others from one load of the missing ones', async () => {
    const feed = new MemoryFeed();
    const cache = new AssetCache(feed);
    await cache.get('a', async () => fake('a1'));
    const asked: string[][] = [];
    const load = async (missing: string[]) => (asked.push(missing), missing.map((key) => (key === 'gone' ? undefined : fake(`${key}2`))));
    expect((await cache.getMany(['b', 'a', 'gone', 'c'], load)).map((a) => a?.name)).toEqual(['b2', 'a1', undefined, 'c2']);
    expect(asked).toEqual([['b', 'gone', 'c']]);
    // Kept: all but what the load found nothing for.
    expect((await cache.getMany(['c', 'b', 'gone'], load)).map((a) => a?.name)).toEqual(['c2', 'b2', undefined]);
    expect(asked).toEqual([['b', 'gone', 'c'], ['gone']]);
    // A change while the load runs: what it answers is not kept.
    let release!: () => void;
    const slow = cache.getMany(['d'], (missing) => new Promise<Asset[]>((resolve) => (release = () => resolve(missing.map(() => fake('stale'))))));
    feed.publish([{ seq: 1, asset: 'd', kind: 'updated' }]);
    release();
    expect((await slow)[0]!.name).toBe('stale');
    expect((await cache.getMany(['d', 'a'], load)).map((a) => a?.name)).toEqual(['d2', 'a2']);
  });

  it('does not keep failed reads', async () => {
    const cache = new AssetCache(new MemoryFeed());
    await expect(cache.get('missing', async () => Promise.reject(new Error('404')))).rejects.toThrow('404');
    let loads = 0;
    await cache.get('missing', async () => fake(`v${++loads}`));
    expect(loads).toBe(1);
  });

  it('is bounded by bytes, not count: the least recently used go first, and an asset over the bound is not kept (review M12)', async () => {
    const big = (name: string, size: number) => ({ id: name, name, formats: { iterable: [{ fragment: { string: { raw: 'x'.repeat(size) } } }] } }) as unknown as Asset;
    const oneMiB = estimateBytes(big('a', 512 * 1024)); // 2 bytes a character: about 1 MiB
    const cache = new AssetCache(new MemoryFeed(), Math.floor(2.5 * oneMiB));
    const loads: string[] = [];
    const load = (name: string, size = 512 * 1024) => async () => (loads.push(name), big(name, size));
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('a', load('a')); // a hit: now the most recently used
    await cache.get('c', load('c')); // over the bound: b, the least recently used, goes
    expect(cache.size).toBeLessThanOrEqual(2.5 * oneMiB);
    await cache.get('a', load('a'));
    await cache.get('c', load('c'));
    await cache.get('b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
    // An asset larger than the whole bound is answered, not kept, and keeps what is there.
    const before = cache.size;
    await cache.get('huge', load('huge', 2 * 1024 * 1024));
    await cache.get('huge', load('huge', 2 * 1024 * 1024));
    expect(loads.filter((l) => l === 'huge')).toHaveLength(2);
    expect(cache.size).toBe(before);
    // Many small ones fit where few large ones did.
    const small = new AssetCache(new MemoryFeed(), Math.floor(2.5 * oneMiB));
    for (let i = 0; i < 2000; i++) await small.get(`s${i}`, async () => fake(`s${i}`));
    let reloads = 0;
    for (let i = 0; i < 2000; i++) await small.get(`s${i}`, async () => (reloads++, fake(`s${i}`)));
    expect(reloads).toBe(0);
  });

  it('estimates an object reached twice once, and a byte array by its length', () => {
    const content = { raw: 'y'.repeat(1000) };
    const shared = estimateBytes({ a: content, b: content });
    expect(shared).toBeLessThan(estimateBytes({ a: content, b: { raw: 'y'.repeat(1000) } }));
    expect(estimateBytes({ raw: Array.from({ length: 10_000 }, (_, i) => i % 256) })).toBeGreaterThanOrEqual(80_000);
  });
});

describe('reads through the cache stay current', () => {
  it('shows a change to what one asset shows of another (a shared tag gains an asset)', async () => {
    const api = await createTestApi();
    const a = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'shared' }] }))).json();
    const before = (await api.get(`/asset/${a.id}`)).json();
    expect(before.tags.iterable[0].assets.iterable).toEqual([{ id: a.id }]);
    const b = (await api.post('/assets/create', fragmentSeed('x = 1', { tags: [{ text: 'shared' }] }))).json();
    const after = (await api.get(`/asset/${a.id}`)).json();
    expect(after.tags.iterable[0].assets.iterable.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('shows a rename and a deletion at once', async () => {
    const api = await createTestApi();
    const a = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET))).json();
    await api.get(`/asset/${a.id}?transferables=false`);
    await api.post('/asset/update', { id: a.id, name: 'renamed' });
    expect((await api.get(`/asset/${a.id}?transferables=false`)).json().name).toBe('renamed');
    await api.post(`/assets/${a.id}/delete`);
    expect((await api.get(`/asset/${a.id}`)).status).toBe(404);
  });

  it('serves a repeated listing from its kept body, and a listing after a write shows the write (and a deletion)', async () => {
    const api = await createTestApi();
    const a = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET))).json();
    const first = await api.get('/assets?transferables=false');
    expect(first.contentType).toContain('application/json');
    expect(first.json().iterable.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await api.get('/assets?transferables=false')).text).toBe(first.text);
    const b = (await api.post('/assets/create', fragmentSeed('x = 1'))).json();
    expect((await api.get('/assets?transferables=false')).json().iterable.map((x: { id: string }) => x.id).sort()).toEqual([a.id, b.id].sort());
    // The two variants are kept apart: with contents and without.
    expect((await api.get('/assets')).json().iterable[0].formats.iterable[0].fragment.string.raw).toBeDefined();
    expect((await api.get('/assets?transferables=false')).json().iterable[0].formats.iterable[0].fragment).toBeUndefined();
    await api.post(`/assets/${a.id}/delete`);
    expect((await api.get('/assets?transferables=false')).json().iterable.map((x: { id: string }) => x.id)).toEqual([b.id]);
  });
});
