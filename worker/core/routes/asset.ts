import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import { exportAsset, parseExportType } from '../assets/export.ts';
import { getActivities, getAsset, getAssetBody, getConversations, getFormats } from '../assets/read.ts';
import { incrementScores } from '../assets/scores.ts';
import { AssetUpdateSchema, reclassifyAsset, updateAsset } from '../assets/update.ts';
import type { Context } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { changeLink, linkKindOf } from '../links/associate.ts';
import { AssetReclassificationSchema, SeededAccessorSchema, SeededScoreIncrementSchema } from '../model/schemas.ts';
import { queryFlag, readBody, requireBody } from './http.ts';
import { json, keyed, noContent } from './idempotent.ts';



/** The single-asset operations under `/asset`. */
export function assetRoutes(ctx: Context) {
  const app = new Hono();
  const transferables = (c: HonoContext) => ({ transferables: queryFlag(c, 'transferables', true) });

  app.post(
    '/update',
    keyed(ctx, json, async (c, ctx) => updateAsset(ctx, await requireBody(c, AssetUpdateSchema, ctx.maxBodyBytes, 'Asset'), transferables(c))),
  );
  app.post(
    '/reclassify',
    keyed(ctx, json, async (c, ctx) =>
      reclassifyAsset(ctx, await requireBody(c, AssetReclassificationSchema, ctx.maxBodyBytes, 'AssetReclassification'), transferables(c)),
    ),
  );

  app.get('/:asset', async (c) => c.body(await getAssetBody(ctx, c.req.param('asset'), transferables(c)), 200, { 'content-type': 'application/json' }));
  app.post('/:asset', async (c) => {
    // The accessor says who reads; there is one local user, so it is checked and otherwise unused.
    await readBody(c, SeededAccessorSchema, ctx.maxBodyBytes);
    return c.json(await getAsset(ctx, c.req.param('asset'), transferables(c)));
  });
  app.get('/:asset/formats', async (c) => c.json(await getFormats(ctx, c.req.param('asset'), transferables(c))));
  app.get('/:asset/activities', async (c) => c.json(await getActivities(ctx, c.req.param('asset'))));
  app.get('/:asset/conversations', async (c) => c.json(await getConversations(ctx, c.req.param('asset'))));
  app.get('/:asset/export', async (c) => {
    const type = parseExportType(c.req.query('export_type'));
    return c.json(await exportAsset(ctx, c.req.param('asset'), type));
  });
  app.post(
    '/:asset/scores/increment',
    keyed(ctx, noContent, async (c, ctx) => incrementScores(ctx, c.req.param('asset')!, await readBody(c, SeededScoreIncrementSchema, ctx.maxBodyBytes))),
  );
  app.post(
    '/:asset/:kind/:action{associate|disassociate}/:id',
    keyed(ctx, noContent, async (c, ctx) => {
      const kind = linkKindOf(c.req.param('kind'));
      if (!kind) throw badRequest(`Cannot associate '${c.req.param('kind')}'; use tags, websites or workstream_summaries.`);
      await changeLink(ctx, kind, c.req.param('asset')!, c.req.param('id')!, c.req.param('action') === 'associate');
    }),
  );
  return app;
}
