/**
 * The embedded mode: Tessera without a service worker. The page starts a dedicated Worker
 * (`/tessera-embedded.js`, worker/embedded/worker.ts) that runs the same app on the same IndexedDB store,
 * and talks to it through a `fetch`-compatible function instead of the network.
 *
 * ```ts
 * import { startEmbedded } from 'tessera/embedded';
 * const tessera = startEmbedded({ assetsUrl: '/tessera-assets/' });   // where the host serves tessera/assets/
 * // also: base ('/api'), aliases (['http://localhost:39300']), scriptUrl, worker
 * await tessera.ready();
 * const assets = new AssetsApi(new Configuration({ basePath: location.origin + '/api', fetchApi: tessera.fetch }));
 * const socket = tessera.socket(`ws://${location.host}/api/assets/stream/identifiers`);
 * const asset = await tessera.rpc.getAsset(id);
 * ```
 *
 * `fetch` answers a URL under the base at the page's origin, or under an alias, from the Worker; any other
 * URL goes to the page's own `fetch`, as a service worker lets it through to the network. The sockets and
 * the RPC are the service worker mode's (socket.ts, rpc.ts) over this `fetch` and this Worker; change
 * events arrive on the origin's BroadcastChannel as in that mode, so a page in either mode sees the other's
 * writes.
 */
import { checkBase, DEFAULT_BASE, scriptUrlFor } from '../../worker/core/base-path.ts';
import { waitHealthy } from './health.ts';
import { fetchOverPort, type PortFetchTarget } from './port-fetch.ts';
import { createRpc, type TesseraRpc } from './rpc.ts';
import { installWebSocketShim as installShim } from './shim.ts';
import { TesseraSocket, type FetchApi } from './socket.ts';

export interface EmbeddedOptions {
  /** The path the API is answered under. Default `'/api'`. */
  base?: string;
  /**
   * Other URL prefixes answered as if they were the base, absolute (`'http://localhost:39300'`: where
   * desktop clients look for the service, answered at its root path) or paths of this origin (`'/old'`).
   */
  aliases?: string[];
  /**
   * Where the package's assets are served (`tessera/assets/…`: the Worker's script, its lazy scripts and
   * model files), as `installTessera`'s `assetsUrl`; the Worker is `<assetsUrl>/tessera-embedded.js`.
   */
  assetsUrl?: string | URL;
  /** URL of the worker script, when it is not in `assetsUrl`. Default `'/tessera-embedded.js'` (Tessera's own build). */
  scriptUrl?: string;
  /**
   * A Worker the host started itself (say from a `blob:` URL of the script, where a page may not load one
   * by URL); started with the base on its URL (`?base=/tessera`) when that is not `/api`.
   */
  worker?: Worker;
}

export interface Embedded {
  readonly base: string;
  /** `fetch` for the API: hand it to the SDK as `fetchApi`. */
  fetch: FetchApi;
  /** Resolves once the Worker answers its health check with `ok`; rejects saying why it does not. */
  ready(): Promise<void>;
  /** A WebSocket to a stream path (`ws://<host>/api/assets/stream/identifiers`, `…/qgpt/stream`). */
  socket(url: string | URL, protocols?: string | string[]): WebSocket;
  /** Makes `new WebSocket(url)` in this page open `socket(url)` for the API's URLs; returns the undo. */
  installWebSocketShim(): () => void;
  /** The operations as typed calls (rpc.ts) on this Worker. */
  rpc: TesseraRpc;
  /** Stops the Worker; later calls fail. */
  terminate(): void;
}

/** The Worker's file name (scripts/worker-bundle.ts EMBEDDED_SCRIPT), and where Tessera's own build serves it. */
const EMBEDDED_SCRIPT = 'tessera-embedded.js';
export const EMBEDDED_SCRIPT_URL = `/${EMBEDDED_SCRIPT}`;

export function startEmbedded(options: EmbeddedOptions = {}): Embedded {
  const base = checkBase(options.base ?? DEFAULT_BASE);
  const aliases = (options.aliases ?? []).map((alias) => new URL(alias, location.href));
  const script = options.scriptUrl ?? (options.assetsUrl === undefined ? EMBEDDED_SCRIPT_URL : new URL(EMBEDDED_SCRIPT, new URL(String(options.assetsUrl), location.href)).href);
  const worker = options.worker ?? new Worker(scriptUrlFor(script, { base, aliases: [] }, location.href));
  /** Why the Worker is unusable (its script failed to load, or terminate()); then every call fails. */
  let failure: string | undefined;
  let answered = false;
  const pending = new Set<(error: Error) => void>();

  const fail = (reason: string) => {
    failure ??= reason;
    for (const reject of pending) reject(new TypeError(`tessera: ${failure}`));
    pending.clear();
  };
  // Before its first reply an error is the script's load or start failing; later ones are uncaught errors
  // inside a Worker that keeps running.
  worker.addEventListener('error', (event) => {
    if (!answered) fail(`the embedded worker did not start${event instanceof ErrorEvent && event.message ? `: ${event.message}` : ''}`);
  });

  /** The path under the base that `url` names, or undefined when it is not the API's. */
  function apiPathOf(url: URL): string | undefined {
    if (url.origin === location.origin && (url.pathname === base || url.pathname.startsWith(`${base}/`))) return url.pathname;
    for (const alias of aliases) {
      const root = alias.pathname.replace(/\/+$/, '');
      if (url.origin === alias.origin && (url.pathname === root || url.pathname.startsWith(`${root}/`))) return base + url.pathname.slice(root.length);
    }
    return undefined;
  }

  const embeddedFetch: FetchApi = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const path = apiPathOf(url);
    if (path === undefined) return fetch(request);
    if (failure) throw new TypeError(`tessera: ${failure}`);
    url.pathname = path;
    const response = await fetchOverPort(worker as PortFetchTarget, request, url.href, (fail) => {
      pending.add(fail);
      return () => pending.delete(fail);
    });
    answered = true;
    return response;
  };

  let readiness: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    if (failure) return Promise.reject(new Error(`tessera: ${failure}`));
    readiness ??= waitHealthy(base, embeddedFetch);
    readiness.catch(() => (readiness = undefined));
    return readiness;
  };
  const socketOptions = { base, fetch: embeddedFetch, ready };

  return {
    base,
    fetch: embeddedFetch,
    ready,
    socket: (url, protocols) => {
      // The stream path, from the URL as an http(s) one, so that aliases apply as they do to `fetch`.
      const http = new URL(String(url), location.href);
      http.protocol = http.protocol === 'wss:' ? 'https:' : http.protocol === 'ws:' ? 'http:' : http.protocol;
      const path = apiPathOf(http)?.slice(base.length);
      return new TesseraSocket(url, protocols, { ...socketOptions, ...(path === undefined ? {} : { path }) }) as unknown as WebSocket;
    },
    installWebSocketShim: () => installShim({ ...socketOptions, aliases: aliases.filter((a) => a.origin !== location.origin).map((a) => a.href) }),
    rpc: createRpc({ worker: () => (failure ? undefined : worker), ready }),
    terminate: () => {
      worker.terminate();
      fail('the embedded worker was terminated');
    },
  };
}
