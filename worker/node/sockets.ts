/**
 * Real WebSockets for the stream paths (`ws`), with the frames the browser's TesseraSocket gives
 * (app/client/socket.ts; wire-contract.md §4):
 *
 * - `/assets/stream/identifiers`, `/assets/stream`, `/assets/stream/transferables`: the snapshot frame as
 *   soon as the socket opens, then one delta frame per committed change in commit order. The same
 *   StreamSync as the page's socket turns the feed's events and the change log into frames, over the
 *   same reads (streamSnapshot, streamChanges), so both sides send the same frames.
 * - `/qgpt/stream`: each text frame received is a QGPTStreamInput; its output frames go back as they are
 *   produced, many requests at once on one socket. A closed socket ends its running requests (stopped).
 * - `/.well-known/stream/health`: one frame, the health text (`ok`).
 *
 * Any other path is refused with a 404 before the handshake, as the real server does.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { StreamSync } from '../core/streams/stream-sync.ts';
import type { ServiceContext } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import { createServices, type AllServices } from '../core/services.ts';
import { HEALTH_STREAM_PATH, QGPT_STREAM_PATH, STREAM_PATHS, type StreamKind } from '../core/streams/protocol.ts';

/** A request without the token a server bound beyond loopback needs, HTTP or WebSocket. */
export const UNAUTHORIZED = new ApiError(401, 'unauthorized', 'This server needs a token: send the header Authorization: Bearer <token>.');

/** A client that lets this much pile up unsent is too slow to follow the library: it is disconnected. */
const MAX_BUFFERED = 256 * 1024 * 1024;

export interface SocketOptions {
  /** The path prefix of the API ('' at the root). */
  base: string;
  /** Whether an upgrade request may connect (the token check); refused with 401 when false. */
  authorize(request: IncomingMessage): boolean;
  /** The health text (the app's `GET /.well-known/health`). */
  health(): Promise<string>;
}

export class Sockets {
  private readonly server: WebSocketServer;
  private readonly services: AllServices;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: SocketOptions,
  ) {
    this.server = new WebSocketServer({ noServer: true, maxPayload: ctx.maxBodyBytes });
    this.services = createServices(ctx);
  }

  /** The HTTP server's `upgrade` listener. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const { base } = this.options;
    const path = base === '' ? url.pathname : url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : undefined;
    const known = path !== undefined && (path in STREAM_PATHS || path === QGPT_STREAM_PATH || path === HEALTH_STREAM_PATH);
    if (!known) return refuse(socket, new ApiError(404, 'route_not_found', `No WebSocket at ${url.pathname}.`));
    if (!this.options.authorize(request)) return refuse(socket, UNAUTHORIZED);
    this.server.handleUpgrade(request, socket, head, (ws) => this.serve(ws, path!));
  }

  /** Closes every socket (going away) and the server. */
  close(): void {
    for (const client of this.server.clients) client.close(1001, 'server shutting down');
    this.server.close();
  }

  private serve(ws: WebSocket, path: string): void {
    ws.on('error', () => ws.terminate());
    const kind = STREAM_PATHS[path];
    if (kind) this.assetStream(ws, kind);
    else if (path === QGPT_STREAM_PATH) this.qgptStream(ws);
    else this.healthStream(ws);
  }

  private send(ws: WebSocket, text: string): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      ws.close(1008, 'too slow: frames piled up unread');
      return;
    }
    ws.send(text);
  }

  private assetStream(ws: WebSocket, kind: StreamKind): void {
    const sync = new StreamSync({
      kind,
      transport: {
        snapshot: () => this.services.streamSnapshot(kind),
        since: (seq) => this.services.streamChanges(kind, seq),
      },
      emit: (frame) => this.send(ws, JSON.stringify(frame)),
      fail: (error) => {
        console.error(`stream ${kind}: the library cannot be read`, error);
        ws.close(1011, 'the library cannot be read');
      },
    });
    // Listen first: every change committed after the snapshot's read then reaches the sync.
    const unsubscribe = this.ctx.feed.subscribe((event) => sync.onEvent(event));
    ws.on('close', () => {
      unsubscribe();
      sync.close();
    });
    sync.start().catch((error: unknown) => {
      console.error(`stream ${kind}: no snapshot`, error);
      ws.close(1011, 'the library cannot be read');
    });
  }

  private qgptStream(ws: WebSocket): void {
    const closed = new AbortController();
    // Each connection is its own socket: a reset or stop on it ends only what it asked for.
    const socket = this.ctx.newId();
    ws.on('close', () => closed.abort());
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      void (async () => {
        for await (const frame of this.services.answerStream(text, { socket, closed: closed.signal })) this.send(ws, JSON.stringify(frame));
      })().catch((error: unknown) => console.error('qgpt stream: an exchange failed', error));
    });
  }

  private healthStream(ws: WebSocket): void {
    this.options.health().then(
      (text) => this.send(ws, text),
      () => ws.close(1011, 'unhealthy'),
    );
  }
}

function refuse(socket: Duplex, error: ApiError): void {
  endWithError(socket, error.status, error.code, error.message);
}

/** Answers on a raw socket (no request or response object: an upgrade, a request Node's parser refused) with the JSON error body of every error, and closes it. */
export function endWithError(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { status, code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
