import { describe, expect, it } from 'vitest';
import { AssetCache } from '../../worker/core/assets/asset-cache.ts';
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

  it('does not keep failed reads, and stays within its size limit', async () => {
    const cache = new AssetCache(new MemoryFeed(), 2);
    await expect(cache.get('missing', async () => Promise.reject(new Error('404')))).rejects.toThrow('404');
    let loads = 0;
    const load = async () => fake(`v${++loads}`);
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load); // over the limit: starts over
    await cache.get('a', load);
    expect(loads).toBe(4);
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
});
