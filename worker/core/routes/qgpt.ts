import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices, type RelevanceTiming } from '../services.ts';
import { queryFlag, queryNumber, readJson, serverTiming } from './http.ts';

/**
 * The question-answering operations under `/qgpt` (the stream is in routes/streams.ts). Relevance takes
 * Tessera's own `?limit=` (1..100, default 10): how many snippets to answer, and answers a `Server-Timing`
 * header in milliseconds: `load`, `rank`, `texts` and `store` (qgpt/rank.ts, RelevanceTiming).
 */
export function qgptRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  const body = (c: HonoContext) => readJson(c, ctx.maxBodyBytes);
  app.post('/relevance', async (c) => {
    const limit = queryNumber(c, 'limit');
    const timing: RelevanceTiming = {};
    const answer = await services.relevance(await body(c), { limit, timing });
    c.header('Server-Timing', serverTiming({ load: timing.load, rank: timing.rank, texts: timing.texts, store: timing.store }));
    return c.json(answer);
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
