import { describe, expect, it } from 'vitest';
import { MAX_IMPORT } from '../../worker/core/assets/import.ts';
import { POSITION_ID } from '../../worker/core/links/link-records.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { WriteTx } from '../../worker/core/store/store.ts';
import { dumpStore } from '../support/dump.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';

/** `POST /assets/import`: many seeds in one transaction (what the search benchmark loads its libraries with). */
describe('POST /assets/import', () => {
  it('creates one asset per seed, in order, as create would, and search finds them all', async () => {
    const api = await createTestApi();
    const seeds = [
      fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'cli' }] }),
      fragmentSeed(GO_SNIPPET),
      fragmentSeed('SELECT 1;', { name: 'one' }, { specific: 'sql' }),
    ];
    const reply = await api.post('/assets/import', { iterable: seeds });
    expect(reply.status).toBe(200);
    const ids = reply.json().iterable.map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(3);
    expect(reply.json().indices).toEqual({ [ids[0]]: 0, [ids[1]]: 1, [ids[2]]: 2 });
    expect(api.events.map((e) => [e.asset, e.kind])).toEqual(ids.map((id: string) => [id, 'created']));
    const [py, go, sql] = await Promise.all(ids.map(async (id: string) => (await api.get(`/asset/${id}`)).json()));
    expect(py.tags.iterable[0].text).toBe('cli');
    expect(py.formats.iterable[0].classification.specific).toBe('py');
    expect(go.formats.iterable[0].classification.specific).toBe('go');
    expect(sql.name).toBe('one');
    expect((await api.get(`/asset/${ids[0]}/activities`)).json().iterable).toHaveLength(1);
    const found = (await api.get('/assets/search?query=println')).json().iterable.map((r: any) => r.identifier);
    expect(found).toEqual([ids[1]]);
    expect((await api.post('/assets/import', { iterable: [] })).json().iterable).toEqual([]);
  });

  it('seeds naming the same tag or website share one, created once, and it lists their assets in seed order (across slices)', async () => {
    const api = await createTestApi();
    const existing = (await api.post('/tags/create', { text: 'Shell' })).json();
    const site = { url: 'https://example.com/docs', name: 'docs' };
    const seeds = Array.from({ length: 250 }, (_, i) =>
      fragmentSeed(`echo ${i}`, {
        // The same new tag in three spellings (one seed names it twice), an existing tag, a website.
        tags: [{ text: ['cli', 'CLI', ' Cli '][i % 3]! }, ...(i % 5 === 0 ? [{ text: 'cli' }, { text: 'shell' }] : [])],
        ...(i % 2 === 0 ? { websites: [site, site] } : {}),
      }),
    );
    const ids = (await api.post('/assets/import', { iterable: seeds })).json().iterable.map((r: { id: string }) => r.id);
    const tags = (await api.get('/tags')).json().iterable;
    expect(tags.map((t: { text: string }) => t.text).sort()).toEqual(['Shell', 'cli']);
    const cli = tags.find((t: { text: string }) => t.text === 'cli');
    expect(cli.assets.iterable.map((a: { id: string }) => a.id)).toEqual(ids);
    const shell = tags.find((t: { id: string }) => t.id === existing.id);
    expect(shell.assets.iterable.map((a: { id: string }) => a.id)).toEqual(ids.filter((_: string, i: number) => i % 5 === 0));
    const websites = (await api.get('/websites')).json().iterable;
    expect(websites).toHaveLength(1);
    expect(websites[0].assets.iterable.map((a: { id: string }) => a.id)).toEqual(ids.filter((_: string, i: number) => i % 2 === 0));
    const first = (await api.get(`/asset/${ids[0]}`)).json();
    expect(first.tags.iterable.map((t: { text: string }) => t.text)).toEqual(['cli', 'Shell']);
    expect(first.websites.iterable.map((w: { url: string }) => w.url)).toEqual([site.url]);
  });

  it('puts the link position counter once a slice of seeds, not once a tagged seed', async () => {
    const counterPuts: number[] = [];
    const memory = new MemoryStore();
    const store = new Proxy(memory, {
      get(target, key) {
        if (key !== 'write') return Reflect.get(target, key, target);
        return (fn: (tx: WriteTx) => Promise<unknown>, scope?: readonly CollectionName[]) =>
          target.write((tx) => fn({
            ...tx,
            put: (collection, record) => {
              if (collection === 'meta' && (record as { id: string }).id === POSITION_ID) counterPuts.push((record as { value: number }).value);
              return tx.put(collection, record);
            },
          }), scope);
      },
    });
    const api = await createTestApi({ store });
    const seeds = Array.from({ length: 200 }, (_, i) => fragmentSeed(`echo ${i}`, { tags: [{ text: 'cli' }] }));
    const ids = (await api.post('/assets/import', { iterable: seeds })).json().iterable.map((r: { id: string }) => r.id);
    // 200 tagged seeds stored 50 at a time: a put or two a slice, the last holding every position taken.
    expect(counterPuts.length).toBeGreaterThan(0);
    expect(counterPuts.length).toBeLessThanOrEqual(8);
    expect(counterPuts.at(-1)).toBe(200);
    const tag = (await api.get('/tags')).json().iterable.find((t: { text: string }) => t.text === 'cli');
    expect(tag.assets.iterable.map((a: { id: string }) => a.id)).toEqual(ids);
  });

  it('stores nothing when one seed is refused, and says which', async () => {
    const api = await createTestApi();
    const before = await dumpStore(api.store);
    const reply = await api.post('/assets/import', { iterable: [fragmentSeed('ok'), { asset: { application: 'nope' } }] });
    expect(reply.status).toBe(422);
    const empty = await api.post('/assets/import', { iterable: [fragmentSeed('ok'), { asset: { ...fragmentSeed('x').asset, format: {} } }] });
    expect(empty.status).toBe(422);
    expect(empty.json().error.message).toMatch(/^iterable\.1: /);
    expect(await dumpStore(api.store)).toEqual(before);
    expect(api.events).toEqual([]);
    expect((await api.post('/assets/import', {})).status).toBe(422);
  });

  it(`refuses more than ${MAX_IMPORT} seeds with a 413`, async () => {
    const api = await createTestApi();
    const seed = fragmentSeed('x = 1', undefined, { specific: 'py' });
    const reply = await api.post('/assets/import', { iterable: Array.from({ length: MAX_IMPORT + 1 }, () => seed) });
    expect(reply.status).toBe(413);
    expect(reply.json().error.code).toBe('too_many_seeds');
  });
});
