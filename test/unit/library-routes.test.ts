import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fileSeed, fragmentSeed } from '../support/seeds.ts';
import { testClassifier } from '../support/classifier.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { createServices } from '../../worker/core/services.ts';

let api: TestApi;
let clock = Date.parse('2026-01-01T00:00:00Z');

beforeEach(async () => {
  clock = Date.parse('2026-01-01T00:00:00Z');
  // A clock that moves one minute per reading, so "newest first" is decided by the order of writes.
  api = await createTestApi({ now: () => new Date((clock += 60_000)) });
});

describe('GET /library', () => {
  it('lists every asset newest update first, with language, tags and websites', async () => {
    const py = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'Flags', tags: [{ text: 'CLI' }], websites: [{ url: 'https://docs.python.org/3/', name: 'docs' }] }));
    const go = await api.create(fragmentSeed(GO_SNIPPET, { name: 'Go main' }));
    const empty = await api.get('/library');
    expect(empty.status).toBe(200);
    const rows = empty.json().rows;
    expect(empty.json().total).toBe(2);
    expect(rows.map((r: { id: string }) => r.id)).toEqual([go.id, py.id]);
    const flags = rows[1];
    expect(flags).toMatchObject({ name: 'Flags', language: 'py', generic: 'CODE', tags: ['cli'], websites: ['https://docs.python.org/3/'] });
    expect(flags.created).toBe(Date.parse(py.created.value));

    // An update moves the asset to the top; a delete takes it out.
    const renamed = await api.post('/asset/update', { ...py, name: 'Flags (renamed)' });
    expect(renamed.status).toBe(200);
    let after = (await api.get('/library')).json().rows;
    expect(after.map((r: { name: string }) => r.name)).toEqual(['Flags (renamed)', 'Go main']);
    expect((await api.post(`/assets/${go.id}/delete`)).status).toBe(200);
    after = (await api.get('/library')).json().rows;
    expect(after.map((r: { id: string }) => r.id)).toEqual([py.id]);
  });

  it('keeps its body until the next change, a change of another context too', async () => {
    const py = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'Flags' }));
    const first = await api.get('/library');
    expect(api.ctx.assetCache.size).toBeGreaterThanOrEqual(first.text.length);
    expect((await api.get('/library')).text).toBe(first.text);
    const other = createServices(withDefaults({ store: api.store, feed: api.feed, classifier: await testClassifier() }));
    const go = await other.createAsset(fragmentSeed(GO_SNIPPET, { name: 'Go main' }));
    expect((await api.get('/library')).json().rows.map((r: { id: string }) => r.id)).toEqual([go.id, py.id]);
  });

  it('answers the first rows alone with first=N, counting all in total, each until the next change', async () => {
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) ids.unshift((await api.create(fragmentSeed(PYTHON_SNIPPET, { name }))).id);
    const all = (await api.get('/library')).json();
    expect(all.rows.map((r: { id: string }) => r.id)).toEqual(ids);
    const first = await api.get('/library?first=2');
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ rows: all.rows.slice(0, 2), total: 3 });
    expect((await api.get('/library?first=10')).json()).toEqual(all);
    // The first screen follows a change, as the whole list does.
    const d = await api.create(fragmentSeed(GO_SNIPPET, { name: 'd' }));
    expect((await api.get('/library?first=2')).json().rows.map((r: { id: string }) => r.id)).toEqual([d.id, ids[0]]);
    expect((await api.get('/library?first=2')).json().total).toBe(4);
  });

  it('refuses a bad pseudo flag or first count with a 400', async () => {
    for (const query of ['pseudo=maybe', 'first=0', 'first=-1', 'first=two', 'first=2.5', 'first=2000000']) {
      const reply = await api.get(`/library?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json().error.code, query).toBe('invalid_parameter');
    }
  });
});

describe('GET /library/previews', () => {
  it('answers the first lines of text assets, leaves out unknown ids and images', async () => {
    const long = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const text = await api.create(fragmentSeed(long));
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];
    const image = await api.create(fileSeed({ bytes: { raw: png } }));
    const reply = await api.get(`/library/previews?ids=${text.id},${image.id},no-such-id`);
    expect(reply.status).toBe(200);
    const { previews } = reply.json();
    expect(Object.keys(previews)).toEqual([text.id]);
    expect(previews[text.id]).toBe('line 0\nline 1\nline 2\nline 3');
  });

  it('cuts a long first line', async () => {
    const created = await api.create(fragmentSeed('x'.repeat(5000)));
    const { previews } = (await api.get(`/library/previews?ids=${created.id}`)).json();
    expect(previews[created.id].length).toBeLessThanOrEqual(320);
    expect(previews[created.id].endsWith('…')).toBe(true);
  });

  it('refuses no ids and too many ids with a 400', async () => {
    expect((await api.get('/library/previews')).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => `id-${i}`).join(',');
    const reply = await api.get(`/library/previews?ids=${many}`);
    expect(reply.status).toBe(400);
    expect(reply.json().error.message).toMatch(/At most 100/);
  });
});
