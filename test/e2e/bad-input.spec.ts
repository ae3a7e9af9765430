/**
 * Bad input in Chromium, sent with plain `fetch` from the page (the SDK would refuse to send much of
 * it): each request gets the right status with a JSON error body `{error: {status, code, message}}`,
 * and the stored data is the same afterwards. The node twin is test/unit/bad-input.test.ts; here the
 * request crosses the real service worker (body streaming, the 16 MiB limit) onto real IndexedDB.
 */
import type { Page } from '@playwright/test';
import { checkExchanges, installRecordingFetch } from './contract-check.ts';
import { expect, test } from './fixtures.ts';
import { APPLICATION, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { unknownIdRequests, type RefusedRequest } from '../support/unknown-ids.ts';

/** The worker's body limit: `DEFAULT_MAX_BODY_BYTES` in worker/core/deps.ts. */
const LIMIT = 16 * 1024 * 1024;
const FILL = '@@FILL@@';

/** `body`: a string is sent as is, anything else as JSON. */
interface Case extends RefusedRequest {
  /** Send `body` (a string holding FILL once) with FILL replaced by x's so that it is exactly this many bytes. */
  bytes?: number;
}

interface Outcome {
  status: number;
  contentType: string;
  body: string;
  /** The stored data as read before any case, when it differs after this one. */
  changed?: { before: string; after: string };
}

let page: Page;
let asset: any;
let tag: any;

test.beforeEach(async ({ appPage }) => {
  page = appPage;
  await installRecordingFetch(page);
  asset = await page.evaluate(async (seed) => {
    const response = await window.recordingFetch('/api/assets/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(seed),
    });
    return response.json();
  }, fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'kept' }], annotations: [{ type: 'COMMENT', text: 'kept too' }] }));
  expect(asset.formats.iterable[0].classification.specific).toBe('py');
  tag = asset.tags.iterable[0];
});

test.afterEach(async ({ page }) => {
  await checkExchanges(page);
});

/**
 * Sends every case from the page, in order, and after each one reads the stored data again (assets
 * with and without pseudo ones, identifiers, tags, websites, summaries, the asset's activities) and
 * compares it with what it was before the first case.
 */
async function send(cases: Case[]): Promise<Outcome[]> {
  return page.evaluate(
    async ({ cases, assetId, FILL }) => {
      const read = async () => {
        const paths = [
          '/api/assets',
          '/api/assets?pseudo=true',
          '/api/assets/identifiers?pseudo=true',
          '/api/tags',
          '/api/websites',
          '/api/workstream_summaries',
          `/api/asset/${assetId}/activities`,
        ];
        const parts: string[] = [];
        for (const path of paths) {
          const response = await window.recordingFetch(path);
          parts.push(`${path} ${response.status} ${await response.text()}`);
        }
        return parts.join('\n');
      };
      const before = await read();
      const outcomes: Outcome[] = [];
      for (const c of cases) {
        let body: string | undefined;
        if (c.body !== undefined) body = typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
        if (c.bytes !== undefined) body = body!.replace(FILL, 'x'.repeat(c.bytes - (body!.length - FILL.length)));
        // templates are ASCII, so characters are bytes
        if (c.bytes !== undefined && (body!.length !== c.bytes || !/^[\x20-\x7e]*$/.test(body!.slice(0, 1000)))) {
          throw new Error(`body is ${body!.length} characters, not ${c.bytes} ASCII bytes`);
        }
        // A body of megabytes goes as a Blob: as a string, Chromium took 10-25 s to upload one on a busy machine.
        const payload = body !== undefined && c.bytes !== undefined ? new Blob([body]) : body;
        const response = await window.recordingFetch(c.path, {
          method: c.method,
          ...(payload === undefined ? {} : { body: payload, headers: { 'content-type': 'application/json' } }),
        });
        const outcome: Outcome = { status: response.status, contentType: response.headers.get('content-type') ?? '', body: await response.text() };
        const after = await read();
        if (after !== before) outcome.changed = { before, after };
        outcomes.push(outcome);
      }
      return outcomes;
    },
    { cases: cases.map((c) => ({ ...c, path: `/api${c.path}` })), assetId: asset.id as string, FILL },
  );
}

/** Each case got its status and a JSON error body, and the stored data never changed. */
async function refused(cases: Case[]) {
  const outcomes = await send(cases);
  cases.forEach((c, i) => {
    const o = outcomes[i]!;
    const what = `${c.method} ${c.path} -> ${o.status} ${o.body.slice(0, 300)}`;
    expect(o.status, what).toBe(c.status);
    expect(o.contentType, what).toContain('application/json');
    const error = JSON.parse(o.body);
    expect(Object.keys(error), what).toEqual(['error']);
    expect(error.error, what).toEqual({ status: c.status, code: expect.any(String), message: expect.any(String) });
    expect(error.error.code.length, what).toBeGreaterThan(0);
    expect(error.error.message.length, what).toBeGreaterThan(0);
    if (c.code) expect(error.error.code, what).toBe(c.code);
    expect(o.changed?.after, `${what}\nchanged the stored data`).toBe(o.changed?.before);
  });
}

test('malformed JSON is a 400', async () => {
  const posts = [
    '/assets/create',
    '/assets/draft',
    '/asset/update',
    '/asset/reclassify',
    '/tags/create',
    '/websites/create',
    '/workstream_summaries/create',
    `/asset/${asset.id}`,
    `/asset/${asset.id}/scores/increment`,
  ];
  const bodies = ['{"asset": ', 'not json', '{"id": "x",}', "{'id': 'x'}"];
  await refused(posts.flatMap((path) => bodies.map((body) => ({ method: 'POST', path, body, status: 400, code: 'malformed_json' }))));
});

test('wrong types and missing required fields are a 422', async () => {
  const seed = fragmentSeed('x').asset;
  await refused([
    { method: 'POST', path: '/assets/create', body: { asset: { application: 'vscode', format: {} } }, status: 422, code: 'invalid_body' },
    { method: 'POST', path: '/assets/create', body: { asset: { ...seed, metadata: { name: 5 } } }, status: 422, code: 'invalid_body' },
    { method: 'POST', path: '/assets/create', body: { asset: { ...seed, metadata: { tags: [{ text: 7 }] } } }, status: 422 },
    { method: 'POST', path: '/assets/create', body: { asset: { ...seed, format: { fragment: { string: { raw: 42 } } } } }, status: 422 },
    { method: 'POST', path: '/assets/create', body: { asset: { ...seed, pseudo: 'yes' } }, status: 422 },
    { method: 'POST', path: '/assets/create', body: [1, 2, 3], status: 422 },
    { method: 'POST', path: '/assets/create', body: 'null', status: 422 },
    { method: 'POST', path: '/assets/create', body: {}, status: 422 },
    { method: 'POST', path: '/assets/draft', body: { asset: { application: APPLICATION, format: 'text' } }, status: 422 },
    { method: 'POST', path: '/asset/update', body: { id: asset.id, name: ['not', 'a', 'string'] }, status: 422 },
    { method: 'POST', path: '/asset/update', body: { id: asset.id, favorited: 'true' }, status: 422 },
    { method: 'POST', path: '/asset/update', body: { name: 'no id' }, status: 422 },
    { method: 'POST', path: '/asset/update', body: { id: 42 }, status: 422 },
    { method: 'POST', path: '/asset/reclassify', body: { asset }, status: 422 },
    { method: 'POST', path: '/asset/reclassify', body: { ext: 'ts' }, status: 422 },
    { method: 'POST', path: `/asset/${asset.id}/scores/increment`, body: { asset: { reuse: 'yes' } }, status: 422 },
    { method: 'POST', path: '/tags/create', body: { text: 42 }, status: 422 },
    { method: 'POST', path: '/tags/create', body: {}, status: 422 },
    { method: 'POST', path: '/websites/create', body: { url: 'https://x.dev' }, status: 422 },
    { method: 'POST', path: '/workstream_summaries/create', body: { name: 'no model' }, status: 422 },
    { method: 'POST', path: `/asset/${asset.id}`, body: { os: 1 }, status: 422 },
  ]);
});

test('invalid enum strings are a 422', async () => {
  const badApp = fragmentSeed('x');
  (badApp.asset as { application: object }).application = { ...APPLICATION, platform: 'AMIGA' };
  await refused([
    { method: 'POST', path: '/assets/create', body: fragmentSeed('x', undefined, { specific: 'PY' }), status: 422, code: 'invalid_body' },
    { method: 'POST', path: '/assets/create', body: fragmentSeed('x', undefined, { generic: 'SOUND' }), status: 422 },
    { method: 'POST', path: '/assets/create', body: fragmentSeed('x', { mechanism: 'SOMETIMES' }), status: 422 },
    { method: 'POST', path: '/assets/create', body: fragmentSeed('x', { annotations: [{ type: 'RANT', text: 'x' }] }), status: 422 },
    { method: 'POST', path: '/assets/create', body: fragmentSeed('x', { tags: [{ text: 't', category: 'COLOUR' }] }), status: 422 },
    { method: 'POST', path: '/assets/create', body: badApp, status: 422 },
    { method: 'POST', path: '/assets/draft', body: fragmentSeed('x', undefined, { specific: 'python' }), status: 422 },
    { method: 'POST', path: '/asset/reclassify', body: { ext: 'python', asset }, status: 422 },
    { method: 'POST', path: '/asset/update', body: { id: asset.id, annotations: { iterable: [{ ...asset.annotations.iterable[0], type: 'RANT' }] } }, status: 422 },
    { method: 'POST', path: '/tags/create', body: { text: 't', category: 'COLOUR' }, status: 422 },
  ]);
});

test('a body over the 16 MiB limit is a 413; one at the limit is read', async () => {
  test.setTimeout(90_000); // three uploads of 16 MiB, and the library read back after each
  const seedTemplate = JSON.stringify(fragmentSeed(FILL));
  const updateTemplate = JSON.stringify({ id: asset.id, name: FILL });
  await refused([
    { method: 'POST', path: '/assets/create', body: seedTemplate, bytes: LIMIT + 1, status: 413, code: 'body_too_large' },
    { method: 'POST', path: '/asset/update', body: updateTemplate, bytes: LIMIT + 1, status: 413, code: 'body_too_large' },
    // exactly at the limit the body is read and judged on its content: a wrong type, so 422, not 413
    { method: 'POST', path: '/assets/create', body: JSON.stringify({ asset: { application: FILL } }), bytes: LIMIT, status: 422, code: 'invalid_body' },
  ]);
});

test('unknown asset, tag, website and summary ids are a 404', async () => {
  await refused(unknownIdRequests(asset, tag.id));
});

test('bad query flags and export types are a 400, and nothing is written', async () => {
  await refused([
    { method: 'GET', path: '/assets?transferables=maybe', status: 400, code: 'invalid_parameter' },
    { method: 'GET', path: '/assets?pseudo=yes', status: 400, code: 'invalid_parameter' },
    { method: 'GET', path: '/assets/identifiers?pseudo=2', status: 400, code: 'invalid_parameter' },
    { method: 'GET', path: `/asset/${asset.id}?transferables=TRUE`, status: 400, code: 'invalid_parameter' },
    { method: 'GET', path: `/assets/${asset.id}/formats?transferables=no`, status: 400, code: 'invalid_parameter' },
    // a valid write with a bad flag must not happen
    { method: 'POST', path: '/assets/create?transferables=2', body: fragmentSeed('print(1)'), status: 400, code: 'invalid_parameter' },
    { method: 'POST', path: '/asset/update?transferables=x', body: { id: asset.id, name: 'renamed' }, status: 400, code: 'invalid_parameter' },
    { method: 'POST', path: '/asset/reclassify?transferables=x', body: { ext: 'ts', asset }, status: 400, code: 'invalid_parameter' },
    { method: 'GET', path: `/asset/${asset.id}/export?export_type=md`, status: 400, code: 'invalid_export_type' },
    { method: 'GET', path: `/asset/${asset.id}/export?export_type=PDF`, status: 400, code: 'invalid_export_type' },
    { method: 'GET', path: `/asset/${asset.id}/export`, status: 400, code: 'invalid_export_type' },
    { method: 'POST', path: `/asset/${asset.id}/gadgets/associate/x`, status: 400 },
  ]);
});

test('an unknown route under the base is a JSON 404', async () => {
  await refused([
    { method: 'GET', path: '/nope', status: 404, code: 'route_not_found' },
    { method: 'POST', path: '/nope', body: {}, status: 404, code: 'route_not_found' },
    { method: 'GET', path: '/assets/nope/deeper/still', status: 404, code: 'route_not_found' },
    { method: 'PUT', path: '/assets/create', body: fragmentSeed('x'), status: 404, code: 'route_not_found' },
    { method: 'DELETE', path: `/asset/${asset.id}`, status: 404, code: 'route_not_found' },
    { method: 'GET', path: '/tags/create', status: 404, code: 'route_not_found' },
  ]);
});
