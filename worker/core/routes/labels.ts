import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createSummary, createTag, createWebsite, listSummaries, listTags, listWebsites } from '../links/labels.ts';
import { SeededTagSchema, SeededWebsiteSchema, SeededWorkstreamSummarySchema } from '../model/schemas.ts';
import { requireBody } from './http.ts';
import { json, keyed } from './idempotent.ts';

/** `/tags`, `/websites` and `/workstream_summaries`: what assets link to. */
export function labelRoutes(ctx: ServiceContext) {
  const app = new Hono();
  app.post('/tags/create', keyed(ctx, json, async (c, ctx) => createTag(ctx, await requireBody(c, SeededTagSchema, ctx.maxBodyBytes, 'SeededTag'))));
  app.get('/tags', async (c) => c.json(await listTags(ctx)));
  app.post(
    '/websites/create',
    keyed(ctx, json, async (c, ctx) => createWebsite(ctx, await requireBody(c, SeededWebsiteSchema, ctx.maxBodyBytes, 'SeededWebsite'))),
  );
  app.get('/websites', async (c) => c.json(await listWebsites(ctx)));
  app.post(
    '/workstream_summaries/create',
    keyed(ctx, json, async (c, ctx) =>
      createSummary(ctx, await requireBody(c, SeededWorkstreamSummarySchema, ctx.maxBodyBytes, 'SeededWorkstreamSummary')),
    ),
  );
  app.get('/workstream_summaries', async (c) => c.json(await listSummaries(ctx)));
  return app;
}
