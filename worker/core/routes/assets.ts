import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { jsonBytes, queryFlag, readJson } from './http.ts';
import { json, keyed, text } from './idempotent.ts';

/** The collection operations under `/assets`. */
export function assetsRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  const transferables = (c: HonoContext) => ({ transferables: queryFlag(c, 'transferables', true) });
  const body = (c: HonoContext) => readJson(c, ctx.maxBodyBytes);

  app.post('/create', keyed(ctx, json, async (c, services) => services.createAsset(await body(c), transferables(c))));
  app.post('/import', keyed(ctx, json, async (c, services) => services.importAssets(await body(c))));
  app.post('/draft', async (c) => c.json(await services.draftSeed(await body(c))));
  app.get('/identifiers', async (c) => c.json(await services.listIdentifiers({ pseudo: queryFlag(c, 'pseudo', false) })));
  app.get('/pseudo', async (c) => c.json(await services.pseudoSnapshot()));

  app.get('/', async (c) => {
    const options = { ...transferables(c), pseudo: queryFlag(c, 'pseudo', false) };
    if (queryFlag(c, 'suggested', false)) return c.json(await services.suggestedAssets(options));
    return jsonBytes(c, await services.listAssetsBody(options));
  });
  app.get('/:asset', async (c) => jsonBytes(c, await services.getAssetBody(c.req.param('asset'), transferables(c))));
  app.get('/:asset/formats', async (c) => c.json(await services.getFormats(c.req.param('asset'), transferables(c))));
  app.post('/:asset/delete', keyed(ctx, text, async (c, services) => services.deleteAsset(c.req.param('asset')!)));
  return app;
}
