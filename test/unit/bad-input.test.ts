import { beforeEach, describe, expect, it } from 'vitest';
import { dumpStore } from '../support/dump.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { MISSING_ASSET, unknownIdRequests } from '../support/unknown-ids.ts';

const LIMIT = 64 * 1024;
const MISSING = MISSING_ASSET; // also the id unknownIdRequests uses

let api: TestApi;
let asset: any;
let tag: any;
beforeEach(async () => {
  api = await createTestApi({ maxBodyBytes: LIMIT });
  asset = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'kept' }] }))).json();
  tag = asset.tags.iterable[0];
  api.events.length = 0;
});

/** The request gets `status` with a JSON error body (checked by the test API), and nothing changes. */
async function refused(method: string, path: string, body: unknown, status: number, code?: string) {
  const before = await dumpStore(api.store);
  const reply = await api.call(method, path, body);
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
  if (code) expect(reply.json().error.code).toBe(code);
  expect(await dumpStore(api.store)).toEqual(before);
  expect(api.events).toEqual([]);
}

describe('bad input gets a clear error and changes nothing', () => {
  it('malformed JSON is a 400', async () => {
    for (const path of ['/assets/create', '/assets/draft', '/asset/update', '/asset/reclassify', '/tags/create']) {
      await refused('POST', path, '{"asset": ', 400, 'malformed_json');
    }
    await refused('POST', `/asset/${asset.id}/scores/increment`, 'not json', 400, 'malformed_json');
  });

  it('wrong types and missing required fields are a 422', async () => {
    await refused('POST', '/assets/create', { asset: { application: 'vscode', format: {} } }, 422, 'invalid_body');
    await refused('POST', '/assets/create', { asset: { ...fragmentSeed('x').asset, metadata: { name: 5 } } }, 422);
    await refused('POST', '/assets/create', [1, 2, 3], 422);
    await refused('POST', '/asset/update', { id: asset.id, name: ['not', 'a', 'string'] }, 422);
    await refused('POST', '/asset/update', { name: 'no id' }, 422);
    await refused('POST', '/asset/reclassify', { asset }, 422);
    await refused('POST', `/asset/${asset.id}/scores/increment`, { asset: { reuse: 'yes' } }, 422);
    await refused('POST', '/tags/create', { text: 42 }, 422);
    await refused('POST', '/websites/create', { url: 'https://x.dev' }, 422);
    await refused('POST', `/asset/${asset.id}`, { os: 1 }, 422);
  });

  it('a seed with nothing to store is a 422', async () => {
    await refused('POST', '/assets/create', undefined, 422);
    await refused('POST', '/assets/create', {}, 422);
    await refused('POST', '/assets/create', { asset: { ...fragmentSeed('x').asset, format: {} } }, 422);
    await refused('POST', '/assets/create', { asset: { ...fragmentSeed('x').asset, format: { fragment: { bytes: { raw: [300] } } } } }, 422);
    await refused('POST', '/assets/draft', {}, 422);
  });

  it('invalid enum strings are a 422', async () => {
    await refused('POST', '/assets/create', fragmentSeed('x', undefined, { specific: 'PY' }), 422);
    await refused('POST', '/assets/create', fragmentSeed('x', { mechanism: 'SOMETIMES' }), 422);
    await refused('POST', '/assets/create', fragmentSeed('x', { annotations: [{ type: 'RANT', text: 'x' }] }), 422);
    await refused('POST', '/asset/reclassify', { ext: 'python', asset }, 422);
    const badApp = fragmentSeed('x');
    (badApp.asset.application as any) = { ...badApp.asset.application, platform: 'AMIGA' };
    await refused('POST', '/assets/create', badApp, 422);
  });

  it('bad query parameters are a 400', async () => {
    await refused('GET', '/assets?transferables=maybe', undefined, 400, 'invalid_parameter');
    await refused('POST', '/assets/create?transferables=2', fragmentSeed('x'), 400, 'invalid_parameter');
    await refused('GET', `/asset/${asset.id}/export?export_type=md`, undefined, 400);
  });

  it('bodies over the limit are a 413', async () => {
    const huge = fragmentSeed('x'.repeat(LIMIT + 1));
    await refused('POST', '/assets/create', huge, 413, 'body_too_large');
    await refused('POST', '/asset/update', { id: asset.id, name: 'y'.repeat(LIMIT) }, 413);
  });

  it('every route that reads a body refuses one over the limit with the same 413', async () => {
    // Routes that read no body; POST /backup/restore has a limit of its own (backup-refused.test.ts).
    const bodyless = [
      'POST /assets/:asset/delete',
      'POST /asset/:asset/:kind/:action{associate|disassociate}/:id',
      'POST /conversations/:conversation/delete',
      'POST /embeddings/library',
      'POST /qgpt/settings/test',
      'POST /embeddings/settings/test',
      'POST /backup/restore',
    ];
    // The app's routes under its base (/api in process, the root on the Node host).
    const routes = api.app.routes.map((r) => `${r.method} ${r.path.slice(api.ctx.base.length)}`).filter((r) => /^(POST|PUT) /.test(r) && !bodyless.includes(r));
    expect(routes).toContain('POST /qgpt/stream');
    expect(routes.length).toBeGreaterThan(20);
    const huge = JSON.stringify({ text: 'x'.repeat(LIMIT) });
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      await refused(method, path.replace(':asset', asset.id).replace(/:\w+/g, 'x'), huge, 413, 'body_too_large');
    }
  });

  it('unknown asset, tag, website and summary ids are a 404', async () => {
    for (const { method, path, body, status, code } of unknownIdRequests(asset, tag.id)) {
      await refused(method, path, body, status, code);
    }
  });

  it('an update that fails part-way stores none of it', async () => {
    const edit = { id: asset.id, name: 'renamed', formats: { iterable: [{ ...asset.formats.iterable[0], id: MISSING }] } };
    await refused('POST', '/asset/update', edit, 422);
    expect((await api.get(`/asset/${asset.id}`)).json().name).toBe(asset.name);
  });

  it('unknown routes are a JSON 404', async () => {
    await refused('GET', '/nope', undefined, 404, 'route_not_found');
    await refused('POST', `/asset/${asset.id}/gadgets/associate/x`, undefined, 400);
    // Names of Object.prototype's members are no link kinds either (they were a 500).
    for (const kind of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      await refused('POST', `/asset/${asset.id}/${kind}/associate/${tag.id}`, undefined, 400);
    }
  });

  it('a search without query or tags is the documented 500, a bad filter a 422', async () => {
    await refused('GET', '/assets/search', undefined, 500, 'query_required');
    await refused('POST', '/assets/search', { filters: { iterable: [{ phrase: { value: '' } }] } }, 422, 'invalid_filter');
    await refused('POST', '/assets/search', { filters: { iterable: [{ classification: 'nope' }] } }, 422, 'invalid_body');
  });
});
