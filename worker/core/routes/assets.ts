import { Hono } from 'hono/quick';
import { createAsset } from '../assets/create.ts';
import { draftSeed } from '../assets/draft.ts';
import { importAssets } from '../assets/import.ts';
import { getAssetBody, getFormats, listAssetsBody, listIdentifiers, pseudoSnapshot } from '../assets/read.ts';
import { deleteAsset } from '../assets/remove.ts';
import type { Context } from '../deps.ts';
import { SeedSchema, SeedsSchema } from '../model/schemas.ts';
import { suggestedAssets } from '../search/discover.ts';
import { queryFlag, readBody, requireBody } from './http.ts';
import { json, keyed, text } from './idempotent.ts';

/** The collection operations under `/assets`. */
export function assetsRoutes(ctx: Context) {
  const app = new Hono();
  const transferables = (c: Parameters<typeof queryFlag>[0]) => ({ transferables: queryFlag(c, 'transferables', true) });

  app.post('/create', keyed(ctx, json, async (c, ctx) => createAsset(ctx, await readBody(c, SeedSchema, ctx.maxBodyBytes), transferables(c))));
  app.post('/import', keyed(ctx, json, async (c, ctx) => importAssets(ctx, await requireBody(c, SeedsSchema, ctx.maxBodyBytes, 'Seeds'))));
  app.post('/draft', async (c) => {
    const seed = await readBody(c, SeedSchema, ctx.maxBodyBytes);
    return c.json(await draftSeed(ctx, seed));
  });
  app.get('/identifiers', async (c) => c.json(await listIdentifiers(ctx, { pseudo: queryFlag(c, 'pseudo', false) })));
  app.get('/pseudo', async (c) => c.json(await pseudoSnapshot(ctx)));

  app.get('/', async (c) => {
    const options = { ...transferables(c), pseudo: queryFlag(c, 'pseudo', false) };
    if (queryFlag(c, 'suggested', false)) return c.json(await suggestedAssets(ctx, options));
    return c.body(await listAssetsBody(ctx, options), 200, { 'content-type': 'application/json' });
  });
  app.get('/:asset', async (c) => c.body(await getAssetBody(ctx, c.req.param('asset'), transferables(c)), 200, { 'content-type': 'application/json' }));
  app.get('/:asset/formats', async (c) => c.json(await getFormats(ctx, c.req.param('asset'), transferables(c))));
  app.post('/:asset/delete', keyed(ctx, text, async (c, ctx) => deleteAsset(ctx, c.req.param('asset')!)));
  return app;
}
