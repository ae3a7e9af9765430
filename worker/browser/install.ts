/**
 * `installTessera(scope, options)`: Tessera's listeners on a service worker global scope, the host's or
 * Tessera's own (./sw.ts). It is what the package exports as `tessera/worker`.
 *
 * - `fetch`: a request whose URL is under the base (or a path alias) at the worker's origin, or at an
 *   alias origin (`http://localhost:39300`, answered at its root path, as the desktop service is), is
 *   answered by the service app, an unknown route included (a JSON 404, never the network). Every other
 *   request is left alone: the host's own listeners, or the network, answer it.
 * - `install` keeps the lazy scripts and the language model's files (./lazy-scripts.ts), served under
 *   `assetsUrl`, in Cache Storage; `activate` drops other builds' copies. Without `assetsUrl` those
 *   features fall back (no typo lookups, signature-only language detection, the hashing embedder) and
 *   say so once in the console; the API itself never fails for it.
 * - `message` `{type: 'tessera:claim'}` -> `clients.claim()`, then `{type: 'tessera:claimed'}`: a
 *   hard-reloaded page is uncontrolled though the worker is active, and asks to be claimed.
 * - `message` `{type: 'tessera:rpc'}` with a MessagePort -> the services on that port (./rpc.ts);
 *   `{type: 'tessera:keepalive'}` keeps the worker alive until the RPC calls under way are done.
 * - When the app starts (each worker lifetime), the last committed change seq goes out on the
 *   BroadcastChannel `tessera-stream-head`: a page's stream that missed an event (published by a worker
 *   stopped right after its commit) catches up.
 *
 * Skipping the waiting phase and claiming pages at activation are the host's decisions (Tessera's own
 * worker does both); `ready()` in the page asks for a claim when it needs one.
 */
import { apiUrlPath, checkAlias, checkBase, DEFAULT_BASE, type BasePaths } from '../core/base-path.ts';
import { ApiError } from '../core/errors.ts';
import { lastSeq } from '../core/feed/commit.ts';
import { HEAD_CHANNEL, type HeadMessage } from '../core/streams/protocol.ts';
import { dropOldLazyCaches, precacheLazyFiles } from './lazy-scripts.ts';
import { CLAIM, CLAIMED, RPC_CONNECT, RPC_KEEPALIVE } from './protocol.ts';
import { acceptRpc, rpcIdle } from './rpc.ts';
import { createServiceApp, type ServiceApp } from './service-app.ts';

export interface TesseraOptions {
  /** The path the API is answered under at the worker's origin. Default `/api`. */
  base?: string;
  /**
   * Also answered as the base: other paths (`'/api'`), and absolute origins (`'http://localhost:39300'`)
   * whose requests are answered at their root path, so code written for the desktop service works
   * unchanged. A page reaches an alias origin only if its Content-Security-Policy's `connect-src` allows it.
   */
  aliases?: string[];
  /**
   * Where the host serves the package's assets (`node_modules/tessera/pkg/assets/`: the lazy scripts, the
   * language model, onnxruntime's wasm, and any embedding model under `models/`), absolute or relative to
   * the worker's script. Without it, typo lookups, the language model and the embedder are off.
   */
  assetsUrl?: string | URL;
}

/**
 * `GET <base>/__echo` -> 200 `{}`, answered without touching the app or IndexedDB. It measures the
 * transport floor of the fetch path (page -> worker -> page) for the benchmark; not part of the API.
 */
const ECHO = '/__echo';

/** Adds Tessera's listeners to `scope` (see above). Throws a TypeError on a bad base or alias. */
export function installTessera(scope: ServiceWorkerGlobalScope, options: TesseraOptions = {}): void {
  const paths: BasePaths = {
    base: checkBase(options.base ?? DEFAULT_BASE),
    aliases: (options.aliases ?? []).map((alias) => checkAlias(alias)),
  };
  const assets = options.assetsUrl === undefined ? undefined : new URL(String(options.assetsUrl), scope.location.href);
  if (!assets) console.warn('tessera: no assetsUrl: typo lookups, the language model and the embedder are off (installTessera options)');

  let app: Promise<ServiceApp> | undefined;
  /**
   * The app, created once per worker lifetime on the first request. A failed creation is not kept, so the
   * next request tries again (an IndexedDB upgrade blocked by an old tab must not brick the worker until
   * it is stopped). It cannot stay pending: IdbStore.open gives up on a blocked upgrade after a while.
   */
  const getApp = (): Promise<ServiceApp> => {
    if (!app) {
      app = createServiceApp({ base: paths.base, ...(assets ? { assets } : {}) });
      app.then(announceHead, () => {
        app = undefined;
      });
    }
    return app;
  };

  const answer = async (request: Request): Promise<Response> => {
    let service: ServiceApp;
    try {
      service = await getApp();
    } catch (error) {
      // A blocked database upgrade says so (storage_blocked) and what to do.
      if (error instanceof ApiError) return errorResponse(503, error.code, error.message);
      return errorResponse(503, 'unavailable', `service failed to start: ${messageOf(error)}`);
    }
    try {
      return await service.fetch(request);
    } catch (error) {
      return errorResponse(500, 'internal', messageOf(error));
    }
  };

  scope.addEventListener('install', (event) => {
    if (assets) event.waitUntil(precacheLazyFiles(assets));
  });

  scope.addEventListener('activate', (event) => {
    event.waitUntil(dropOldLazyCaches());
  });

  scope.addEventListener('fetch', (event) => {
    const { request } = event;
    const url = new URL(request.url);
    const path = apiUrlPath(url, paths, scope.location.origin);
    if (path === undefined) return;
    if (path === `${paths.base}${ECHO}` && request.method === 'GET') {
      event.respondWith(Response.json({}));
      return;
    }
    const moved = url.origin === scope.location.origin && path === url.pathname ? request : underBase(request, url, new URL(path, scope.location.origin));
    event.respondWith(answer(moved));
  });

  scope.addEventListener('message', (event) => {
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
      scope.clients.claim().then(() => {
        const reply = { type: CLAIMED };
        const port = event.ports[0];
        if (port) port.postMessage(reply);
        else event.source?.postMessage(reply);
      }),
    );
  });
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

function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { status, code, message } }, { status });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A request under an alias (a path or an origin), as the same request under the base at `target`. */
function underBase(request: Request, url: URL, target: URL): Request {
  target.search = url.search;
  // `duplex` lets a streamed body (a backup restore) move to the new request.
  return new Request(target, { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit);
}
