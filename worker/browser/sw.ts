/**
 * The service worker entry: bundled by vite.config.ts into one self-contained classic script at `/sw.js`
 * (a classic worker starts faster than a module one: see there), registered by `app/client` with `{scope: '/'}`.
 *
 * - `install` -> `skipWaiting()`, `activate` -> `clients.claim()`: a new worker takes over at once.
 *   Install first puts the lazy scripts and the language model's files (../core/lazy-script.ts) and the
 *   app shell (./app-shell.ts: the page, its scripts, the manifest) into Cache Storage, so they load
 *   offline; activation drops other builds' copies.
 * - Own `fetch` listener (not `hono/service-worker`'s `handle()`, which re-fetches every 404 from the
 *   network): a same-origin request whose path is the base or lies under it (or under an alias) is
 *   answered by the service app, an unknown route included (JSON 404). The base is `/api` unless the
 *   script URL names another (`/sw.js?base=/tessera`, set by `register({base})`); a GET of a shell file or a navigation to the page is
 *   answered from the shell's cache, else the network. Everything else passes through to the network.
 * - `message` `{type: 'tessera:claim'}` -> `clients.claim()`, then a `{type: 'tessera:claimed'}` reply:
 *   a hard-reloaded page is uncontrolled though this worker is active, and asks to be claimed.
 * - `message` `{type: 'tessera:rpc'}` with a MessagePort -> the services on that port (see rpc.ts);
 *   `{type: 'tessera:keepalive'}` -> keeps the worker alive until the RPC calls under way are done (calls
 *   on a port are not events, so they alone would not keep an idle worker from being stopped).
 * - When the app starts (each worker lifetime), the last committed change seq goes out on the
 *   BroadcastChannel `tessera-stream-head`: a page's stream that missed an event (published by a worker
 *   stopped right after its commit) catches up.
 */
import { apiPath, basePathsOf, DEFAULT_BASE, type BasePaths } from '../core/base-path.ts';
import { ApiError, asApiError } from '../core/errors.ts';
import { lastSeq } from '../core/feed/commit.ts';
import { dropOldLazyCaches, precacheLazyFiles } from '../core/lazy-script.ts';
import { HEAD_CHANNEL, type HeadMessage } from '../core/streams/protocol.ts';
import { dropOldShellCaches, precacheShell, shellResponse } from './app-shell.ts';
import { CLAIM, CLAIMED, RPC_CONNECT, RPC_KEEPALIVE } from './protocol.ts';
import { acceptRpc, rpcIdle } from './rpc.ts';
import { createServiceApp, type ServiceApp } from './service-app.ts';

declare const self: ServiceWorkerGlobalScope;

/**
 * Where the API is answered: the base (and aliases) `register()` put on this script's URL
 * (`/sw.js?base=/tessera&alias=/api`, ../core/base-path.ts); `/api` when it names none. A script URL
 * naming a bad one answers under the default, and says so in the console.
 */
const PATHS = ((): BasePaths => {
  try {
    return basePathsOf(self.location.href);
  } catch (error) {
    console.error(error);
    return { base: DEFAULT_BASE, aliases: [] };
  }
})();
const BASE = PATHS.base;

/**
 * `GET <base>/__echo` -> 200 `{}`, answered here without touching the app or IndexedDB. It measures the
 * transport floor of the fetch path (page -> worker -> page) for the benchmark; not part of the API.
 */
const ECHO_PATH = `${BASE}/__echo`;

let app: Promise<ServiceApp> | undefined;

/**
 * The app, created once per worker lifetime on the first request under the base. A failed creation is
 * not cached, so the next request tries again (a transient failure, say an IndexedDB upgrade blocked by
 * an old tab, must not brick the worker until it is stopped). It cannot stay pending: IdbStore.open gives
 * up on a blocked upgrade after BLOCKED_TIMEOUT_MS.
 */
function getApp(): Promise<ServiceApp> {
  if (!app) {
    app = createServiceApp(BASE);
    app.then(announceHead, () => {
      app = undefined;
    });
  }
  return app;
}

/** Posts the last committed seq on the head channel (see the header comment). */
function announceHead(service: ServiceApp): void {
  lastSeq(service.ctx).then(
    (seq) => {
      const channel = new BroadcastChannel(HEAD_CHANNEL);
      channel.postMessage({ type: 'head', seq } satisfies HeadMessage);
      channel.close();
    },
    () => {},
  );
}

function errorResponse(error: ApiError): Response {
  return Response.json(error, { status: error.status });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function answer(request: Request): Promise<Response> {
  let service: ServiceApp;
  try {
    service = await getApp();
  } catch (error) {
    // A blocked database upgrade says so (storage_blocked) and what to do.
    if (error instanceof ApiError) return errorResponse(new ApiError(503, error.code, error.message));
    return errorResponse(new ApiError(503, 'unavailable', `service failed to start: ${messageOf(error)}`));
  }
  try {
    return await service.fetch(request);
  } catch (error) {
    // The app answers its own errors (app.onError); this is for one thrown past it, mapped the same way.
    return errorResponse(asApiError(error));
  }
}

// Install also keeps the lazy scripts, the language model and the app shell offline.
self.addEventListener('install', (event) => {
  event.waitUntil(Promise.all([precacheLazyFiles(), precacheShell(), self.skipWaiting()]));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), dropOldLazyCaches(), dropOldShellCaches()]));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = apiPath(url.pathname, PATHS);
  if (path === undefined) {
    const shell = shellResponse(request, url);
    if (shell) event.respondWith(shell);
    return;
  }
  if (path === ECHO_PATH && request.method === 'GET') {
    event.respondWith(Response.json({}));
    return;
  }
  event.respondWith(answer(path === url.pathname ? request : underBase(request, url, path)));
});

/** A request under an alias, as the same request under the base. */
function underBase(request: Request, url: URL, path: string): Request {
  const moved = new URL(url);
  moved.pathname = path;
  // `duplex` lets a streamed body (a backup restore) move to the new request.
  return new Request(moved, { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit);
}

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (type === RPC_CONNECT) {
    const port = event.ports[0];
    if (port) event.waitUntil(acceptRpc(port, getApp));
    return;
  }
  if (type === RPC_KEEPALIVE) {
    event.waitUntil(rpcIdle());
    return;
  }
  if (type !== CLAIM) return;
  event.waitUntil(
    self.clients.claim().then(() => {
      const reply = { type: CLAIMED };
      const port = event.ports[0];
      if (port) port.postMessage(reply);
      else event.source?.postMessage(reply);
    }),
  );
});
