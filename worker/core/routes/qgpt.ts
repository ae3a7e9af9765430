import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { queryFlag, queryNumber, readJson } from './http.ts';

/**
 * The question-answering operations under `/qgpt` (the stream is in routes/streams.ts). Relevance takes
 * Tessera's own `?limit=` (1..100, default 10): how many snippets to answer.
 */
export function qgptRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  const body = (c: HonoContext) => readJson(c, ctx.maxBodyBytes);
  app.post('/relevance', async (c) => {
    const limit = queryNumber(c, 'limit');
    return c.json(await services.relevance(await body(c), { limit }));
  });
  // A client that goes away stops the answer (and the chat endpoint's request) instead of leaving it running.
  app.post('/question', async (c) => c.json(await services.question(await body(c), { signal: c.req.raw.signal })));
  app.post('/reprompt', async (c) => c.json(await services.reprompt(await body(c))));
  app.post('/hints', async (c) => c.json(await services.hints(await body(c))));
  app.post('/persons/related', async (c) => {
    const input = await body(c);
    return c.json(await services.personsRelated(input, { transferables: queryFlag(c, 'transferables', true) }));
  });
  return app;
}
