import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import {
  QGPTHintsInputSchema,
  QGPTPersonsRelatedInputSchema,
  QGPTQuestionInputSchema,
  QGPTRelevanceInputSchema,
  QGPTRepromptInputSchema,
} from '../model/schemas.ts';
import { hints } from '../qgpt/answer/hints.ts';
import { personsRelated } from '../qgpt/persons.ts';
import { question } from '../qgpt/answer/question.ts';
import { MAX_RELEVANT, relevance } from '../qgpt/relevance.ts';
import { reprompt } from '../qgpt/answer/reprompt.ts';
import { queryCount, queryFlag, readBody, requireBody } from './http.ts';

/**
 * The question-answering operations under `/qgpt` (the stream is in routes/streams.ts). Relevance takes
 * Tessera's own `?limit=` (1..100, default 10): how many snippets to answer.
 */
export function qgptRoutes(ctx: ServiceContext) {
  const app = new Hono();
  app.post('/relevance', async (c) => {
    const limit = queryCount(c, 'limit', MAX_RELEVANT);
    const input = await requireBody(c, QGPTRelevanceInputSchema, ctx.maxBodyBytes, 'QGPTRelevanceInput');
    return c.json(await relevance(ctx, input, limit === undefined ? {} : { limit }));
  });
  app.post('/question', async (c) => {
    const input = await requireBody(c, QGPTQuestionInputSchema, ctx.maxBodyBytes, 'QGPTQuestionInput');
    // A client that goes away stops the answer (and the chat endpoint's request) instead of leaving it running.
    return c.json(await question(ctx, input, { signal: c.req.raw.signal }));
  });
  app.post('/reprompt', async (c) =>
    c.json(await reprompt(ctx, await requireBody(c, QGPTRepromptInputSchema, ctx.maxBodyBytes, 'QGPTRepromptInput'))),
  );
  app.post('/hints', async (c) => c.json(await hints(ctx, await requireBody(c, QGPTHintsInputSchema, ctx.maxBodyBytes, 'QGPTHintsInput'))));
  app.post('/persons/related', async (c) => {
    const input = (await readBody(c, QGPTPersonsRelatedInputSchema, ctx.maxBodyBytes)) ?? {};
    return c.json(await personsRelated(ctx, input, { transferables: queryFlag(c, 'transferables', true) }));
  });
  return app;
}
