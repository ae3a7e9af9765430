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
import { serve } from '@hono/node-server';
import { createApp } from '../core/app.ts';
import { createLanguageClassifier } from '../core/assets/language/classify.ts';
import { withDefaults, type ServiceContext } from '../core/deps.ts';
import { SharedAssetCache } from './fresh-cache.ts';
import { importModule } from './import-modules.ts';
import { nodeModelFiles } from './model-files.ts';
import { Sockets, UNAUTHORIZED } from './sockets.ts';
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
  const base = (options.base ?? '').replace(/\/+$/, '');
  const token = options.token || undefined;
  if (!isLoopback(hostname) && !token) {
    throw new Error(`Binding ${hostname} lets other machines connect: give a token (--token or TESSERA_TOKEN), which every client then sends as 'Authorization: Bearer <token>'.`);
  }
  const storage = await openStorage(options);
  const { store, feed } = storage;
  const classifier = createLanguageClassifier({ modelFiles: nodeModelFiles() });
  const ctx = withDefaults({ store, feed, classifier, base, loadModule: importModule, ...(storage.shared ? { assetCache: new SharedAssetCache(feed, store) } : {}) });
  const app = createApp(ctx);

  const authorized = (header: string | null | undefined) => !token || sameText(header ?? '', `Bearer ${token}`);
  const fetch = (request: Request) => {
    if (!authorized(request.headers.get('authorization')) && !OPEN_PATHS.has(new URL(request.url).pathname.slice(base.length))) {
      return Response.json(UNAUTHORIZED, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    }
    return app.fetch(request);
  };
  const sockets = new Sockets(ctx, {
    base,
    authorize: (request: IncomingMessage) => authorized(request.headers.authorization),
    health: async () => (await app.request(`${base}/.well-known/health`)).text(),
  });

  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const created = serve({ fetch, port: options.port ?? DEFAULT_PORT, hostname }, () => resolve(created as Server)) as Server;
      created.once('error', reject);
    });
  } catch (error) {
    await storage.close();
    throw error;
  }
  server.on('upgrade', (request, socket, head) => sockets.upgrade(request, socket, head));
  const port = (server.address() as AddressInfo).port;
  const url = `http://${hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname}:${port}${base}`;
  const banner = [`Tessera listening on ${url} (library: ${storage.describe})`];
  if (!isLoopback(hostname)) banner.push(`Not only this machine can connect: every request needs the header 'Authorization: Bearer <token>'.`);
  else if (token) banner.push(`Every request needs the header 'Authorization: Bearer <token>'.`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ctx,
    banner,
    close() {
      closing ??= (async () => {
        sockets.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await storage.close();
      })();
      return closing;
    },
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
