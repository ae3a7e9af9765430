import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { readJson } from './http.ts';
import { json, keyed } from './idempotent.ts';

/**
 * `/embeddings`: Tessera's own API (not part of the desktop API) to see and try the active embedder.
 *
 * - GET `/embeddings` -> EmbedderInfo `{id, dimensions, kind: 'hashing'|'transformers', status:
 *   'ready'|'available'|'loading'|'failed', reason, error?, stats?}`: which embedder is active and why
 *   (model files found or not), whether its model has loaded, and inference figures (texts, batches,
 *   ms, the longest single inference slice).
 * - POST `/embeddings` `{texts: string[]}` (at most 1024) -> `{embedder, dimensions, vectors:
 *   number[][]}`, one L2-normalised vector per text, in order. Loads the model on first use; a model
 *   that fails to load is a 503 `embedder_unavailable` naming the reason.
 * - GET `/embeddings/library` -> EmbeddingProgress `{embedder, embedded, pending, snippets, running}`: how
 *   far the library's snippet vectors are (qgpt/vectors/snippet-vectors.ts); after a change of embedder
 *   `pending` counts down while everything is re-embedded. POST `/embeddings/library` starts bringing
 *   them up to date in the background and answers 202 with the progress (relevance does it too, before
 *   it answers).
 * - `/embeddings/settings`: an OpenAI-compatible embeddings endpoint (`<url>/embeddings`) to embed with
 *   instead of the built-in embedder, like `/qgpt/settings` for answers: GET, PUT `{url, model, apiKey?,
 *   enabled?}` (the key never answered back, only over https or to this machine), DELETE, and POST
 *   `/test` -> `{ok, message}`. While the endpoint fails the built-in embedder answers (GET `/embeddings`
 *   says why, under `endpoint`); a change of either re-embeds the library.
 */
export function embeddingRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.get('/', async (c) => c.json(await services.describeEmbedder()));
  app.post('/', async (c) => {
    const started = performance.now();
    const input = await readJson(c, ctx.maxBodyBytes);
    const read = performance.now();
    const embedded = await services.embed(input);
    const done = performance.now();
    const body = JSON.stringify(embedded);
    // Where the time went, for people and benchmarks (shown by browsers' devtools too).
    const timing = `read;dur=${(read - started).toFixed(1)}, embed;dur=${(done - read).toFixed(1)}, json;dur=${(performance.now() - done).toFixed(1)}`;
    return c.body(body, 200, { 'content-type': 'application/json', 'server-timing': timing });
  });
  app.get('/settings', async (c) => c.json(await services.embeddingSettings()));
  app.put('/settings', keyed(ctx, json, async (c, services) => services.saveEmbeddingSettings(await readJson(c, ctx.maxBodyBytes))));
  app.post('/settings/test', async (c) => c.json(await services.testEmbeddingSettings()));
  app.delete('/settings', keyed(ctx, json, async (_c, services) => services.clearEmbeddingSettings()));
  app.get('/library', async (c) => c.json(await services.embeddingProgress()));
  app.post('/library', async (c) => c.json(await services.refreshEmbeddings(), 202));
  return app;
}
