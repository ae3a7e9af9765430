/**
 * Stores as earlier versions of Tessera wrote them, for the upgrade tests (test/unit/upgrades.test.ts in
 * Node on fake-indexeddb, test/e2e/upgrades.spec.ts in Chromium).
 *
 * SCHEMA_HISTORY is the history of worker/browser/idb-store.ts's MIGRATIONS: which object stores each
 * IndexedDB version had, from which commit. `legacyRecords(library, version)` takes a sample library (made
 * with today's code) down to what that version held, and adds what only older code wrote: links as id
 * arrays on both sides before version 7 (`linksAsArrays`), no change log and no seq before version 2, a
 * search snapshot of an older format (version 3), snippet vectors as Float32Array without scale nor
 * content key under an older vectors state (version 4, before 8-bit vectors). `createLegacyDatabase`
 * writes them into a database created at that version with exactly that version's object stores, as the
 * old code left it.
 */
import type { CollectionName } from '../../worker/core/store/records.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { dumpStore } from './dump.ts';
import { PNG_BYTES, GO_SNIPPET, PYTHON_SNIPPET, fileSeed, fragmentSeed } from './seeds.ts';
import { SCHEMA_HISTORY, linksAsArrays } from './legacy-schema.ts';
import type { TestApi } from './test-api.ts';

export { SCHEMA_HISTORY, createLegacyDatabase, type SchemaVersion } from './legacy-schema.ts';

export type Records = Partial<Record<CollectionName, Record<string, unknown>[]>>;

/** What the sample library's assets answer through today's API, to compare after an upgrade. */
export interface SampleLibrary {
  records: Records;
  /** GET /asset/{id} and GET /asset/{id}/activities of each asset, by id. */
  assets: Record<string, { asset: any; activities: any }>;
  /** A word of each asset's text that search finds it by. */
  words: Record<string, string>;
  tags: any;
  websites: any;
  summaries: any;
  /** GET /asset/{id}/conversations of each asset, by id. */
  conversations: Record<string, any>;
}

/**
 * A small library made through the API: code, prose and an image, with tags, websites, a person, a
 * workstream summary, a description, a rename, score increments, associations (a tag and a summary of two
 * assets each, linked in an order that is not creation order) and a delete; with `qgpt` (what version 4
 * and later keep) conversations and relevance results too.
 */
export async function sampleLibrary(api: TestApi, { qgpt }: { qgpt: boolean }): Promise<SampleLibrary> {
  const py = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'argument parser', tags: [{ text: 'cli' }], websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse' }], annotations: [{ type: 'DESCRIPTION', text: 'Parses flags.' }] }));
  const go = await api.create(fragmentSeed(GO_SNIPPET, { tags: [{ text: 'hello' }], persons: [{ type: { basic: { name: 'Ada', email: 'ada@example.com' } } }] }));
  const notes = await api.create(fragmentSeed('Release checklist: bump the version, tag, then announce on the mailing list.\n', { name: 'release notes' }));
  const image = await api.create(fileSeed({ bytes: { raw: PNG_BYTES } }, { name: 'pixel' }));
  const gone = await api.create(fragmentSeed('print("temporary")\n'));
  const check = async (reply: Promise<{ status: number; text: string }>) => {
    const r = await reply;
    if (r.status >= 300) throw new Error(`sample library: ${r.status} ${r.text}`);
  };
  await check(api.post('/asset/update', { id: go.id, name: 'hello world in go' }));
  await check(api.post(`/asset/${py.id}/scores/increment`, { asset: { reuse: true } }));
  await check(api.post(`/asset/${py.id}/scores/increment`, { asset: { reuse: true, reference: true } }));
  await check(api.post(`/asset/${notes.id}/tags/associate/${py.tags.iterable[0].id}`));
  await check(api.post(`/asset/${notes.id}/tags/associate/${go.tags.iterable[0].id}`));
  const model = { id: 'm', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' };
  const summary = (await api.post('/workstream_summaries/create', { name: 'Monday', model, assets: { iterable: [{ id: notes.id }] } })).json().id;
  await check(api.post(`/asset/${py.id}/workstream_summaries/associate/${summary}`));
  await check(api.post(`/assets/${gone.id}/delete`));
  if (qgpt) {
    const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never });
    await saveExchange(ctx, { conversation: 'c1', query: 'how are flags parsed?', answer: 'With argparse.', assets: [py.id] });
    await saveExchange(ctx, { conversation: 'c2', query: 'and in go?', answer: 'With the flag package.', assets: [go.id, py.id] });
    await check(api.post('/qgpt/relevance', { query: 'parse command line flags', options: { database: true } }));
  }

  const assets: SampleLibrary['assets'] = {};
  const conversations: SampleLibrary['conversations'] = {};
  for (const { id } of [py, go, notes, image]) {
    assets[id] = { asset: (await api.get(`/asset/${id}`)).json(), activities: (await api.get(`/asset/${id}/activities`)).json() };
    conversations[id] = (await api.get(`/asset/${id}/conversations`)).json();
  }
  const dump = (await dumpStore(api.store)) as Records;
  // Derived records are made again by whoever needs them: today's are left out, older ones added per version.
  delete dump.indexes;
  delete dump.snippets;
  return {
    records: dump,
    assets,
    words: { [py.id]: 'argparse', [go.id]: 'Println', [notes.id]: 'checklist', [image.id]: 'pixel' },
    tags: (await api.get('/tags')).json(),
    websites: (await api.get('/websites')).json(),
    summaries: (await api.get('/workstream_summaries')).json(),
    conversations,
  };
}

/**
 * The sample's records as `version` held them (see the header); the sample is made with `qgpt` from
 * version 4 on. JSON-clean except version 4's vectors.
 */
export function legacyRecords(library: SampleLibrary, version: number): Records {
  const stores = SCHEMA_HISTORY.find((v) => v.version === version)!.stores;
  const records = (version < 7 ? linksAsArrays(library.records as Record<string, Record<string, unknown>[]>) : library.records) as Records;
  const out: Records = {};
  for (const store of stores) out[store] = structuredClone(records[store] ?? []);
  if (version < 2) out.meta = (out.meta ?? []).filter((r) => r.id !== 'seq'); // no change log, no seq
  if (version < 6) for (const tag of out.tags ?? []) delete (tag as { folded?: string }).folded; // no index key before the indexes
  const seq = Number((library.records.meta ?? []).find((r) => r.id === 'seq')?.value ?? 0);
  if (version >= 3) {
    // The search snapshot of an older format version: to be rebuilt, never read as today's.
    out.indexes = [{ id: 'search', version: 1, seq, saved: '2026-01-01T00:00:00.000Z', data: { documents: [['old', 'layout']], postings: {} } }];
  }
  if (version >= 4) {
    // Vectors as version 4 first stored them: Float32Array, no scale, no content key, state version 1
    // (by today's embedder, so only the format tells them apart).
    const { id: embedder, dimensions } = new HashingEmbedder();
    const assets = (library.records.assets ?? []) as { id: string; updated: string; formats: string[] }[];
    out.snippets = assets.map((a) => ({ id: a.id, updated: a.updated, embedder, snippets: [{ format: a.formats[0]!, start: 0, end: 10, vector: new Float32Array(dimensions).fill(0.05) }] }));
    out.indexes!.push({ id: 'vectors', version: 1, seq, saved: '2026-01-01T00:00:00.000Z', data: { embedder } });
  }
  return out;
}
