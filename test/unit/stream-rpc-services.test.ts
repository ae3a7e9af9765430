/**
 * The services behind the RPC path (worker/core/services.ts) against the HTTP routes, in Node on one
 * store: the same wire object for every operation, the same error (status, code) for bad input.
 * The Chromium test (test/e2e/rpc.spec.ts) checks the same through the real MessageChannel.
 */
import { describe, expect, it } from 'vitest';
import { remoteServices } from '../../worker/browser/rpc.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { MemoryFeed } from '../../worker/core/feed/feed.ts';
import { ApiError, asApiError } from '../../worker/core/errors.ts';
import { BODY_OPERATIONS, OPERATIONS, STREAMING_OPERATIONS } from '../../worker/core/service-operations.ts';
import { createServices, type Services } from '../../worker/core/services.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { testClassifier } from '../support/classifier.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';

const MODEL = { id: 'extractive', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' };

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

async function setup() {
  const store = new MemoryStore();
  const api = await createTestApi({ store });
  // One store and one feed, as in the worker, where routes and RPC share the context.
  const services = createServices(withDefaults({ store, feed: api.feed, classifier: await testClassifier() }));
  return { api, services };
}

async function failure(run: () => Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await run();
  } catch (error) {
    const e = asApiError(error);
    return { status: e.status, code: e.code };
  }
  throw new Error('expected a failure');
}

describe('services = routes', () => {
  it('every read answers what its route answers', async () => {
    const { api, services } = await setup();
    const py = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'shared' }], websites: [{ url: 'https://example.com/', name: 'ex' }] }))).json();
    await services.createAsset(fragmentSeed(GO_SNIPPET) as never);
    expect((await api.post('/workstream_summaries/create', { name: 'week', model: MODEL })).status).toBe(200);
    await services.createSummary({ name: 'rpc', model: MODEL } as never);
    const reads: [unknown, string][] = [
      [await services.getAsset(py.id), `/asset/${py.id}`],
      [await services.getAsset(py.id, { transferables: false }), `/asset/${py.id}?transferables=false`],
      [await services.listAssets(), '/assets'],
      [await services.listAssets({ transferables: false }), '/assets?transferables=false'],
      [await services.listAssets({ pseudo: true }), '/assets?pseudo=true'],
      [await services.listIdentifiers(), '/assets/identifiers'],
      [await services.pseudoSnapshot(), '/assets/pseudo'],
      [await services.getFormats(py.id), `/asset/${py.id}/formats`],
      [await services.getActivities(py.id), `/asset/${py.id}/activities`],
      [await services.getConversations(py.id), `/asset/${py.id}/conversations`],
      [await services.listTags(), '/tags'],
      [await services.listWebsites(), '/websites'],
      [await services.listSummaries(), '/workstream_summaries'],
    ];
    for (const [value, path] of reads) expect(plain(value), path).toEqual((await api.get(path)).json());
    const seed = fragmentSeed(PYTHON_SNIPPET);
    expect(plain(await services.draftSeed(seed as never))).toEqual((await api.post('/assets/draft', seed)).json());
  });

  it('every write returns what its route returns and leaves the same state', async () => {
    const { api, services } = await setup();
    const created = await services.createAsset(fragmentSeed(PYTHON_SNIPPET) as never);
    expect(plain(created)).toEqual((await api.get(`/asset/${created.id}`)).json());
    const updated = await services.updateAsset({ ...created, name: 'renamed' });
    expect(updated.name).toBe('renamed');
    expect(plain(updated)).toEqual((await api.get(`/asset/${created.id}`)).json());
    const format = updated.formats.iterable[0]!;
    const reclassified = await services.reclassifyAsset({ asset: updated, ext: 'ts' } as never);
    expect(plain(reclassified)).toEqual((await api.get(`/asset/${created.id}`)).json());
    expect(format.id).toBeTruthy();
    expect(await services.incrementScores(created.id, { asset: { reuse: true } })).toBeUndefined();
    expect((await api.get(`/asset/${created.id}`)).json().score.reuse).toBe(1);
    const tag = await services.createTag({ text: 'rpc' });
    expect(plain(tag)).toEqual((await api.get('/tags')).json().iterable.find((t: { id: string }) => t.id === tag.id));
    const website = await services.createWebsite({ url: 'https://rpc.example/', name: 'rpc' });
    expect(plain(website)).toEqual((await api.get('/websites')).json().iterable.find((t: { id: string }) => t.id === website.id));
    await services.associate('tags', created.id, tag.id);
    await services.associate('websites', created.id, website.id);
    expect((await api.get(`/asset/${created.id}`)).json().tags.iterable.map((t: { id: string }) => t.id)).toEqual([tag.id]);
    await services.disassociate('tags', created.id, tag.id);
    expect((await api.get(`/asset/${created.id}`)).json().tags.iterable).toEqual([]);
    const exported = await services.exportAsset(created.id, 'MD');
    const viaHttp = (await api.get(`/asset/${created.id}/export?export_type=MD`)).json();
    expect(plain(exported)).toEqual(viaHttp);
    expect(await services.deleteAsset(created.id)).toBe(created.id);
    expect((await api.get(`/asset/${created.id}`)).status).toBe(404);
  });

  it('search, discovery, questions, embeddings, settings and streams answer what their routes answer', async () => {
    const { api, services } = await setup();
    const py = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'shared' }] }))).json();
    await services.createAsset(fragmentSeed(GO_SNIPPET) as never);
    const relevanceInput = { query: 'print hello', options: { database: true } };
    const cases: [unknown, string, string, unknown?][] = [
      [await services.searchAssets({ query: 'hello' }, { limit: 1 }), 'GET', '/assets/search?query=hello&limit=1'],
      [await services.searchAssets({ tags: ['shared'] }), 'GET', '/assets/search?searchable_tags=shared'],
      [await services.searchWithFilters({ query: 'hello' }, { transferables: false }), 'POST', '/assets/search?transferables=false', { query: 'hello' }],
      [await services.relatedAssets({ iterable: [{ id: py.id }] } as never), 'POST', '/assets/related', { iterable: [{ id: py.id }] }],
      [await services.suggestedAssets(), 'GET', '/assets?suggested=true'],
      [await services.embed({ texts: ['a', 'b'] }), 'POST', '/embeddings', { texts: ['a', 'b'] }],
      [await services.describeEmbedder(), 'GET', '/embeddings'],
      [await services.chatSettings(), 'GET', '/qgpt/settings'],
      [(await services.streamSnapshot('identifiers')).frame, 'GET', '/assets/stream/identifiers'],
      [await services.streamChanges('identifiers', 0), 'GET', '/assets/stream/identifiers?since=0'],
      [await services.listLibraryRows(), 'GET', '/library'],
      [await services.listLibraryRows({ first: 1 }), 'GET', '/library?first=1'],
    ];
    for (const [value, method, path, body] of cases) expect(plain(value), `${method} ${path}`).toEqual((await api.call(method, path, body)).json());
    // Snippet ids are numbered per answer: the rest must agree.
    const withoutIds = (output: { relevant: { iterable: { id?: string }[] } }) => output.relevant.iterable.map(({ id: _id, ...rest }) => rest);
    const relevant = await services.relevance(relevanceInput as never, { limit: 2 });
    expect(relevant.relevant.iterable).toHaveLength(2);
    expect(plain(withoutIds(relevant as never))).toEqual(withoutIds((await api.post('/qgpt/relevance?limit=2', relevanceInput)).json()));
  });

  it('bad input fails with the status and code of the route', async () => {
    const { api, services } = await setup();
    const a = await services.createAsset(fragmentSeed(PYTHON_SNIPPET) as never);
    const cases: [() => Promise<unknown>, string, string, unknown?][] = [
      [() => services.getAsset('nope'), 'GET', '/asset/nope'],
      [() => services.deleteAsset('nope'), 'POST', '/assets/nope/delete'],
      [() => services.createAsset({ asset: { format: { fragment: { string: { raw: 3 } } } } } as never), 'POST', '/assets/create', { asset: { format: { fragment: { string: { raw: 3 } } } } }],
      [() => services.createAsset({} as never), 'POST', '/assets/create', {}],
      [() => services.updateAsset({ name: 'x' } as never), 'POST', '/asset/update', { name: 'x' }],
      [() => services.updateAsset(undefined as never), 'POST', '/asset/update'],
      [() => services.exportAsset(a.id, 'PDF'), 'GET', `/asset/${a.id}/export?export_type=PDF`],
      [() => services.associate('tags', a.id, 'nope'), 'POST', `/asset/${a.id}/tags/associate/nope`],
      [() => services.associate('persons' as never, a.id, 'nope'), 'POST', `/asset/${a.id}/persons/associate/nope`],
      [() => services.associate('toString' as never, a.id, 'nope'), 'POST', `/asset/${a.id}/toString/associate/nope`],
      [() => services.disassociate('constructor' as never, a.id, 'nope'), 'POST', `/asset/${a.id}/constructor/disassociate/nope`],
      [() => services.createTag({} as never), 'POST', '/tags/create', {}],
      [() => services.getAsset(a.id, { transferables: 'maybe' as never }), 'GET', `/asset/${a.id}?transferables=maybe`],
      [() => services.searchAssets({}), 'GET', '/assets/search'],
      [() => services.searchAssets({ query: 'x' }, { limit: 0 }), 'GET', '/assets/search?query=x&limit=0'],
      [() => services.searchWithFilters({} as never, { offset: 2_000_000 }), 'POST', '/assets/search?offset=2000000', {}],
      [() => services.relevance(undefined as never), 'POST', '/qgpt/relevance'],
      [() => services.relevance({ query: 'x' } as never, { limit: 101 }), 'POST', '/qgpt/relevance?limit=101', { query: 'x' }],
      [() => services.question({ query: 3 } as never), 'POST', '/qgpt/question', { query: 3 }],
      [() => services.embed({ texts: [1] } as never), 'POST', '/embeddings', { texts: [1] }],
      [() => services.saveChatSettings({ url: 'x' } as never), 'PUT', '/qgpt/settings', { url: 'x' }],
      [() => services.importAssets(undefined as never), 'POST', '/assets/import'],
      [() => services.relatedAssets({ iterable: [{}] } as never), 'POST', '/assets/related', { iterable: [{}] }],
      [() => services.streamChanges('identifiers', -1), 'GET', '/assets/stream/identifiers?since=-1'],
      [() => services.getAsset(a.id, { accessor: { os: 3 } as never }), 'POST', `/asset/${a.id}`, { os: 3 }],
    ];
    for (const [run, method, path, body] of cases) {
      const reply = await api.call(method, path, body);
      const expected = reply.json().error;
      expect(await failure(run), `${method} ${path}`).toEqual({ status: expected.status, code: expected.code });
    }
  });

  it('refuses an input that refers to itself, which no route can receive, as a 422', async () => {
    const { services } = await setup();
    // A filter whose operations hold the filter itself: a page can send it through RPC (a structured clone).
    const filter: Record<string, unknown> = { classification: 'py' };
    filter.operations = { iterable: [filter] };
    expect(await failure(() => services.searchWithFilters({ query: 'x', filters: { iterable: [filter] } } as never))).toEqual({ status: 422, code: 'invalid_body' });
    // A body nested past the stack's depth the same way, and the service answers after both.
    let deep: Record<string, unknown> = { classification: 'py' };
    for (let i = 0; i < 50_000; i++) deep = { operations: { iterable: [deep] } };
    expect(await failure(() => services.searchWithFilters({ query: 'x', filters: { iterable: [deep] } } as never))).toEqual({ status: 422, code: 'invalid_body' });
    expect((await services.searchWithFilters({ query: 'x', filters: { iterable: [{ classification: 'py' }] } } as never)).results).toBeDefined();
  });

  it('OPERATIONS names every service operation but the streaming and body ones, reads apart from writes', async () => {
    const { services } = await setup();
    expect([...Object.keys(OPERATIONS), ...STREAMING_OPERATIONS, ...BODY_OPERATIONS].sort()).toEqual(Object.keys(services).sort());
    const writes = Object.entries(OPERATIONS).filter(([, kind]) => kind === 'write').map(([name]) => name);
    expect(writes).toContain('exportAsset');
    expect(writes).toContain('createAsset');
    const s: Services = services;
    expect(typeof s.getAsset).toBe('function');
  });

  it('asApiError maps like the app: ApiError as is, quota to 507, anything else to 500', () => {
    const api = new ApiError(404, 'x', 'y');
    expect(asApiError(api)).toBe(api);
    expect(asApiError(Object.assign(new Error('full'), { name: 'QuotaExceededError' })).status).toBe(507);
    expect(asApiError(new Error('boom'))).toMatchObject({ status: 500, code: 'internal_error', message: 'boom' });
  });
});

describe('the RPC path (worker/browser/rpc.ts)', () => {
  it('answers a wire object without changing the cached Asset it was read from (review 29)', async () => {
    const store = new MemoryStore();
    const ctx = withDefaults({ store, feed: new MemoryFeed(), classifier: await testClassifier() });
    const services = createServices(ctx);
    const { id } = await services.createAsset(fragmentSeed(PYTHON_SNIPPET) as never);
    const cached = await services.getAsset(id);
    expect(await services.getAsset(id), 'the second read is the cache').toBe(cached);
    // The cached object has keys whose value is undefined: what the RPC answer must drop, and keep here.
    expect(cached).not.toStrictEqual(plain(cached));
    const before = structuredClone(cached);
    const answered = await remoteServices(async () => ({ services, ctx })).getAsset(id);
    expect(answered).toStrictEqual(plain(cached));
    expect(cached).toStrictEqual(before);
    expect(await services.getAsset(id)).toBe(cached);
  });
});
