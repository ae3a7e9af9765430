/**
 * A small OpenAI-compatible chat-completions server on localhost for the tests: POST `/v1/chat/completions`
 * answers the configured reply as a server-sent event stream (`data: {"choices":[{"delta":{"content"}}]}`
 * chunks, then `data: [DONE]`), or fails the way `mode` says. POST `/v1/embeddings` answers `{data:
 * [{index, embedding}]}` with a word-count vector of EMBEDDING_DIMENSIONS for each input (`standInVector`),
 * or fails the way `mode` says (`close-mid-stream` drops the connection, `malformed` answers one vector
 * too few). Every request is recorded (headers and parsed
 * body). CORS is open (`access-control-allow-origin: *`, preflight answered) so a service worker on another
 * localhost port may call it.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ChatServerMode =
  /** Streams `reply` in `chunks`, then [DONE]. */
  | 'ok'
  /** Answers 500 with a JSON error. */
  | 'error500'
  /** Streams the first chunk, then destroys the connection. */
  | 'close-mid-stream'
  /** Streams a line that is not JSON. */
  | 'malformed'
  /** Sends headers, then nothing (for timeouts). */
  | 'silent';

export interface RecordedChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface ChatServer {
  /** The API base to configure, `http://127.0.0.1:<port>/v1`. */
  url: string;
  port: number;
  requests: RecordedChatRequest[];
  mode: ChatServerMode;
  /** The answer text, streamed in pieces of about `chunkSize` characters. */
  reply: string;
  chunkSize: number;
  /** Milliseconds between chunks. */
  delayMs: number;
  /** How many answer chunks it has written so far (all requests). */
  chunksSent: number;
  /** Chat requests whose client closed the connection before the answer ended. */
  abandoned: number;
  close(): Promise<void>;
}

export async function startChatServer(options: Partial<Pick<ChatServer, 'mode' | 'reply' | 'chunkSize' | 'delayMs'>> = {}): Promise<ChatServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state = {
    requests: [] as RecordedChatRequest[],
    mode: options.mode ?? ('ok' as ChatServerMode),
    reply: options.reply ?? 'The answer is in [1].',
    chunkSize: options.chunkSize ?? 8,
    delayMs: options.delayMs ?? 5,
    chunksSent: 0,
    abandoned: 0,
  };
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'content-type, authorization, accept',
    'access-control-allow-methods': 'POST, OPTIONS',
  };
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    state.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      await answerEmbeddings(state.mode, body, res, cors);
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    if (state.mode === 'error500') {
      res.writeHead(500, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model crashed' } }));
      return;
    }
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    res.on('close', () => {
      if (!res.writableEnded) state.abandoned++;
    });
    if (state.mode === 'silent') return;
    if (state.mode === 'malformed') {
      res.end('data: {not json\n\n');
      return;
    }
    const pieces = chunk(state.reply, state.chunkSize);
    for (let i = 0; i < pieces.length; i++) {
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: body?.model, choices: [{ index: 0, delta: { content: pieces[i] }, finish_reason: null }] })}\n\n`);
      state.chunksSent++;
      if (state.mode === 'close-mid-stream') {
        await sleep(state.delayMs);
        res.destroy();
        return;
      }
      await sleep(state.delayMs);
    }
    res.write(`data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const handle = state as typeof state & ChatServer;
  handle.url = `http://127.0.0.1:${port}/v1`;
  handle.port = port;
  handle.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return handle;
}

export const EMBEDDING_DIMENSIONS = 16;

/** The stand-in's vector of a text: its lower-cased words counted into EMBEDDING_DIMENSIONS buckets (unnormalised). */
export function standInVector(text: string): number[] {
  const vector: number[] = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 7;
    for (const c of word) h = (h * 31 + c.charCodeAt(0)) % 1_000_003;
    vector[h % EMBEDDING_DIMENSIONS]! += 1;
  }
  if (!vector.some((x) => x > 0)) vector[0] = 1;
  return vector;
}

async function answerEmbeddings(mode: ChatServerMode, body: any, res: ServerResponse, cors: Record<string, string>) {
  if (mode === 'error500') {
    res.writeHead(500, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model crashed' } }));
    return;
  }
  if (mode === 'close-mid-stream') {
    res.destroy();
    return;
  }
  res.writeHead(200, { ...cors, 'content-type': 'application/json' });
  if (mode === 'silent') {
    res.flushHeaders();
    return;
  }
  const input: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? '')];
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: standInVector(text) }));
  res.end(JSON.stringify({ object: 'list', model: body?.model, data: mode === 'malformed' ? data.slice(1) : data }));
}

function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `startChatServer` for one test file: the servers it starts are closed after each test. `afterEach` is
 * the framework's hook (vitest's `afterEach`, or `(fn) => test.afterEach(fn)` in Playwright).
 */
export function chatServersPerTest(afterEach: (hook: () => Promise<void>) => void): typeof startChatServer {
  const servers: ChatServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (options) => {
    const server = await startChatServer(options);
    servers.push(server);
    return server;
  };
}

/** Makes `server` the answerer's endpoint (`PUT /qgpt/settings` through a checked `call`, paths under the API root); throws unless it is stored. */
export async function configureChatEndpoint(
  api: { call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> },
  server: Pick<ChatServer, 'url'>,
  extra: { model?: string; apiKey?: string; enabled?: boolean } = {},
): Promise<void> {
  const reply = await api.call('PUT', '/qgpt/settings', { url: server.url, model: 'test-model', ...extra });
  if (reply.status !== 200) throw new Error(`PUT /qgpt/settings answered ${reply.status}: ${reply.text}`);
}
