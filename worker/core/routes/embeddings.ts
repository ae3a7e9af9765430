import { Hono } from 'hono/quick';
import * as z from 'zod';
import type { Context } from '../deps.ts';
import { resetEmbedder } from '../embed/configured.ts';
import { describeEmbedder, embedTagged } from '../embed/embedder.ts';
import { EmbeddingEndpointError, EndpointEmbedder } from '../embed/endpoint.ts';
import { clearEmbeddingSettings, EmbeddingSettingsSchema, readEmbeddingSettings, writeEmbeddingSettings } from '../embed/endpoint-settings.ts';
import { publicSettings } from '../qgpt/settings.ts';
import { json, keyed } from './idempotent.ts';
import { ApiError } from '../errors.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { vectorIndexFor } from '../qgpt/vectors.ts';
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
 *   far the library's snippet vectors are (qgpt/vectors.ts); after a change of embedder `pending` counts
 *   down while everything is re-embedded. POST `/embeddings/library` starts bringing them up to date in
 *   the background and answers 202 with the progress (relevance does it too, before it answers).
 * - `/embeddings/settings`: an OpenAI-compatible embeddings endpoint (`<url>/embeddings`) to embed with
 *   instead of the built-in embedder, like `/qgpt/settings` for answers: GET, PUT `{url, model, apiKey?,
 *   enabled?}` (the key never answered back, only over https or to this machine), DELETE, and POST
 *   `/test` -> `{ok, message}`. While the endpoint fails the built-in embedder answers (GET `/embeddings`
 *   says why, under `endpoint`); a change of either re-embeds the library.
 */
const TEST_TIMEOUT_MS = 10_000;
export function embeddingRoutes(ctx: Context) {
  const app = new Hono();
  app.get('/', async (c) => {
    await ctx.embedder.ready?.();
    return c.json(describeEmbedder(ctx.embedder));
  });
  app.post('/', async (c) => {
    const started = performance.now();
    const { texts } = await requireBody(c, EmbedRequestSchema, ctx.maxBodyBytes, '{texts: string[]}');
    const read = performance.now();
    let tagged: { embedder: string; vectors: Float32Array[] };
    try {
      tagged = await embedTagged(ctx.embedder, texts);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ApiError(503, 'embedder_unavailable', `The embedder ${ctx.embedder.id} failed: ${message}`);
    }
    const embedded = performance.now();
    const { embedder, vectors } = tagged;
    const body = JSON.stringify({ embedder, dimensions: vectors[0]?.length ?? ctx.embedder.dimensions, vectors: vectors.map((v) => Array.from(v)) });
    // Where the time went, for people and benchmarks (shown by browsers' devtools too).
    const timing = `read;dur=${(read - started).toFixed(1)}, embed;dur=${(embedded - read).toFixed(1)}, json;dur=${(performance.now() - embedded).toFixed(1)}`;
    return c.body(body, 200, { 'content-type': 'application/json', 'server-timing': timing });
  });
  app.get('/settings', async (c) => c.json(publicSettings(await readEmbeddingSettings(ctx.store))));
  app.put(
    '/settings',
    keyed(ctx, json, async (c, ctx) => {
      const saved = await writeEmbeddingSettings(ctx, await requireBody(c, EmbeddingSettingsSchema, ctx.maxBodyBytes, '{url, model, apiKey?, enabled?}'));
      resetEmbedder(ctx.embedder);
      return saved;
    }),
  );
  app.delete(
    '/settings',
    keyed(ctx, json, async (_c, ctx) => {
      const cleared = await clearEmbeddingSettings(ctx);
      resetEmbedder(ctx.embedder);
      return cleared;
    }),
  );
  app.post('/settings/test', async (c) => {
    const settings = await readEmbeddingSettings(ctx.store);
    if (!settings) return c.json({ ok: false, message: 'No embeddings endpoint is set.' });
    const started = performance.now();
    try {
      const [vector] = await new EndpointEmbedder(settings, ctx.fetch, TEST_TIMEOUT_MS).embed(['def ok(): return True']);
      resetEmbedder(ctx.embedder);
      return c.json({ ok: true, message: `Connected: ${settings.model} at ${settings.url} answered a ${vector!.length}-dimension vector in ${Math.round(performance.now() - started)} ms.` });
    } catch (error) {
      if (!(error instanceof EmbeddingEndpointError)) throw error;
      return c.json({ ok: false, message: `${settings.url} did not answer: ${error.reason}` });
    }
  });
  app.get('/library', (c) => c.json(vectorIndexFor(ctx).progress));
  app.post('/library', (c) => {
    const vectors = vectorIndexFor(ctx);
    vectors.current().catch((error) => console.error('embeddings: bringing the library vectors up to date failed', error));
    return c.json(vectors.progress, 202);
  });
  return app;
}
