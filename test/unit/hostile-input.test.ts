/**
 * Hostile input, generated (fast-check, a fixed seed): every route of worker/core/app.ts gets broken JSON,
 * wrong types, missing and extra fields, strings around and over the body limit, deep nesting, invalid
 * UUIDs and enum strings, odd Unicode, path tricks in ids, wrong methods and content types
 * (test/support/hostile.ts generates them from each route's valid request).
 *
 * Each answer must be one of:
 * - a 4xx with the JSON error body `{"error": {status, code, message}}`, its status the HTTP status, and
 *   then the store unchanged (a digest of every collection's records) and no change event published;
 * - the documented 500 `query_required` of GET /assets/search with neither query nor tags (likewise
 *   changing nothing);
 * - a 2xx where the generated input happens to be valid, whose body must fit the contract
 *   (test/support/responses.ts); a `/qgpt/stream` answer whose frames all FAILED (4xx statusCode) counts
 *   as a refusal.
 * After every request the service must still answer a health request.
 *
 * The digest leaves out `indexes` and `snippets`: derived caches (the search snapshot, the snippet
 * vectors) that background timers write a moment after an earlier valid write; a refused request never
 * writes them in its own transaction, and losing them costs a rebuild, never data.
 *
 * Requests per route: test/support/hardening.ts's count for `npm test`, its larger one with `SOAK=1` (npm run
 * soak); FUZZ_RUNS and FUZZ_SEED set others. On the memory store, on fake-indexeddb with
 * TESSERA_TEST_STORE=idb, and over HTTP through the Node host on PGlite (test:unit:node) and PostgreSQL
 * (test:unit:postgres).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { COLLECTIONS, type CollectionName } from '../../worker/core/store/records.ts';
import { HARDENING, runs, SOAK } from '../support/hardening.ts';
import { ROUTES, bodyText, hostileRequest, type HostileRequest, type Library, type Route } from '../support/hostile.ts';
import { checkResponse } from '../support/responses.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';

const RUNS = Number(process.env.FUZZ_RUNS) || runs(HARDENING.hostile.node);
const SEED = Number(process.env.FUZZ_SEED) || HARDENING.hostile.seed;
/** A small body limit, so that strings around it are cheap to make. */
const LIMIT = 8 * 1024;
const DERIVED = new Set<CollectionName>(['indexes', 'snippets']);
const DIGESTED = COLLECTIONS.filter((c) => !DERIVED.has(c));

let api: TestApi;
let library: Library;
const tally = { requests: 0, refused: 0, accepted: 0, statuses: new Map<number, number>() };

/** The chat endpoint is never reached: a test must not touch the network. */
const offline: typeof fetch = async () => {
  throw new TypeError('fetch is offline in this test');
};

/** A hash per collection of every record it holds (derived caches aside). */
async function digest(): Promise<Record<string, string>> {
  const dump = await api.store.read(async (tx) => Promise.all(DIGESTED.map(async (c) => [c, await tx.getAll(c)] as const)), DIGESTED);
  const replacer = (_: string, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v);
  return Object.fromEntries(dump.map(([c, records]) => [c, createHash('sha256').update(JSON.stringify(records, replacer)).digest('hex')]));
}

async function refreshLibrary(): Promise<void> {
  const ids = (await api.get('/assets/identifiers')).json().iterable.map((a: { id: string }) => a.id) as string[];
  if (ids.length === 0) ids.push((await api.create(fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'kept' }] }))).id);
  const conversations = (await api.get('/conversations')).json().iterable as { id: string }[];
  if (!conversations.some((c) => c.id === library.conversation)) await seedConversation(ids[0]!);
  library.assets = ids;
  library.asset = (await api.get(`/asset/${ids[0]}`)).json();
}

async function seedConversation(asset: string): Promise<void> {
  const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never });
  await saveExchange(ctx, { conversation: 'first', query: 'how are arguments parsed?', answer: 'With argparse.', assets: [asset] });
}

beforeAll(async () => {
  api = await createTestApi({ maxBodyBytes: LIMIT, fetch: offline });
  const py = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args', tags: [{ text: 'kept' }], websites: [{ url: 'https://docs.python.org/3/', name: 'docs' }] }));
  const go = await api.create(fragmentSeed(GO_SNIPPET));
  const website = (await api.post('/websites/create', { url: 'https://go.dev/', name: 'go' })).json();
  const summary = (await api.post('/workstream_summaries/create', { name: 'week', model: { id: 'extractive', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' } })).json();
  await seedConversation(py.id);
  const relevant = (await api.post('/qgpt/relevance', { query: 'parse command line arguments', options: { database: true } })).json();
  const backup = (await api.get('/backup')).text;
  library = {
    assets: [py.id, go.id],
    asset: py,
    tag: py.tags.iterable[0].id,
    website: website.id,
    summary: summary.id,
    conversation: 'first',
    relevant: relevant.relevant.iterable[0].id,
    backup,
  };
});

afterAll(() => {
  const statuses = [...tally.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
  console.log(
    `hostile input (${process.env.TESSERA_TEST_STORE === 'idb' ? 'fake-indexeddb' : 'memory'} store, seed ${SEED}, ${RUNS} per route): ` +
      `${tally.requests} requests, ${tally.refused} refused, ${tally.accepted} valid; statuses ${statuses}`,
  );
  api?.store.close();
});

async function send(request: HostileRequest): Promise<{ status: number; text: string; contentType: string | null; path: string }> {
  const headers: Record<string, string> = {};
  if (request.contentType) headers['content-type'] = request.contentType;
  const init: RequestInit = { method: request.method, headers };
  const body = bodyText(request.body);
  if (body !== undefined) init.body = body;
  const url = `http://localhost/api${request.target}`;
  const response = await api.fetch(new Request(url, init));
  const text = await response.text();
  // The route's path as the contract table names it (Hono takes `/assets/` for `/assets`).
  const path = new URL(url).pathname.slice('/api'.length).replace(/(.)\/+$/, '$1');
  return { status: response.status, text, contentType: response.headers.get('content-type'), path };
}

/** Whether an answer refused its input: an error status, or a /qgpt/stream answer whose frames all FAILED. */
function refusal(status: number, path: string, text: string): boolean {
  if (status >= 400) return true;
  if (path !== '/qgpt/stream' || status !== 200) return false;
  const frames = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { status?: string });
  return frames.every((f) => f.status === 'FAILED');
}

async function probe(route: Route, request: HostileRequest): Promise<void> {
  const before = await digest();
  const events = api.events.length;
  const reply = await send(request);
  const where = `${request.method} ${request.target.slice(0, 200)} -> ${reply.status} ${reply.text.slice(0, 300)}`;
  tally.requests++;
  tally.statuses.set(reply.status, (tally.statuses.get(reply.status) ?? 0) + 1);

  const documented500 = reply.status === 500 && request.method === 'GET' && reply.path === '/assets/search' && JSON.parse(reply.text).error?.code === 'query_required';
  if (reply.status >= 500 && !documented500) throw new Error(`server error: ${where}`);
  if (reply.status < 200 || (reply.status >= 300 && reply.status < 400)) throw new Error(`unexpected status: ${where}`);
  // The JSON error body (any status >= 400), or the contract's schema of a valid answer.
  checkResponse({ method: request.method, path: reply.path, status: reply.status, contentType: reply.contentType, body: reply.text });

  if (refusal(reply.status, reply.path, reply.text)) {
    tally.refused++;
    const after = await digest();
    const changed = DIGESTED.filter((c) => before[c] !== after[c]);
    if (changed.length > 0) throw new Error(`refused, yet ${changed.join(', ')} changed: ${where}`);
    if (api.events.length !== events) throw new Error(`refused, yet published ${api.events.length - events} change events: ${where}`);
  } else {
    tally.accepted++;
    // A valid write may have deleted what the next requests name: pick the library again.
    if (route.method !== 'GET') await refreshLibrary();
  }
  const health = await api.get('/.well-known/health');
  if (health.status !== 200 || health.text !== 'ok') throw new Error(`the service stopped answering after: ${where}`);
}

describe('hostile input: every route answers a 4xx JSON error (or a valid answer), keeps answering, and changes nothing it refused', () => {
  ROUTES.forEach((route, i) => {
    it(`${route.method} ${route.path}`, { timeout: SOAK ? 600_000 : 30_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(hostileRequest(route, () => library, LIMIT), async ({ build, label }) => {
          const request = build();
          try {
            await probe(route, request);
          } catch (error) {
            throw new Error(`${(error as Error).message}\n  generated: ${label}`);
          }
        }),
        { seed: SEED + i, numRuns: RUNS, endOnFailure: true },
      );
    });
  });

  it('the library is still whole and readable after it all', async () => {
    const ids = (await api.get('/assets/identifiers')).json().iterable.map((a: { id: string }) => a.id);
    for (const id of ids) expect((await api.get(`/asset/${id}`)).status).toBe(200);
    expect((await api.get('/assets/search?query=parse')).status).toBe(200);
  });
});
