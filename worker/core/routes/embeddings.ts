import { Hono } from 'hono/quick';
import * as z from 'zod';
import type { ServiceContext } from '../deps.ts';
import { describeEmbedder } from '../embed/embedder.ts';
import { ApiError } from '../errors.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { vectorIndexFor } from '../qgpt/vectors/snippet-vectors.ts';
import { requireBody } from './http.ts';

/** The most texts one POST may embed; more is a 422 (embed them in several calls). */
export const MAX_TEXTS_PER_CALL = 1024;

const EmbedRequestSchema = lazySchema(() => z.object({ texts: z.array(z.string()).max(MAX_TEXTS_PER_CALL) }));

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
 *   far the library's snippet vectors are (qgpt/vectors/snippet-vectors.ts); after a change of embedder `pending` counts
 *   down while everything is re-embedded. POST `/embeddings/library` starts bringing them up to date in
 *   the background and answers 202 with the progress (relevance does it too, before it answers).
 */
export function embeddingRoutes(ctx: ServiceContext) {
  const app = new Hono();
  app.get('/', async (c) => {
    await ctx.embedder.ready?.();
    return c.json(describeEmbedder(ctx.embedder));
  });
  app.post('/', async (c) => {
    const started = performance.now();
    const { texts } = await requireBody(c, EmbedRequestSchema, ctx.maxBodyBytes, '{texts: string[]}');
    const read = performance.now();
    let vectors: Float32Array[];
    try {
      vectors = await ctx.embedder.embed(texts);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ApiError(503, 'embedder_unavailable', `The embedder ${ctx.embedder.id} failed: ${message}`);
    }
    const embedded = performance.now();
    await ctx.embedder.ready?.(); // settled by embed(); id and dimensions are readable
    const body = JSON.stringify({ embedder: ctx.embedder.id, dimensions: ctx.embedder.dimensions, vectors: vectors.map((v) => Array.from(v)) });
    // Where the time went, for people and benchmarks (shown by browsers' devtools too).
    const timing = `read;dur=${(read - started).toFixed(1)}, embed;dur=${(embedded - read).toFixed(1)}, json;dur=${(performance.now() - embedded).toFixed(1)}`;
    return c.body(body, 200, { 'content-type': 'application/json', 'server-timing': timing });
  });
  app.get('/library', (c) => c.json(vectorIndexFor(ctx).progress));
  app.post('/library', (c) => {
    const vectors = vectorIndexFor(ctx);
    vectors.current().catch((error) => console.error('embeddings: bringing the library vectors up to date failed', error));
    return c.json(vectors.progress, 202);
  });
  return app;
}
