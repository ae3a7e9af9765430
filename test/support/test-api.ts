// IndexedDB for TESSERA_TEST_STORE=idb (Node has none; installing the fake changes nothing else).
import 'fake-indexeddb/auto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import { createApp, type App } from '../../worker/core/app.ts';
import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { withDefaults, type Deps, type ServiceContext } from '../../worker/core/deps.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { MemoryFeed, type ChangeEvent, type Feed } from '../../worker/core/feed/feed.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { openPgliteStore, openPostgresStore } from './pg.ts';
import { checkResponse } from './responses.ts';
import { testClassifier } from './classifier.ts';
import { close as closeHost, createHostApp, listen, type HostApp } from '../../worker/node/host.ts';
import { importModule } from '../../worker/node/import-modules.ts';
import { LogFeed } from '../../worker/node/log-feed.ts';
import { PgStore } from '../../worker/node/pg/pg-store.ts';

export interface Reply {
  status: number;
  text: string;
  contentType: string | null;
  json<T = any>(): T;
}

/**
 * `TESSERA_TEST_TRANSPORT=http`: each test app is the Node host's own composition (worker/node/host.ts
 * createHostApp: at the root path, on a LogFeed, behind the token check, with the shared asset cache on
 * PostgreSQL) listening on a free port as startHost serves it, and every request goes over real HTTP
 * (`fetch`) with the token; only the storage is the test's. Otherwise the core app answers in process at
 * /api, as in the service worker.
 */
const overHttp = process.env.TESSERA_TEST_TRANSPORT === 'http';
const TOKEN = 'route-tests';
const servers: { server: Server; hostApp: HostApp }[] = [];

/** After each test file (test/support/per-file.ts): closes the hosts its test apps listened with. */
export async function closeFileHosts(): Promise<void> {
  const closing = servers.splice(0);
  await Promise.all(closing.map(({ server, hostApp }) => closeHost(server, hostApp)));
}

/**
 * The store of a test that names none: a MemoryStore, or with `TESSERA_TEST_STORE=idb` an IdbStore on
 * fake-indexeddb, or with `TESSERA_TEST_STORE=pglite` a PgStore on PGlite (a schema of its own in the test
 * file's PGlite), or with `TESSERA_TEST_STORE=postgres` one on the server of DATABASE_URL, so the route and
 * domain suites run on IndexedDB's and PostgreSQL's behaviour too.
 */
async function defaultStore(): Promise<Store> {
  if (process.env.TESSERA_TEST_STORE === 'idb') return IdbStore.open(`test-api-${crypto.randomUUID()}`);
  if (process.env.TESSERA_TEST_STORE === 'pglite') return openPgliteStore();
  if (process.env.TESSERA_TEST_STORE === 'postgres') return openPostgresStore();
  return new MemoryStore();
}

/**
 * The core app on a given store (and feed), driven in process or, with `TESSERA_TEST_TRANSPORT=http`, over
 * HTTP through the Node host's composition. Every reply of `call` is checked against the contract (its
 * schema, or the JSON error body) before the test sees it; `request` is for answers read as they stream,
 * whose reader checks them part by part.
 */
export async function createTestApi(
  options: { store?: Store; feed?: Feed; classifier?: Classifier } & Pick<Deps, 'maxBodyBytes' | 'maxRestoreBytes' | 'files' | 'fetch' | 'embedder' | 'now'> = {},
) {
  const store = options.store ?? (await defaultStore());
  const deps = {
    classifier: options.classifier ?? (await testClassifier()),
    loadModule: importModule,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxRestoreBytes ? { maxRestoreBytes: options.maxRestoreBytes } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // The core's default on every transport: the Node host would otherwise read the code vectors (its own test is test/node).
    embedder: options.embedder ?? new HashingEmbedder(),
    ...(options.now ? { now: options.now } : {}),
  };
  const events: ChangeEvent[] = [];
  let ctx: ServiceContext;
  let app: App;
  /** Answers a request whose path is under /api, as the page addresses the API. */
  let fetchApi: (request: Request) => Promise<Response>;
  if (overHttp) {
    const feed = options.feed ?? (await LogFeed.start(store));
    const shared = store instanceof PgStore && store.db.kind === 'postgres';
    const hostApp = createHostApp({ store, feed, shared, token: TOKEN, deps });
    const server = await listen(hostApp, { port: 0, hostname: '127.0.0.1' });
    servers.push({ server, hostApp });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ctx = hostApp.ctx;
    app = hostApp.app;
    fetchApi = (request) => {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${TOKEN}`);
      return fetch(`${origin}${url.pathname.replace(/^\/api(?=\/|$)/, '')}${url.search}`, {
        method: request.method,
        headers,
        ...(request.body ? { body: request.body, duplex: 'half' } : {}),
        signal: request.signal,
      } as RequestInit);
    };
  } else {
    // The context the app runs with, for tests that reach a layer under the routes (the vector index).
    ctx = withDefaults({ store, feed: options.feed ?? new MemoryFeed(), ...deps });
    app = createApp(ctx);
    fetchApi = async (request) => app.fetch(request);
  }
  const feed = ctx.feed;
  feed.subscribe((event) => events.push(event));

  /** A request to the API under test; `path` is under the API's root (`/assets`), as in the SDK. */
  function request(path: string, init: RequestInit = {}): Promise<Response> {
    return fetchApi(new Request(`http://localhost/api${path}`, init));
  }

  /** `signal` aborts the request as a client that goes away does. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Reply & { headers: Headers }> {
    const init: RequestInit = { method, headers, ...(signal && { signal }) };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...headers };
    }
    const response = await request(path, init);
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
    /** The core app of `ctx`, in process (its routes; requests go through `request`, `fetch` or `call`). */
    app,
    ctx,
    store,
    feed,
    events,
    request,
    fetch: fetchApi,
    call,
    create,
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;
