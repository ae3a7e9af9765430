// IndexedDB for TESSERA_TEST_STORE=idb (Node has none; installing the fake changes nothing else).
import 'fake-indexeddb/auto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll } from 'vitest';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import { createApp } from '../../worker/core/app.ts';
import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { withDefaults, type Deps } from '../../worker/core/deps.ts';
import { MemoryFeed, type ChangeEvent, type Feed } from '../../worker/core/feed/feed.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { openPgliteStore, openPostgresStore } from './pg.ts';
import { checkResponse } from './responses.ts';
import { testClassifier } from './classifier.ts';
import { importModule } from '../../worker/node/import-modules.ts';

export interface Reply {
  status: number;
  text: string;
  contentType: string | null;
  json<T = any>(): T;
}

let stores = 0;

/**
 * `TESSERA_TEST_TRANSPORT=http`: each test app is served by @hono/node-server on a free port, as the Node
 * host serves it, and `call` goes over real HTTP (`fetch`) instead of `app.request()`.
 */
const overHttp = process.env.TESSERA_TEST_TRANSPORT === 'http';
const servers: Server[] = [];
if (overHttp) {
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => (server.close(resolve), server.closeAllConnections()))));
  });
}

async function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<string> {
  const server = await new Promise<Server>((resolve, reject) => {
    const created = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(created as Server)) as Server;
    created.once('error', reject);
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The store of a test that names none: a MemoryStore, or with `TESSERA_TEST_STORE=idb` an IdbStore on
 * fake-indexeddb, or with `TESSERA_TEST_STORE=pglite` a PgStore on PGlite (a schema of its own in the test
 * file's PGlite), or with `TESSERA_TEST_STORE=postgres` one on the server of DATABASE_URL, so the route and
 * domain suites run on IndexedDB's and PostgreSQL's behaviour too.
 */
async function defaultStore(): Promise<Store> {
  if (process.env.TESSERA_TEST_STORE === 'idb') return IdbStore.open(`test-api-${++stores}`);
  if (process.env.TESSERA_TEST_STORE === 'pglite') return openPgliteStore();
  if (process.env.TESSERA_TEST_STORE === 'postgres') return openPostgresStore();
  return new MemoryStore();
}

/**
 * The core app on a given store, driven through `app.request()`. Every reply is checked against
 * the contract (its schema, or the JSON error body) before the test sees it.
 */
export async function createTestApi(
  options: { store?: Store; feed?: Feed; classifier?: Classifier } & Pick<Deps, 'maxBodyBytes' | 'maxRestoreBytes' | 'files' | 'fetch' | 'embedder' | 'now'> = {},
) {
  const store = options.store ?? (await defaultStore());
  const feed = options.feed ?? new MemoryFeed();
  const events: ChangeEvent[] = [];
  feed.subscribe((event) => events.push(event));
  // The context the app runs with, for tests that reach a layer under the routes (the vector index).
  const ctx = withDefaults({
    store,
    feed,
    classifier: options.classifier ?? (await testClassifier()),
    loadModule: importModule,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxRestoreBytes ? { maxRestoreBytes: options.maxRestoreBytes } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.embedder ? { embedder: options.embedder } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const app = createApp(ctx);

  const origin = overHttp ? await listen((request) => app.fetch(request)) : undefined;

  /** `signal` aborts the request as a client that goes away does. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Reply & { headers: Headers }> {
    const init: RequestInit = { method, headers, ...(signal && { signal }) };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...headers };
    }
    const response = origin ? await fetch(`${origin}/api${path}`, init) : await app.request(`/api${path}`, init);
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    checkResponse({ method, path: path.split('?')[0], status: response.status, contentType, body: text });
    return { status: response.status, text, contentType, headers: response.headers, json: () => JSON.parse(text) };
  }

  /** `POST /assets/create`; the created Asset (JSON), or a throw naming the status when it is not 200. */
  async function create(seed: unknown, query = ''): Promise<any> {
    const reply = await call('POST', `/assets/create${query}`, seed);
    if (reply.status !== 200) throw new Error(`create answered ${reply.status}: ${reply.text.slice(0, 300)}`);
    return reply.json();
  }

  return {
    app,
    ctx,
    store,
    feed,
    events,
    call,
    create,
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;
