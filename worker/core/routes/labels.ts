import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { readJson } from './http.ts';
import { json, keyed } from './idempotent.ts';

/** `/tags`, `/websites` and `/workstream_summaries`: what assets link to. */
export function labelRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  const body = (c: Parameters<typeof readJson>[0]) => readJson(c, ctx.maxBodyBytes);
  app.post('/tags/create', keyed(ctx, json, async (c, services) => services.createTag(await body(c))));
  app.get('/tags', async (c) => c.json(await services.listTags()));
  app.post('/websites/create', keyed(ctx, json, async (c, services) => services.createWebsite(await body(c))));
  app.get('/websites', async (c) => c.json(await services.listWebsites()));
  app.post('/workstream_summaries/create', keyed(ctx, json, async (c, services) => services.createSummary(await body(c))));
  app.get('/workstream_summaries', async (c) => c.json(await services.listSummaries()));
  return app;
}
