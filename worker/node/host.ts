/**
 * The Node host: the core app (worker/core) on `@hono/node-server`, at the root path like the desktop
 * service (`http://localhost:39300/assets`), with real WebSockets for the streams (sockets.ts) and the
 * library in PGlite or PostgreSQL (storage.ts). It builds `deps` and wires transport; all behaviour is
 * the core's, as in the browser's service worker.
 *
 * It binds 127.0.0.1 unless told otherwise. Bound anywhere else it needs a token: every request but the
 * health and version checks must carry `Authorization: Bearer <token>` (WebSocket upgrades too).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createApp, type App } from '../core/app.ts';
import { createLanguageClassifier } from '../core/assets/language/classify.ts';
import { withDefaults, type Deps, type ServiceContext } from '../core/deps.ts';
import { builtInEmbedder, DeferredEmbedder } from '../core/embed/select.ts';
import type { Feed } from '../core/feed/feed.ts';
import { vectorIndexFor } from '../core/qgpt/vectors/snippet-vectors.ts';
import { searchIndexFor } from '../core/search/search-index.ts';
import type { Store } from '../core/store/store.ts';
import { SharedAssetCache } from './fresh-cache.ts';
import { importModule } from './import-modules.ts';
import { codeVectorsFile, nodeModelFiles } from './model-files.ts';
import { endWithError, Sockets, UNAUTHORIZED } from './sockets.ts';
import { openStorage, type StorageOptions } from './storage.ts';

export const DEFAULT_PORT = 39300;

export interface HostOptions extends StorageOptions {
  /** Default 39300; 0 takes any free port (see `Host.port`). */
  port?: number;
  /** The address to bind. Default 127.0.0.1. */
  hostname?: string;
  /** Required when `hostname` is not a loopback address; checked on every request when set. */
  token?: string;
  /** The path prefix of the API. Default '' (the root, as the desktop service). */
  base?: string;
}

export interface Host {
  url: string;
  port: number;
  ctx: ServiceContext;
  /** Lines that say where the host listens, what it keeps where, and how to reach it. */
  banner: string[];
  close(): Promise<void>;
}

/** Paths a client may reach without the token: the port scans and health checks of the desktop clients. */
const OPEN_PATHS = new Set(['/.well-known/health', '/.well-known/version']);

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export async function startHost(options: HostOptions = {}): Promise<Host> {
  const hostname = options.hostname ?? '127.0.0.1';
  const token = options.token || undefined;
  if (!isLoopback(hostname) && !token) {
    throw new Error(`Binding ${hostname} lets other machines connect: give a token (--token or TESSERA_TOKEN), which every client then sends as 'Authorization: Bearer <token>'.`);
  }
  const storage = await openStorage(options);
  const hostApp = createHostApp({ ...storage, base: options.base, token, deps: storage.deps });
  let server: Server;
  try {
    server = await listen(hostApp, { port: options.port ?? DEFAULT_PORT, hostname });
  } catch (error) {
    await storage.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname}:${port}${hostApp.ctx.base}`;
  const banner = [`Tessera listening on ${url} (library: ${storage.describe})`];
  if (!isLoopback(hostname)) banner.push(`Not only this machine can connect: every request needs the header 'Authorization: Bearer <token>'.`);
  else if (token) banner.push(`Every request needs the header 'Authorization: Bearer <token>'.`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ctx: hostApp.ctx,
    banner,
    close() {
      closing ??= (async () => {
        await close(server, hostApp);
        await saveIndexes(hostApp.ctx);
        await storage.close();
      })();
      return closing;
    },
  };
}

export interface HostAppOptions {
  store: Store;
  feed: Feed;
  /** Whether other instances write to the same database (PostgreSQL): the asset cache then checks the last seq before each use. */
  shared: boolean;
  /** The path prefix of the API. Default '' (the root). */
  base?: string | undefined;
  /** When set, asked of every request but the health and version checks (see the top of this file). */
  token?: string | undefined;
  /** Deps beyond the host's own (the relay of running requests; in tests a classifier, a clock, an embedder). */
  deps?: Partial<Deps> | undefined;
}

/** The host's app, before it listens: the core app behind the token check, and the WebSockets. */
export interface HostApp {
  ctx: ServiceContext;
  /** The core app, without the token check. */
  app: App;
  fetch(request: Request): Response | Promise<Response>;
  sockets: Sockets;
}

/**
 * The core app as the Node host composes it, on a store and feed it is given: the language model read
 * from the npm package, the code vectors from this repository, the lazy modules imported, the asset cache of a shared database, the token check,
 * the sockets. startHost serves it on its storage; the route tests' HTTP transport on theirs.
 */
export function createHostApp(options: HostAppOptions): HostApp {
  const base = (options.base ?? '').replace(/\/+$/, '');
  const token = options.token || undefined;
  const { store, feed } = options;
  const ctx = withDefaults({
    store,
    feed,
    classifier: options.deps?.classifier ?? createLanguageClassifier({ modelFiles: nodeModelFiles() }),
    loadModule: importModule,
    // Read in the background at the first embedding, so a start does not wait for the file.
    embedder: options.deps?.embedder ?? new DeferredEmbedder(() => builtInEmbedder(codeVectorsFile(), 'the Node host runs no sentence-embedding model')),
    ...(options.shared ? { assetCache: new SharedAssetCache(feed, store) } : {}),
    ...options.deps,
    base,
  });
  const app = createApp(ctx);
  const authorized = (header: string | null | undefined) => !token || sameText(header ?? '', `Bearer ${token}`);
  const sockets = new Sockets(ctx, {
    base,
    authorize: (request: IncomingMessage) => authorized(request.headers.authorization),
    health: async () => (await app.request(`${base}/.well-known/health`)).text(),
  });
  return {
    ctx,
    app,
    sockets,
    fetch(request: Request) {
      if (!authorized(request.headers.get('authorization')) && !OPEN_PATHS.has(new URL(request.url).pathname.slice(base.length))) {
        return Response.json(UNAUTHORIZED, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      }
      return app.fetch(request);
    },
  };
}

/** How long the server keeps an idle kept-alive connection open, and how long it tells clients (see `listen`). */
export const IDLE_CONNECTION_MS = 30_000;
export const ADVERTISED_IDLE_S = 5;

/** Serves a host app on @hono/node-server: HTTP through its `fetch`, WebSocket upgrades through its sockets. */
export async function listen(hostApp: HostApp, address: { port: number; hostname: string }): Promise<Server> {
  const server = await new Promise<Server>((resolve, reject) => {
    const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
      const response = await hostApp.fetch(request);
      // Answered before the whole request body arrived (a 413 on its declared length, a refusal that read
      // none of it): what is still coming cannot be told from a next request, so this connection carries
      // no other, and the client knows to open a new one instead of finding it closed under its next request.
      if (!env.incoming.complete) env.outgoing.setHeader('connection', 'close');
      else env.outgoing.setHeader('keep-alive', `timeout=${ADVERTISED_IDLE_S}`);
      return response;
    };
    const created = serve({ fetch, ...address }, () => resolve(created as Server)) as Server;
    created.once('error', reject);
  });
  // An idle kept-alive connection is closed by the client, not under it: clients are told 5 s (`Keep-Alive`),
  // which Node's fetch (undici, the SDK's transport) takes as about 3 s, and the server waits 30 s. With
  // Node's own 5 s on both sides, a client whose timer ran 2 s late on a loaded machine could send its next
  // request into a socket being closed (ECONNRESET; the bench's Node host section failed once so).
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.on('upgrade', (request, socket, head) => hostApp.sockets.upgrade(request, socket, head));
  // What Node's HTTP parser refuses before the app sees it (headers or a URL over 16 KiB, a malformed
  // request) is answered with the JSON error body of every other error, not Node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW') return endWithError(socket, 431, 'headers_too_large', 'The request line and headers are over 16 KiB.');
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return endWithError(socket, 408, 'request_timeout', 'The request did not arrive in time.');
    endWithError(socket, 400, 'bad_request', `The request is not valid HTTP (${error.code ?? error.message}).`);
  });
  return server;
}

/**
 * On a planned stop, after the last request: the search index caught up and saved, and the vectors saved,
 * if they changed since their last save (each waits for a quiet moment otherwise, 1.5 s or more), so the next start restores them
 * instead of replaying the changes since, or rebuilding the index when those are more than the change log
 * keeps. A failure is said and does not hold the stop up: they are derived data.
 */
async function saveIndexes(ctx: ServiceContext): Promise<void> {
  const saves = await Promise.allSettled([searchIndexFor(ctx).catchUpAndSave(), vectorIndexFor(ctx).saveSnapshot()]);
  for (const save of saves) if (save.status === 'rejected') console.warn(`tessera: an index was not saved before the stop (${String(save.reason)})`);
}

/** How long a stop lets the requests under way finish before it closes their connections. */
export const STOP_GRACE_MS = 10_000;

/**
 * Closes the sockets (going away), then the server: no new connection is taken, idle ones are closed, and a
 * request under way is answered before its connection is (for up to `graceMs`, then it is cut). Cut at once,
 * a write could commit with its client told nothing but a reset, and send it again.
 */
export async function close(server: Server, hostApp: HostApp, graceMs = STOP_GRACE_MS): Promise<void> {
  hostApp.sockets.close();
  await new Promise<void>((resolve) => {
    // A kept-alive connection turns idle once its response is sent: looked for until the last has closed.
    const idle = setInterval(() => server.closeIdleConnections(), 20);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
