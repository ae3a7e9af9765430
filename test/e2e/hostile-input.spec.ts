/**
 * Hostile input in Chromium (issue 13, "What to prove" 1): the requests test/unit/hostile-input.test.ts
 * sends in Node, made by the same generators (test/support/hostile.ts, fast-check, the same fixed seed per
 * route), sent here with `fetch` from a page through the real service worker onto real IndexedDB. One batch
 * per route: broken JSON, wrong types, missing and extra fields, strings around and over the worker's body
 * limit (16 MiB), deep nesting, invalid ids and enum strings, odd Unicode, path tricks in ids, wrong methods
 * and content types.
 *
 * Each answer must be a 4xx JSON error (`{"error": {status, code, message}}`) that changed nothing stored,
 * the documented 500 `query_required` of GET /assets/search with neither query nor tags (likewise
 * changing nothing), or, where the generated input happens to be valid, an answer that fits the contract
 * (test/support/responses.ts). "Changed nothing" is a SHA-256 per object store of every record the page
 * reads from IndexedDB itself, taken before and after the request; the derived caches (`indexes`,
 * `snippets`) that background work writes a moment after an earlier valid write are left out, as in Node.
 * After each batch the worker must still answer health.
 *
 * A path trick that the URL parser resolves out of the base (`/api/assets/%2e%2e/%2e%2e/x` is `/x`) never
 * reaches the worker: such a request is counted, not sent (containment.spec.ts covers what passes by).
 *
 * Requests per route: test/support/hardening.ts's count for `npm test`, its larger one with `SOAK=1` (npm run
 * soak); FUZZ_RUNS sets another.
 */
import type { Page } from '@playwright/test';
import fc from 'fast-check';
import { COLLECTIONS, type CollectionName } from '../../worker/core/store/records.ts';
import { HARDENING, runs, SOAK } from '../support/hardening.ts';
import { ROUTES, hostileRequest, type HostileRequest, type Library } from '../support/hostile.ts';
import { checkResponse } from '../support/responses.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { allowEndpoint, expect, test } from './fixtures.ts';

const RUNS = Number(process.env.FUZZ_RUNS) || runs(HARDENING.hostile.browser);
/** The seed of test/unit/hostile-input.test.ts: route i is generated from SEED + i there and here. */
const SEED = Number(process.env.FUZZ_SEED) || HARDENING.hostile.seed;
/** The worker's body limit: `DEFAULT_MAX_BODY_BYTES` in worker/core/deps.ts. */
const LIMIT = 16 * 1024 * 1024;
const DERIVED = new Set<CollectionName>(['indexes', 'snippets']);
const DIGESTED = COLLECTIONS.filter((c) => !DERIVED.has(c));
/** The endpoint the valid settings bodies of test/support/hostile.ts name (a closed port on this machine). */
const SETTINGS_ENDPOINT = 'http://localhost:9';

/** What the page saw of one request. */
interface Sent {
  /** Not sent: the URL parser resolved it out of the base. */
  outside?: string;
  status: number;
  contentType: string | null;
  text: string;
  /** The path below the base as the contract table names it. */
  path: string;
  before: Record<string, string>;
  after: Record<string, string>;
}

/**
 * Sends `requests` in order from the page, each between two digests of the stored data (read from
 * IndexedDB in the page); then asks for health. Runs in the page, so it is self-contained.
 */
function sendBatch(page: Page, requests: HostileRequest[]): Promise<{ sent: Sent[]; health: { status: number; text: string } }> {
  return page.evaluate(
    async ({ requests, stores }) => {
      const hex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
      const replacer = (_: string, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v instanceof ArrayBuffer ? Array.from(new Uint8Array(v)) : v);
      const digest = async (): Promise<Record<string, string>> => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open('tessera');
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        try {
          const tx = db.transaction(stores, 'readonly');
          const all = await Promise.all(
            stores.map(
              (store) =>
                new Promise<unknown[]>((resolve, reject) => {
                  const request = tx.objectStore(store).getAll();
                  request.onsuccess = () => resolve(request.result);
                  request.onerror = () => reject(request.error);
                }),
            ),
          );
          const hashes: Record<string, string> = {};
          for (const [i, records] of all.entries()) {
            hashes[stores[i]!] = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(records, replacer))));
          }
          return hashes;
        } finally {
          db.close();
        }
      };
      const sent: Sent[] = [];
      let before = await digest();
      for (const request of requests) {
        const url = new URL(`/api${request.target}`, location.origin);
        const empty = { status: 0, contentType: null, text: '', path: '', before, after: before };
        if (url.pathname !== '/api' && !url.pathname.startsWith('/api/')) {
          sent.push({ ...empty, outside: url.pathname.slice(0, 200) });
          continue;
        }
        const init: RequestInit = { method: request.method, headers: request.contentType ? { 'content-type': request.contentType } : {} };
        const body = request.body;
        if (body?.text !== undefined && body.fill) {
          // A body around the limit, made here as bodyText() in test/support/hostile.ts makes it, and sent as a
          // Blob of the same UTF-8 bytes (with the type fetch gives a string), which Chromium uploads several times faster.
          const { at, unit, count } = body.fill;
          const text = body.text.slice(0, at) + unit.repeat(count) + body.text.slice(at);
          init.body = new Blob([text], request.contentType ? {} : { type: 'text/plain;charset=UTF-8' });
        } else if (body?.text !== undefined) init.body = body.text;
        const response = await fetch(url, init);
        const text = await response.text();
        const after = await digest();
        // The route's path as the contract table names it (Hono takes `/assets/` for `/assets`).
        const path = url.pathname.slice('/api'.length).replace(/(.)\/+$/, '$1');
        sent.push({ status: response.status, contentType: response.headers.get('content-type'), text, path, before, after });
        before = after;
      }
      const health = await fetch('/api/.well-known/health');
      return { sent, health: { status: health.status, text: await health.text() } };
    },
    { requests, stores: [...DIGESTED] },
  );
}

/** Whether an answer refused its input: an error status, or a /qgpt/stream answer whose frames all FAILED. */
function refusal(status: number, path: string, text: string): boolean {
  if (status >= 400) return true;
  if (path !== '/qgpt/stream' || status !== 200) return false;
  return text
    .split('\n')
    .filter((l) => l !== '')
    .every((l) => (JSON.parse(l) as { status?: string }).status === 'FAILED');
}

/** The library the routes name (as test/unit/hostile-input.test.ts keeps it), read through the API in the page. */
async function readLibrary(page: Page, conversation: string): Promise<Pick<Library, 'assets' | 'asset' | 'conversation'>> {
  return page.evaluate(
    async ({ conversation, seed }) => {
      const json = async (path: string, init?: RequestInit) => {
        const response = await fetch(`/api${path}`, init);
        if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${path} answered ${response.status}: ${await response.text()}`);
        return response.json();
      };
      const post = (path: string, body: unknown) => json(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const ids = ((await json('/assets/identifiers')).iterable as { id: string }[]).map((a) => a.id);
      if (ids.length === 0) ids.push((await post('/assets/create', seed)).id);
      const conversations = (await json('/conversations')).iterable as { id: string }[];
      if (!conversations.some((c) => c.id === conversation)) {
        // An extractive answer (no chat model set) stores the exchange under the conversation's id.
        const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: seed.asset }, asset: { id: ids[0] } }] };
        const frames = await fetch('/api/qgpt/stream', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: { query: 'how are arguments parsed?', relevant }, conversation, request: 'seed' }),
        });
        await frames.text();
        await json(`/conversation/${conversation}`);
      }
      const asset = await json(`/asset/${ids[0]}`);
      return { assets: ids, asset, conversation };
    },
    { conversation, seed: fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args', tags: [{ text: 'kept' }] }) },
  );
}

test('hostile input through the service worker: every route answers a 4xx JSON error (or a valid answer), keeps answering, and changes nothing it refused', async ({ appPage: page }) => {
  test.setTimeout(SOAK ? 3_600_000 : 120_000);
  // A valid PUT of the settings names this endpoint; a later answer may try it (the port is closed).
  allowEndpoint(SETTINGS_ENDPOINT);

  const seeded = await page.evaluate(
    async ({ py, go, summary }) => {
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
        return response.json();
      };
      const tag = (await post('/assets/create', py)).tags.iterable[0].id as string;
      await post('/assets/create', go);
      const website = await post('/websites/create', { url: 'https://go.dev/', name: 'go' });
      const created = await post('/workstream_summaries/create', summary);
      const relevant = await post('/qgpt/relevance', { query: 'parse command line arguments', options: { database: true } });
      const backup = await (await fetch('/api/backup')).text();
      return { tag, website: website.id as string, summary: created.id as string, relevant: relevant.relevant.iterable[0].id as string, backup };
    },
    {
      py: fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args', tags: [{ text: 'kept' }], websites: [{ url: 'https://docs.python.org/3/', name: 'docs' }] }),
      go: fragmentSeed(GO_SNIPPET),
      summary: { name: 'week', model: { id: 'extractive', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' } },
    },
  );
  let library: Library = { ...(await readLibrary(page, 'first')), ...seeded };
  const tally = { requests: 0, refused: 0, accepted: 0, stored: 0, outside: 0, statuses: new Map<number, number>() };

  for (const [i, route] of ROUTES.entries()) {
    const generated = fc.sample(hostileRequest(route, () => library, LIMIT), { seed: SEED + i, numRuns: RUNS });
    const requests = generated.map((g) => g.build());
    const { sent, health } = await sendBatch(page, requests);
    let wrote = false;
    for (const [j, reply] of sent.entries()) {
      const request = requests[j]!;
      const where = `${request.method} ${request.target.slice(0, 200)} -> ${reply.status} ${reply.text.slice(0, 300)}\n  generated: ${generated[j]!.label}`;
      if (reply.outside !== undefined) {
        tally.outside++;
        continue;
      }
      tally.requests++;
      tally.statuses.set(reply.status, (tally.statuses.get(reply.status) ?? 0) + 1);
      const documented500 = reply.status === 500 && request.method === 'GET' && reply.path === '/assets/search' && JSON.parse(reply.text).error?.code === 'query_required';
      expect(reply.status < 500 || documented500, `server error: ${where}`).toBe(true);
      expect(reply.status >= 200 && (reply.status < 300 || reply.status >= 400), `unexpected status: ${where}`).toBe(true);
      // The JSON error body (any status >= 400), or the contract's schema of a valid answer.
      checkResponse({ method: request.method, path: reply.path, status: reply.status, contentType: reply.contentType, body: reply.text });
      if (refusal(reply.status, reply.path, reply.text)) {
        tally.refused++;
        const changed = DIGESTED.filter((c) => reply.before[c] !== reply.after[c]);
        expect(changed, `refused, yet changed: ${where}`).toEqual([]);
      } else {
        tally.accepted++;
        wrote ||= request.method !== 'GET';
        if (DIGESTED.some((c) => reply.before[c] !== reply.after[c])) tally.stored++;
      }
    }
    expect(health, `the worker stopped answering after the batch of ${route.method} ${route.path}`).toEqual({ status: 200, text: 'ok' });
    // A valid write may have deleted what the next batches name: read the library again.
    if (wrote) library = { ...library, ...(await readLibrary(page, library.conversation)) };
  }

  const statuses = [...tally.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
  console.log(
    `hostile input in Chromium (seed ${SEED}, ${RUNS} per route, ${ROUTES.length} routes): ${tally.requests} requests, ` +
      `${tally.refused} refused, ${tally.accepted} valid (${tally.stored} of them stored something), ${tally.outside} resolved out of the base (not sent); statuses ${statuses}`,
  );
  expect(tally.requests).toBeGreaterThan(ROUTES.length);
  // The digest sees writes: the valid writes among the generated requests changed it.
  expect(tally.stored).toBeGreaterThan(0);

  // The library is still whole and readable after it all.
  const readable = await page.evaluate(async () => {
    const ids = ((await (await fetch('/api/assets/identifiers')).json()).iterable as { id: string }[]).map((a) => a.id);
    const statuses = await Promise.all(ids.map(async (id) => (await fetch(`/api/asset/${id}`)).status));
    return { ids: ids.length, statuses, search: (await fetch('/api/assets/search?query=parse')).status };
  });
  expect(readable.ids).toBeGreaterThan(0);
  expect(readable.statuses.every((s) => s === 200)).toBe(true);
  expect(readable.search).toBe(200);
});
