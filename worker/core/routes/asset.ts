import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices, type LinkPath } from '../services.ts';
import { jsonBytes, queryFlag, readJson } from './http.ts';
import { json, keyed, noContent } from './idempotent.ts';

/** The single-asset operations under `/asset`. */
export function assetRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  const transferables = (c: HonoContext) => ({ transferables: queryFlag(c, 'transferables', true) });
  const body = (c: HonoContext) => readJson(c, ctx.maxBodyBytes);

  app.post('/update', keyed(ctx, json, async (c, services) => services.updateAsset(await body(c), transferables(c))));
  app.post('/reclassify', keyed(ctx, json, async (c, services) => services.reclassifyAsset(await body(c), transferables(c))));

  app.get('/:asset', async (c) => jsonBytes(c, await services.getAssetBody(c.req.param('asset'), transferables(c))));
  // The accessor says who reads; there is one local user, so it is checked and otherwise unused.
  app.post('/:asset', async (c) => {
    const accessor = await body(c);
    return c.json(await services.getAsset(c.req.param('asset'), { ...transferables(c), accessor }));
  });
  app.get('/:asset/formats', async (c) => c.json(await services.getFormats(c.req.param('asset'), transferables(c))));
  app.get('/:asset/activities', async (c) => c.json(await services.getActivities(c.req.param('asset'))));
  app.get('/:asset/conversations', async (c) => c.json(await services.getConversations(c.req.param('asset'))));
  // A GET that records an export activity: keyed like the writes, so a fetch re-dispatched after a worker stop logs it once.
  app.get('/:asset/export', keyed(ctx, json, async (c, services) => services.exportAsset(c.req.param('asset')!, c.req.query('export_type'))));
  app.post(
    '/:asset/scores/increment',
    keyed(ctx, noContent, async (c, services) => services.incrementScores(c.req.param('asset')!, await body(c))),
  );
  app.post(
    '/:asset/:kind/:action{associate|disassociate}/:id',
    keyed(ctx, noContent, async (c, services) => {
      const change = c.req.param('action') === 'associate' ? services.associate : services.disassociate;
      await change(c.req.param('kind') as LinkPath, c.req.param('asset')!, c.req.param('id')!);
    }),
  );
  return app;
}
