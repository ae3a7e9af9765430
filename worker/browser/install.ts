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
 * - The app is created on the first request of each worker lifetime, and announces the last committed
 *   change seq when it starts (./service-host.ts).
 *
 * Skipping the waiting phase and claiming pages at activation are the host's decisions (Tessera's own
 * worker does both); `ready()` in the page asks for a claim when it needs one.
 */
import { apiUrlPath, checkAlias, checkBase, DEFAULT_BASE, type BasePaths } from '../core/base-path.ts';
import { oneChunk } from '../core/routes/http.ts';
import { dropOldLazyCaches, precacheLazyFiles } from './lazy-scripts.ts';
import { CLAIM, CLAIMED, RPC_CONNECT, RPC_KEEPALIVE } from './protocol.ts';
import { acceptRpc, rpcIdle } from './rpc.ts';
import { createServiceHost } from './service-host.ts';

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
 * transport floor of the fetch path (page -> worker -> page) for the benchmark; not part of the API. Its
 * body is a stream, as the API's cached bodies are (routes/http.ts jsonBytes): the cheaper body for Chromium.
 * `POST` reads the request's body first and answers the same: the floor of a write's transport (a create).
 */
const ECHO = '/__echo';
const ECHO_BODY = new TextEncoder().encode('{}');

/** Adds Tessera's listeners to `scope` (see above). Throws a TypeError on a bad base or alias. */
export function installTessera(scope: ServiceWorkerGlobalScope, options: TesseraOptions = {}): void {
  const paths: BasePaths = {
    base: checkBase(options.base ?? DEFAULT_BASE),
    aliases: (options.aliases ?? []).map((alias) => checkAlias(alias)),
  };
  const assets = options.assetsUrl === undefined ? undefined : new URL(String(options.assetsUrl), scope.location.href);
  if (!assets) console.warn('tessera: no assetsUrl: typo lookups, the language model and the embedder are off (installTessera options)');

  const host = createServiceHost({ base: paths.base, ...(assets ? { assets } : {}) });

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
    if (path === `${paths.base}${ECHO}` && (request.method === 'GET' || request.method === 'POST')) {
      const echo = () => new Response(oneChunk(ECHO_BODY), { headers: { 'content-type': 'application/json', 'content-length': '2' } });
      event.respondWith(request.method === 'GET' ? echo() : request.arrayBuffer().then(echo));
      return;
    }
    const moved = url.origin === scope.location.origin && path === url.pathname ? request : underBase(request, url, new URL(path, scope.location.origin));
    event.respondWith(host.answer(moved));
  });

  scope.addEventListener('message', (event) => {
    const data: unknown = event.data;
    const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
    if (type === RPC_CONNECT) {
      const port = event.ports[0];
      if (port) event.waitUntil(acceptRpc(port, host.app));
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

/** A request under an alias (a path or an origin), as the same request under the base at `target`. */
function underBase(request: Request, url: URL, target: URL): Request {
  target.search = url.search;
  // `duplex` lets a streamed body (a backup restore) move to the new request.
  return new Request(target, { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit);
}
