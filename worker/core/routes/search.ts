import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import * as z from 'zod';
import type { ServiceContext } from '../deps.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { AssetSchema, AssetsSearchWithFiltersInputSchema, InteractedAssetsSchema } from '../model/schemas.ts';
import { recommendedAssets, relatedAssets } from '../search/discover.ts';
import { MAX_PAGE_SIZE, searchAssets, searchWithFilters, type SearchTiming } from '../search/service.ts';
import { queryCount, queryFlag, queryNumber, readBody } from './http.ts';

/** The response header of a search: how many results there are in all, of which one page is answered. */
export const TOTAL_HEADER = 'tessera-total';

/**
 * Related and recommended inputs name assets the client holds. Only `id` is required here (with the
 * other fields checked when present), so a client may send `{"iterable": [{"id": …}]}` as well as full assets.
 */
const AssetInputSchema = lazySchema(() => AssetSchema.partial().required({ id: true }));
const RelatedInputSchema = lazySchema(() => z.object({ iterable: z.array(AssetInputSchema) }));
const RecommendationInputSchema = lazySchema(() => z.object({ assets: RelatedInputSchema, interactions: InteractedAssetsSchema }));

/**
 * Search and discovery under `/assets`.
 *
 * - `GET /search?query=…&searchable_tags=a,b&transferables&pseudo` -> SearchedAssets (500 without query and tags).
 * - `POST /search?transferables&pseudo` with AssetsSearchWithFiltersInput -> `{results: SearchedAssets}`.
 * - Both answer one page of their results: `?limit=` (1..1000, default 100) after `?offset=` (default 0),
 *   with the number of results in all in the `tessera-total` header. A ranked query has at most 50; a
 *   tag-only or filter-only listing can match the whole library.
 * - `/related` (Assets) and `/recommended` (SeededAssetsRecommendation): GET with a JSON body, POST with the
 *   same body (fetch cannot send a body on GET; with the SDK pass `{method: 'POST'}` as the call's second
 *   argument), or GET without a body, which takes the user's recent activity as the input.
 *
 * The searches answer a `Server-Timing` header, in milliseconds: `load` (first search of a worker: restoring
 * the saved index or rebuilding it), `catchup` (applying the change log), `rank` (query analysis, filters,
 * ranking) and `assets` (reading the results).
 */
export function searchRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const options = (c: HonoContext, timing: SearchTiming) => ({
    transferables: queryFlag(c, 'transferables', true),
    pseudo: queryFlag(c, 'pseudo', false),
    timing,
    page: { limit: queryCount(c, 'limit', MAX_PAGE_SIZE), offset: queryNumber(c, 'offset') },
    onTotal: (total: number) => c.header(TOTAL_HEADER, String(total)),
  });

  app.get('/search', async (c) => {
    const timing: SearchTiming = {};
    const params = { query: c.req.query('query'), tags: c.req.query('searchable_tags')?.split(',') };
    const result = await searchAssets(ctx, params, options(c, timing));
    c.header('Server-Timing', serverTiming(timing));
    return c.json(result);
  });
  app.post('/search', async (c) => {
    const timing: SearchTiming = {};
    const opts = options(c, timing);
    const input = await readBody(c, AssetsSearchWithFiltersInputSchema, ctx.maxBodyBytes);
    const result = await searchWithFilters(ctx, input, opts);
    c.header('Server-Timing', serverTiming(timing));
    return c.json(result);
  });
  app.on(['GET', 'POST'], '/related', async (c) => c.json(await relatedAssets(ctx, await readBody(c, RelatedInputSchema, ctx.maxBodyBytes))));
  app.on(['GET', 'POST'], '/recommended', async (c) =>
    c.json(await recommendedAssets(ctx, await readBody(c, RecommendationInputSchema, ctx.maxBodyBytes))),
  );
  return app;
}

function serverTiming(timing: SearchTiming): string {
  return Object.entries({ load: timing.load, catchup: timing.catchUp, rank: timing.rank, assets: timing.assets })
    .filter(([, ms]) => ms !== undefined)
    .map(([name, ms]) => `${name};dur=${ms!.toFixed(3)}`)
    .join(', ');
}
