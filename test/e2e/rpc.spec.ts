/**
 * The RPC path in Chromium (app/client/rpc.ts over a MessageChannel to the worker with comlink): every
 * operation gives the same wire object as its HTTP route, errors carry the route's status and code, and
 * it keeps working after the worker is stopped (CDP) and restarted, for reads and writes.
 */
import type { Page } from '@playwright/test';
import { CLIENT_PAGE, expect, test } from './fixtures.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

const MODEL = { id: 'extractive', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' };

type Rpc = Record<string, (...args: unknown[]) => Promise<unknown>>;

declare global {
  interface Window {
    __rpc: Rpc;
  }
}

/** Runs `rpc[op](...args)` in the page; a failure comes back as `{thrown: {name, status, code}}`. */
async function rpcCall(page: Page, op: string, ...args: unknown[]): Promise<any> {
  return page.evaluate(
    async ({ op, args }) => {
      window.__rpc ??= (window.tessera as unknown as { rpc(): Rpc }).rpc();
      try {
        return { value: await window.__rpc[op]!(...args) };
      } catch (error) {
        const e = error as { name: string; status?: number; code?: string; message: string };
        return { thrown: { name: e.name, status: e.status, code: e.code } };
      }
    },
    { op, args },
  ).then((r: { value?: unknown; thrown?: unknown }) => ('thrown' in r ? { thrown: r.thrown } : r.value));
}

async function http(page: Page, method: string, path: string, body?: unknown): Promise<any> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(`/api${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      const text = await response.text();
      if (!response.ok) return { error: JSON.parse(text).error };
      return text === '' ? undefined : response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    },
    { method, path, body },
  );
}

test('every RPC operation returns what its HTTP route returns', async ({ appPage: page }) => {
  const py = await rpcCall(page, 'createAsset', fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'shared' }], websites: [{ url: 'https://example.com/', name: 'ex' }] }));
  expect(py).toEqual(await http(page, 'GET', `/asset/${py.id}`));
  const go = await rpcCall(page, 'createAsset', fragmentSeed(GO_SNIPPET), { transferables: false });
  expect(go).toEqual(await http(page, 'GET', `/asset/${go.id}?transferables=false`));
  expect((await http(page, 'POST', '/workstream_summaries/create', { name: 'week', model: MODEL })).name).toBe('week');

  const reads: [string, unknown[], string][] = [
    ['getAsset', [py.id], `/asset/${py.id}`],
    ['getAsset', [py.id, { transferables: false }], `/asset/${py.id}?transferables=false`],
    ['listAssets', [], '/assets'],
    ['listAssets', [{ transferables: false }], '/assets?transferables=false'],
    ['listIdentifiers', [], '/assets/identifiers'],
    ['pseudoSnapshot', [], '/assets/pseudo'],
    ['getFormats', [py.id], `/asset/${py.id}/formats`],
    ['getActivities', [py.id], `/asset/${py.id}/activities`],
    ['getConversations', [py.id], `/asset/${py.id}/conversations`],
    ['listTags', [], '/tags'],
    ['listWebsites', [], '/websites'],
    ['listSummaries', [], '/workstream_summaries'],
  ];
  for (const [op, args, path] of reads) expect(await rpcCall(page, op, ...args), `${op} = GET ${path}`).toEqual(await http(page, 'GET', path));
  expect(await rpcCall(page, 'draftSeed', fragmentSeed(GO_SNIPPET))).toEqual(await http(page, 'POST', '/assets/draft', fragmentSeed(GO_SNIPPET)));

  const renamed = await rpcCall(page, 'updateAsset', { ...py, name: 'renamed' });
  expect(renamed.name).toBe('renamed');
  expect(renamed).toEqual(await http(page, 'GET', `/asset/${py.id}`));
  const reclassified = await rpcCall(page, 'reclassifyAsset', { asset: go, ext: 'ts' });
  expect(reclassified).toEqual(await http(page, 'GET', `/asset/${go.id}`));
  expect(await rpcCall(page, 'incrementScores', go.id, { asset: { reuse: true } })).toBeUndefined();
  expect((await http(page, 'GET', `/asset/${go.id}`)).score.reuse).toBe(1);
  const tag = await rpcCall(page, 'createTag', { text: 'rpc' });
  expect((await http(page, 'GET', '/tags')).iterable).toContainEqual(tag);
  const website = await rpcCall(page, 'createWebsite', { url: 'https://rpc.example/', name: 'rpc' });
  expect((await http(page, 'GET', '/websites')).iterable).toContainEqual(website);
  const summary = await rpcCall(page, 'createSummary', { name: 'rpc summary', model: MODEL });
  expect((await http(page, 'GET', '/workstream_summaries')).iterable).toContainEqual(summary);
  expect(await rpcCall(page, 'associate', 'tags', go.id, tag.id)).toBeUndefined();
  expect((await http(page, 'GET', `/asset/${go.id}`)).tags.iterable.map((t: { id: string }) => t.id)).toEqual([tag.id]);
  expect(await rpcCall(page, 'disassociate', 'tags', go.id, tag.id)).toBeUndefined();
  expect((await http(page, 'GET', `/asset/${go.id}`)).tags.iterable).toEqual([]);
  const exported = await rpcCall(page, 'exportAsset', py.id, 'HTML');
  expect(exported).toEqual(await http(page, 'GET', `/asset/${py.id}/export?export_type=HTML`));
  expect(await rpcCall(page, 'deleteAsset', go.id)).toBe(go.id);
  expect((await http(page, 'GET', `/asset/${go.id}`)).error.status).toBe(404);
});

test('RPC failures carry the status and code of the HTTP error', async ({ appPage: page }) => {
  const a = await rpcCall(page, 'createAsset', fragmentSeed(PYTHON_SNIPPET));
  const cases: [string, unknown[], string, string, unknown?][] = [
    ['getAsset', ['nope'], 'GET', '/asset/nope'],
    ['deleteAsset', ['nope'], 'POST', '/assets/nope/delete'],
    ['createAsset', [{ asset: { format: { fragment: { string: { raw: 3 } } } } }], 'POST', '/assets/create', { asset: { format: { fragment: { string: { raw: 3 } } } } }],
    ['updateAsset', [{ name: 'no id' }], 'POST', '/asset/update', { name: 'no id' }],
    ['exportAsset', [a.id, 'PDF'], 'GET', `/asset/${a.id}/export?export_type=PDF`],
    ['associate', ['tags', a.id, 'nope'], 'POST', `/asset/${a.id}/tags/associate/nope`],
  ];
  for (const [op, args, method, path, body] of cases) {
    const { error } = await http(page, method, path, body);
    expect(await rpcCall(page, op, ...args), op).toEqual({ thrown: { name: 'TesseraRpcError', status: error.status, code: error.code } });
  }
});

test('RPC keeps working after the worker is stopped and restarted, for reads and writes, without doubling a write', async ({
  appPage: page,
  stopServiceWorkers,
}) => {
  const a = await rpcCall(page, 'createAsset', fragmentSeed(PYTHON_SNIPPET));
  const before = (await http(page, 'GET', `/asset/${a.id}/activities`)).iterable.length;
  for (let i = 0; i < 3; i++) {
    await stopServiceWorkers(page);
    // a read first: the old port is dead; the client notices (the worker's lock is released) and reconnects
    expect(await rpcCall(page, 'getAsset', a.id)).toEqual(await http(page, 'GET', `/asset/${a.id}`));
    await stopServiceWorkers(page);
    // a write on a fresh worker
    const renamed = await rpcCall(page, 'updateAsset', { id: a.id, name: `after stop ${i}` });
    expect(renamed.name).toBe(`after stop ${i}`);
    expect(renamed).toEqual(await http(page, 'GET', `/asset/${a.id}`));
  }
  await stopServiceWorkers(page);
  const b = await rpcCall(page, 'createAsset', fragmentSeed(GO_SNIPPET));
  const ids = (await http(page, 'GET', '/assets/identifiers')).iterable.map((r: { id: string }) => r.id);
  expect(ids.sort()).toEqual([a.id, b.id].sort());
  // each rename records two activities (renamed, updated): no write was sent twice
  const activities = await rpcCall(page, 'getActivities', a.id);
  expect(activities).toEqual(await http(page, 'GET', `/asset/${a.id}/activities`));
  expect(activities.iterable).toHaveLength(before + 3 * 2);
});

test('the RPC path also answers in a second page, and a write there reaches the first page over HTTP', async ({ appPage: page }) => {
  const other = await page.context().newPage();
  await other.goto(CLIENT_PAGE);
  await other.evaluate(() => window.tessera.ready());
  const created = await rpcCall(other, 'createAsset', fragmentSeed(GO_SNIPPET));
  expect(await rpcCall(page, 'getAsset', created.id)).toEqual(await http(page, 'GET', `/asset/${created.id}`));
});
