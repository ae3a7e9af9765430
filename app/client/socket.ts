/**
 * `TesseraSocket`: an object with the WebSocket interface for the stream paths of the API, so code
 * written for the desktop server's sockets works unchanged in a page the worker controls (a service
 * worker cannot accept a WebSocket). `installWebSocketShim()` (shim.ts) makes `new WebSocket(url)` return
 * one for URLs under the base.
 *
 * ```ts
 * const socket = new TesseraSocket(`ws://${location.host}/api/assets/stream/identifiers`);
 * socket.onmessage = (event) => console.log(JSON.parse(event.data)); // snapshot first, then deltas
 * ```
 *
 * Paths (under the base):
 * - `/assets/stream/identifiers`, `/assets/stream`, `/assets/stream/transferables`: a snapshot frame,
 *   then one delta frame per committed change, in commit order, in every tab (stream-sync.ts). The
 *   transport: the change events the worker posts on a BroadcastChannel, and fetches of the stream path
 *   for the snapshot and for catching up (worker/core/streams/protocol.ts).
 * - `/qgpt/stream`: each frame sent is POSTed to `<base>/qgpt/stream`, in order (the next once the worker
 *   has taken the previous), with the socket's id; the NDJSON lines of the reply come back as frames, as
 *   they arrive.
 * - `/.well-known/stream/health`: one frame, the health text (`ok…`).
 * Any other path fails to connect (an `error` event, then `close` with code 1006), as a real socket
 * to a path the server does not serve.
 *
 * Frames are text. `open` fires once the snapshot is in hand (as a real socket's handshake), the snapshot
 * frame right after it.
 */
import {
  HEAD_CHANNEL,
  HEALTH_STREAM_PATH,
  QGPT_STREAM_PATH,
  SEQ_HEADER,
  SINCE_PARAM,
  SOCKET_HEADER,
  STREAM_PATHS,
  type StreamCatchUp,
  type StreamFrame,
  type StreamKind,
} from '../../worker/core/streams/protocol.ts';
import { clientDefaults, whenControlled } from './defaults.ts';
import { changeEventsIn, StreamSync } from '../../worker/core/streams/stream-sync.ts';
import { CHANGE_CHANNEL } from '../../worker/browser/protocol.ts';

export interface SocketOptions {
  /** The path under which the worker answers the API. Default: the base given to `register()`, or `/api`. */
  base?: string;
  /**
   * The stream path under the base (e.g. `/assets/stream/identifiers`). Default: the URL's path minus the
   * base (the shim passes it for URLs it maps from another prefix).
   */
  path?: string;
  /** Resolves when the worker controls the page. Default: `ready()` unless the page is controlled already. */
  ready?: () => Promise<void>;
  /** What reaches the API: the page's `fetch` (through the service worker), or the embedded mode's. */
  fetch?: FetchApi;
}

/** A `fetch`-compatible function. */
export type FetchApi = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const pageFetch: FetchApi = (input, init) => fetch(input, init);

type Handler<E extends Event> = ((this: WebSocket, event: E) => unknown) | null;

/** Spec: fail the connection with these when a URL cannot be used. */
function syntaxError(message: string): DOMException {
  return new DOMException(message, 'SyntaxError');
}

function toWebSocketUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(String(url), typeof location === 'undefined' ? undefined : location.href);
  } catch {
    throw syntaxError(`The URL '${String(url)}' is invalid.`);
  }
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  else if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw syntaxError(`The URL's scheme must be 'ws' or 'wss'. '${parsed.protocol.slice(0, -1)}' is not allowed.`);
  }
  if (parsed.hash) throw syntaxError(`The URL contains a fragment identifier ('${parsed.hash}').`);
  return parsed;
}

/** What carries one socket's frames: connect, then frames through `deliver`, until `stop`. */
interface Connection {
  start(): Promise<void>;
  send(text: string): void;
  stop(): void;
}

export class TesseraSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;

  readonly url: string;
  readonly protocol = '';
  readonly extensions = '';
  readonly bufferedAmount = 0;
  binaryType: BinaryType = 'blob';
  private state: number = TesseraSocket.CONNECTING;
  private connection: Connection | undefined;
  /** Settles when the frames sent as Blobs (read asynchronously) have been passed on, in order. */
  private reading: Promise<void> | undefined;
  private readonly handlers = new Map<string, Handler<Event>>();
  private readonly origin: string;

  constructor(url: string | URL, protocols?: string | string[], options: SocketOptions = {}) {
    super();
    const parsed = toWebSocketUrl(url);
    const list = protocols === undefined ? [] : Array.isArray(protocols) ? protocols : [protocols];
    if (new Set(list).size !== list.length) throw syntaxError('The subprotocol list contains duplicates.');
    this.url = parsed.href;
    this.origin = parsed.origin;
    const base = (options.base ?? clientDefaults.base).replace(/\/+$/, '');
    const path = options.path ?? (parsed.pathname.startsWith(`${base}/`) ? parsed.pathname.slice(base.length) : undefined);
    const whenReady = options.ready ?? whenControlled;
    const query = parsed.search;
    const fetchApi = options.fetch ?? pageFetch;
    queueMicrotask(() => void this.connect(base, path, query, whenReady, fetchApi));
  }

  get readyState(): number {
    return this.state;
  }

  get onopen(): Handler<Event> {
    return this.handlers.get('open') ?? null;
  }
  set onopen(handler: Handler<Event>) {
    this.setHandler('open', handler);
  }
  get onmessage(): Handler<MessageEvent> {
    return (this.handlers.get('message') as Handler<MessageEvent> | undefined) ?? null;
  }
  set onmessage(handler: Handler<MessageEvent>) {
    this.setHandler('message', handler as Handler<Event>);
  }
  get onerror(): Handler<Event> {
    return this.handlers.get('error') ?? null;
  }
  set onerror(handler: Handler<Event>) {
    this.setHandler('error', handler);
  }
  get onclose(): Handler<CloseEvent> {
    return (this.handlers.get('close') as Handler<CloseEvent> | undefined) ?? null;
  }
  set onclose(handler: Handler<CloseEvent>) {
    this.setHandler('close', handler as Handler<Event>);
  }

  /**
   * Sends a text frame. Before `open` this throws InvalidStateError, as a WebSocket does; after `close()`
   * it is ignored. On the asset streams the server reads nothing from the client, as the real server.
   */
  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    if (this.state === TesseraSocket.CONNECTING) throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError');
    if (this.state !== TesseraSocket.OPEN) return;
    const connection = this.connection;
    let text: string | Promise<string>;
    if (typeof data === 'string') text = data;
    else if (data instanceof Blob) text = data.text();
    else {
      const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
      text = new TextDecoder().decode(bytes);
    }
    // Frames go out in the order they were sent, as on a WebSocket: a Blob's text comes asynchronously,
    // so while one is being read, later frames wait behind it.
    if (typeof text === 'string' && !this.reading) {
      connection?.send(text);
      return;
    }
    const queued = (this.reading ?? Promise.resolve()).then(async () => {
      const frame = await text;
      if (this.state === TesseraSocket.OPEN) connection?.send(frame);
    });
    const settled = queued.catch(() => {});
    this.reading = settled;
    void settled.then(() => {
      if (this.reading === settled) this.reading = undefined;
    });
  }

  close(code?: number, reason?: string): void {
    if (code !== undefined && code !== 1000 && !(code >= 3000 && code <= 4999)) {
      throw new DOMException(`The close code must be either 1000, or between 3000 and 4999. ${code} is neither.`, 'InvalidAccessError');
    }
    if (reason !== undefined && new TextEncoder().encode(reason).byteLength > 123) {
      throw syntaxError('The close reason must not be greater than 123 UTF-8 bytes.');
    }
    if (this.state === TesseraSocket.CLOSING || this.state === TesseraSocket.CLOSED) return;
    if (this.state === TesseraSocket.CONNECTING) {
      this.fail();
      return;
    }
    this.state = TesseraSocket.CLOSING;
    this.connection?.stop();
    setTimeout(() => this.finish(code ?? 1005, reason ?? '', true), 0);
  }

  private setHandler(type: string, handler: Handler<Event>): void {
    const had = this.handlers.has(type);
    if (typeof handler === 'function') this.handlers.set(type, handler);
    else this.handlers.delete(type);
    // One listener per type, added when a handler is first set: the handler runs in the order
    // in which it was first set relative to addEventListener listeners, as an event handler attribute.
    if (!had && typeof handler === 'function') {
      this.addEventListener(type, (event) => {
        const current = this.handlers.get(type);
        current?.call(this as unknown as WebSocket, event);
      });
    }
  }

  private async connect(base: string, path: string | undefined, query: string, whenReady: () => Promise<void>, fetchApi: FetchApi): Promise<void> {
    if (this.state !== TesseraSocket.CONNECTING) return;
    const deliver = (text: string) => {
      if (this.state === TesseraSocket.OPEN) this.dispatchEvent(new MessageEvent('message', { data: text, origin: this.origin }));
    };
    const opened = () => {
      if (this.state !== TesseraSocket.CONNECTING) return false;
      this.state = TesseraSocket.OPEN;
      this.dispatchEvent(new Event('open'));
      return true;
    };
    const broken = () => {
      if (this.state === TesseraSocket.OPEN || this.state === TesseraSocket.CONNECTING) this.fail();
    };
    const connection = path === undefined ? undefined : createConnection(base, path, query, fetchApi, { deliver, opened, broken });
    if (!connection) {
      this.fail();
      return;
    }
    this.connection = connection;
    try {
      await whenReady();
      if (this.state !== TesseraSocket.CONNECTING) return;
      await connection.start();
    } catch {
      broken();
    }
  }

  /** The connection failed or broke: `error`, then `close` with 1006 (abnormal closure). */
  private fail(): void {
    if (this.state === TesseraSocket.CLOSED) return;
    this.connection?.stop();
    this.state = TesseraSocket.CLOSING;
    setTimeout(() => {
      this.dispatchEvent(new Event('error'));
      this.finish(1006, '', false);
    }, 0);
  }

  private finish(code: number, reason: string, wasClean: boolean): void {
    if (this.state === TesseraSocket.CLOSED) return;
    this.state = TesseraSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code, reason, wasClean }));
  }
}

interface Sink {
  deliver(text: string): void;
  /** Moves the socket to OPEN and fires `open`; false when the socket was closed meanwhile. */
  opened(): boolean;
  broken(): void;
}

function createConnection(base: string, path: string, query: string, fetchApi: FetchApi, sink: Sink): Connection | undefined {
  const kind = STREAM_PATHS[path];
  if (kind) return changeStream(base, path, kind, fetchApi, sink);
  if (path === QGPT_STREAM_PATH) return qgptStream(base, query, fetchApi, sink);
  if (path === HEALTH_STREAM_PATH) return healthStream(base, fetchApi, sink);
  return undefined;
}

async function getJson<T>(url: string, fetchApi: FetchApi): Promise<{ body: T; response: Response }> {
  const response = await fetchApi(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return { body: (await response.json()) as T, response };
}

/** An asset stream: change events from the channel, snapshot and catch-up by fetch. */
function changeStream(base: string, path: string, kind: StreamKind, fetchApi: FetchApi, sink: Sink): Connection {
  const url = `${base}${path}`;
  let sync: StreamSync | undefined;
  let changes: BroadcastChannel | undefined;
  let heads: BroadcastChannel | undefined;
  let isOpen = false;
  const check = () => sync?.check();
  const onVisible = () => {
    if (document.visibilityState === 'visible') check();
  };
  const stop = () => {
    sync?.close();
    changes?.close();
    heads?.close();
    changes = heads = undefined;
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', onVisible);
      document.removeEventListener('resume', check);
    }
    if (typeof window !== 'undefined') {
      window.removeEventListener('pageshow', check);
      window.removeEventListener('online', check);
    }
  };
  return {
    async start() {
      sync = new StreamSync({
        kind,
        transport: {
          snapshot: async () => {
            const { body, response } = await getJson<StreamFrame>(url, fetchApi);
            const seq = Number(response.headers.get(SEQ_HEADER));
            if (!Number.isSafeInteger(seq)) throw new Error(`GET ${url}: no ${SEQ_HEADER} header`);
            return { seq, frame: body };
          },
          since: async (seq) => (await getJson<StreamCatchUp>(`${url}?${SINCE_PARAM}=${seq}`, fetchApi)).body,
        },
        emit: (frame) => {
          // The snapshot goes out right after `open`, as a real server pushes it when the socket opens.
          if (!isOpen) {
            isOpen = true;
            if (!sink.opened()) return;
          }
          sink.deliver(JSON.stringify(frame));
        },
        fail: () => sink.broken(),
      });
      const current = sync;
      // Listen first: every event committed after the snapshot's read then reaches the sync.
      changes = new BroadcastChannel(CHANGE_CHANNEL);
      changes.onmessage = (message: MessageEvent<unknown>) => {
        for (const event of changeEventsIn(message.data)) current.onEvent(event);
      };
      heads = new BroadcastChannel(HEAD_CHANNEL);
      heads.onmessage = (message: MessageEvent<{ type?: unknown; seq?: unknown }>) => {
        const data = message.data;
        if (data?.type === 'head' && Number.isSafeInteger(data.seq)) current.onHead(data.seq as number);
      };
      if (typeof document !== 'undefined') {
        document.addEventListener('visibilitychange', onVisible);
        document.addEventListener('resume', check); // a frozen tab resumed
      }
      if (typeof window !== 'undefined') {
        window.addEventListener('pageshow', check); // back from the back/forward cache
        window.addEventListener('online', check);
      }
      try {
        await current.start();
      } catch (error) {
        stop();
        throw error;
      }
    },
    send() {
      // The asset streams read nothing from the client.
    },
    stop,
  };
}

/**
 * `/qgpt/stream`: each input frame is a POST; the reply's NDJSON lines are the output frames.
 *
 * Frames keep their order, as on a WebSocket: a frame is POSTed only once the worker has answered the
 * previous one's headers, by which time it has registered that frame (a question running, a stop or reset
 * begun). So a `{stop}` sent right after a question finds it running. Each POST names this socket in the
 * `tessera-socket` header: a `{reset: true}` ends this socket's requests only, not another tab's.
 */
function qgptStream(base: string, query: string, fetchApi: FetchApi, sink: Sink): Connection {
  const aborts = new Set<AbortController>();
  const socket = crypto.randomUUID();
  /** Settles once the last frame sent has been registered by the worker (or failed). */
  let previous: Promise<unknown> = Promise.resolve();
  let stopped = false;
  return {
    async start() {
      sink.opened();
    },
    send(text) {
      const abort = new AbortController();
      aborts.add(abort);
      const registered = previous.then(() => {
        if (stopped) throw new DOMException('The socket is closed.', 'AbortError');
        return fetchApi(`${base}${QGPT_STREAM_PATH}${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SOCKET_HEADER]: socket },
          body: text,
          signal: abort.signal,
        });
      });
      previous = registered.catch(() => undefined);
      void (async () => {
        try {
          const response = await registered;
          if (!response.ok || !response.body) throw new Error(`POST ${QGPT_STREAM_PATH}: ${response.status}`);
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let pending = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            pending += value;
            let newline: number;
            while ((newline = pending.indexOf('\n')) >= 0) {
              const line = pending.slice(0, newline).trim();
              pending = pending.slice(newline + 1);
              if (line) sink.deliver(line);
            }
          }
          if (pending.trim()) sink.deliver(pending.trim());
        } catch {
          if (!abort.signal.aborted && !stopped) sink.broken();
        } finally {
          aborts.delete(abort);
        }
      })();
    },
    stop() {
      stopped = true;
      for (const abort of aborts) abort.abort();
      aborts.clear();
    },
  };
}

/** `/.well-known/stream/health`: the health text as one frame. */
function healthStream(base: string, fetchApi: FetchApi, sink: Sink): Connection {
  return {
    async start() {
      const response = await fetchApi(`${base}/.well-known/health`, { cache: 'no-store' });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET /.well-known/health: ${response.status}`);
      if (sink.opened()) sink.deliver(text);
    },
    send() {},
    stop() {},
  };
}
