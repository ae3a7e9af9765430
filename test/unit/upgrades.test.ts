/**
 * Upgrades (issue 13, "What to prove" 5), on fake-indexeddb: a database left by each earlier schema
 * version (test/support/legacy-stores.ts builds one with that version's object stores and records) opens
 * under today's IdbStore, and through the API every asset is as it was (the asset, its formats and
 * content, tags, websites, annotations, activities, score), search finds each one, the stores of later
 * versions exist, derived data of older formats (search snapshot, vectors) is made again rather than read,
 * and writes work. The same for a store at today's version with older derived records.
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDB_VERSION, IdbStore } from '../../worker/browser/idb-store.ts';
import { COLLECTIONS } from '../../worker/core/store/records.ts';
import { LATEST_VERSION } from '../support/legacy-schema.ts';
import { SCHEMA_HISTORY, createLegacyDatabase, legacyRecords, sampleLibrary, type SampleLibrary } from '../support/legacy-stores.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';
import { storedVectorsOf } from '../../worker/core/qgpt/vectors/stored-vectors.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';

/** The sample library before question answering (versions 1-3) and with it (4 on). */
const libraries: Record<'plain' | 'qgpt', SampleLibrary> = {} as never;
let n = 0;

beforeAll(async () => {
  for (const kind of ['plain', 'qgpt'] as const) {
    let clock = Date.parse('2026-03-01T00:00:00Z');
    const source = await createTestApi({ store: new MemoryStore(), now: () => new Date((clock += 1000)) });
    libraries[kind] = await sampleLibrary(source, { qgpt: kind === 'qgpt' });
  }
});

it('SCHEMA_HISTORY names every IndexedDB version up to today\'s, and today\'s stores', () => {
  expect(SCHEMA_HISTORY.map((v) => v.version)).toEqual(Array.from({ length: IDB_VERSION }, (_, i) => i + 1));
  expect(LATEST_VERSION).toBe(IDB_VERSION);
  expect([...SCHEMA_HISTORY.at(-1)!.stores].sort()).toEqual([...COLLECTIONS].sort());
});

const cases = [
  ...SCHEMA_HISTORY.filter((v) => v.version < IDB_VERSION).map((v) => ({ version: v.version, title: `version ${v.version} (since ${v.since})` })),
  { version: IDB_VERSION, title: `version ${IDB_VERSION}, today's, with derived records of older formats` },
];

describe.each(cases)('a store written at $title', ({ version }) => {
  it('opens under today\'s version with every asset intact and readable through the API; search and writes work', async () => {
    const library = libraries[version >= 4 ? 'qgpt' : 'plain'];
    const name = `upgrade-${version}-${++n}`;
    const { stores, indexes } = SCHEMA_HISTORY.find((v) => v.version === version)!;
    const records = legacyRecords(library, version);
    await createLegacyDatabase({ name, version, stores, indexes, records: records as Record<string, unknown[]> });

    const store = await IdbStore.open(name);
    const api = await createTestApi({ store });
    // Every store of today's version is there.
    for (const c of COLLECTIONS) expect(typeof (await store.read((tx) => tx.count(c), [c])), c).toBe('number');

    const ids = (await api.get('/assets/identifiers')).json().iterable.map((a: { id: string }) => a.id).sort();
    expect(ids).toEqual(Object.keys(library.assets).sort());
    for (const [id, expected] of Object.entries(library.assets)) {
      expect((await api.get(`/asset/${id}`)).json(), id).toEqual(expected.asset);
      expect((await api.get(`/asset/${id}/activities`)).json(), id).toEqual(expected.activities);
    }
    expect((await api.get('/tags')).json()).toEqual(library.tags);
    expect((await api.get('/websites')).json()).toEqual(library.websites);
    // Every link is there, once, each side in its order (the Assets above, these, and the link records).
    expect((await api.get('/workstream_summaries')).json()).toEqual(library.summaries);
    for (const [id, expected] of Object.entries(library.conversations)) expect((await api.get(`/asset/${id}/conversations`)).json(), id).toEqual(expected);
    const links = (records: { id: string }[] | undefined) => (records ?? []).map((l) => l.id).sort();
    expect(links(await store.read((tx) => tx.getAll('links'), ['links']))).toEqual(links(library.records.links as { id: string }[]));
    // Search finds each asset (the index is built anew: none, or one of an older format, was stored).
    for (const [id, word] of Object.entries(library.words)) {
      const found = (await api.get(`/assets/search?query=${encodeURIComponent(word)}`)).json().iterable.map((r: any) => r.identifier);
      expect(found, word).toContain(id);
    }
    const rows = (await api.get('/library')).json().rows.map((r: { id: string }) => r.id).sort();
    expect(rows).toEqual(Object.keys(library.assets).sort());
    // Relevance works, over vectors made anew (older ones of another format are not read as today's).
    const relevance = await api.post('/qgpt/relevance', { query: 'parse command line flags', options: { database: true } });
    expect(relevance.status).toBe(200);
    const snippets = [...(await storedVectorsOf(store, (await api.get('/embeddings')).json().id)).values()];
    expect(snippets.map((s) => s.id).sort()).toEqual(ids);
    for (const s of snippets) for (const v of s.snippets) expect(v.vector).toBeInstanceOf(Int8Array);
    // The identifiers stream starts from the store as it is.
    const snapshot = (await api.get('/assets/stream/identifiers')).json();
    expect(snapshot.iterable.map((i: { asset: { id: string } }) => i.asset.id).sort()).toEqual(ids);

    // Writes work, and the change log goes on from where the old one stopped (or starts).
    const created = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'after the upgrade' }));
    const since = (await api.get('/assets/stream/identifiers?since=0')).json();
    expect(JSON.stringify(since)).toContain(created.id);
    const first = Object.keys(library.assets)[0]!;
    expect((await api.post('/asset/update', { id: first, name: 'renamed after the upgrade' })).json().name).toBe('renamed after the upgrade');
    expect((await api.post(`/assets/${created.id}/delete`)).status).toBe(200);
  });
});
