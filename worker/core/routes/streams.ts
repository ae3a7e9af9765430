import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { createServices } from '../services.ts';
import { SEQ_HEADER, SINCE_PARAM, SOCKET_HEADER, type StreamKind } from '../streams/protocol.ts';
import { readText } from './http.ts';

/**
 * The change streams under `/assets/stream` over HTTP (see streams/protocol.ts; the page-side socket in
 * app/client is built on these): `GET` answers the snapshot frame with its seq in `tessera-seq`;
 * `GET ?since=<seq>` the changes after it.
 */
export function streamRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  const stream = (kind: StreamKind) => async (c: HonoContext) => {
    const since = c.req.query(SINCE_PARAM);
    if (since !== undefined) return c.json(await services.streamChanges(kind, parseSeq(since)));
    const { seq, frame } = await services.streamSnapshot(kind);
    c.header(SEQ_HEADER, String(seq));
    c.header('cache-control', 'no-store');
    return c.json(frame);
  };
  app.get('/stream', stream('assets'));
  app.get('/stream/identifiers', stream('identifiers'));
  app.get('/stream/transferables', stream('transferables'));
  return app;
}

/**
 * `POST /qgpt/stream`: one input frame in the body; the output frames back as NDJSON, one per line, each
 * sent as soon as it is produced. The exchange is driven here, not by the reader's pace, so it runs (and a
 * stop or reset of it is answered) whether or not the client is reading. When the client goes away (its
 * socket closed) the request is ended and run to its end unread, so what it produced is still stored.
 *
 * The frame is registered (a question's exchange is running, a reset or stop has begun) before the
 * response's headers go out: a client that sends its next frame once it has them (the page's socket does)
 * keeps its frames in order. The `tessera-socket` header (at most 100 characters) names the socket, the
 * scope of a `{reset: true}`.
 */
export function qgptStreamRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.post('/stream', async (c) => {
    const socket = c.req.header(SOCKET_HEADER);
    const text = await readText(c.req.raw, ctx.maxBodyBytes);
    const encoder = new TextEncoder();
    const closed = new AbortController();
    const frames = services.answerStream(text, { socket, closed: closed.signal });
    // Runs the generator up to its first frame now, which registers the exchange (see answerStream).
    const first = frames.next();
    first.catch(() => {}); // read below; an error ends the body
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        void (async () => {
          try {
            for (let step = await first; !step.done; step = await frames.next()) {
              if (!closed.signal.aborted) controller.enqueue(encoder.encode(`${JSON.stringify(step.value)}\n`));
            }
            if (!closed.signal.aborted) controller.close();
          } catch (error) {
            if (!closed.signal.aborted) controller.error(error);
          }
        })();
      },
      cancel() {
        closed.abort();
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' } });
  });
  return app;
}

/** `since`, present even when empty, must be a sequence number. */
function parseSeq(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw badRequest(`Query parameter '${SINCE_PARAM}' must be a sequence number; got '${text}'.`, 'invalid_parameter');
  return Number(text);
}
