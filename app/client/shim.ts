/**
 * `installWebSocketShim()`: from then on, `new WebSocket(url)` in this page returns a TesseraSocket when
 * `url` is a `ws:`/`wss:` URL of this page's host under the base (`ws://<host>/api/...`), or starts with
 * one of the `aliases` (say `ws://localhost:39300`, where desktop clients look for the real server, so
 * they work unchanged), and a real WebSocket for every other URL.
 *
 * ```ts
 * installWebSocketShim();                       // the app page does this at start
 * const socket = new WebSocket(`ws://${location.host}/api/assets/stream/identifiers`);
 * ```
 *
 * `WebSocket.CONNECTING`… and `instanceof WebSocket` keep working for both kinds of socket.
 * Returns a function that puts the real WebSocket back.
 */
import { clientDefaults } from './defaults.ts';
import { TesseraSocket, type SocketOptions } from './socket.ts';

export interface ShimOptions {
  /** The path the worker answers the API under. Default: the base given to `register()`, or `/api`. */
  base?: string;
  /**
   * URL prefixes (`ws:`, `wss:`, `http:` or `https:`) whose sockets go to the API as well: the rest of
   * the URL's path is taken as the path under the base. E.g. `['ws://localhost:39300']`. Default: the
   * aliases given to `register()`.
   */
  aliases?: string[];
  /** Where the sockets' requests go and when they may start (the embedded mode passes its own). */
  fetch?: SocketOptions['fetch'];
  ready?: SocketOptions['ready'];
}

interface Installed {
  real: typeof WebSocket;
  options: ShimOptions;
  uninstall: () => void;
}

let installed: Installed | undefined;

const asWs = (protocol: string) => (protocol === 'http:' ? 'ws:' : protocol === 'https:' ? 'wss:' : protocol);

/** The path under the base that `url` names, or undefined when the URL is not the API's. */
export function apiPathOf(url: string | URL, options: ShimOptions = {}, here: Location | URL = location): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(String(url), here.href);
  } catch {
    return undefined;
  }
  const protocol = asWs(parsed.protocol);
  if (protocol !== 'ws:' && protocol !== 'wss:') return undefined;
  const base = (options.base ?? clientDefaults.base).replace(/\/+$/, '');
  if (parsed.host === here.host && parsed.pathname.startsWith(`${base}/`)) return parsed.pathname.slice(base.length);
  for (const alias of options.aliases ?? clientDefaults.aliases) {
    let prefix: URL;
    try {
      prefix = new URL(alias);
    } catch {
      continue;
    }
    if (asWs(prefix.protocol) !== protocol || prefix.host !== parsed.host) continue;
    const root = prefix.pathname.replace(/\/+$/, '');
    if (parsed.pathname.startsWith(`${root}/`)) return parsed.pathname.slice(root.length);
  }
  return undefined;
}

export function installWebSocketShim(options: ShimOptions = {}): () => void {
  if (installed) {
    installed.options = options;
    return installed.uninstall;
  }
  const real = globalThis.WebSocket;
  const state: Installed = {
    real,
    options,
    uninstall: () => {
      if (installed !== state) return;
      globalThis.WebSocket = real;
      installed = undefined;
    },
  };
  function WebSocketShim(this: unknown, url: string | URL, protocols?: string | string[]): WebSocket {
    if (!new.target) throw new TypeError("Failed to construct 'WebSocket': Please use the 'new' operator.");
    const path = apiPathOf(url, state.options);
    if (path !== undefined) {
      const { base, fetch, ready } = state.options;
      return new TesseraSocket(url, protocols, { path, ...(base ? { base } : {}), ...(fetch ? { fetch } : {}), ...(ready ? { ready } : {}) }) as unknown as WebSocket;
    }
    return protocols === undefined ? new real(url) : new real(url, protocols);
  }
  Object.defineProperties(WebSocketShim, {
    CONNECTING: { value: 0, enumerable: true },
    OPEN: { value: 1, enumerable: true },
    CLOSING: { value: 2, enumerable: true },
    CLOSED: { value: 3, enumerable: true },
    prototype: { value: real.prototype },
    [Symbol.hasInstance]: { value: (value: unknown) => value instanceof real || value instanceof TesseraSocket },
  });
  globalThis.WebSocket = WebSocketShim as unknown as typeof WebSocket;
  installed = state;
  return state.uninstall;
}
