import type { Context as HonoContext } from 'hono';
import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices, type SearchObserver } from '../services.ts';
import { queryFlag, queryNumber, readJson, serverTiming } from './http.ts';

/** The response header of a search: how many results there are in all, of which one page is answered. */
export const TOTAL_HEADER = 'tessera-total';

/**
 * Search and discovery under `/assets`.
 *
 * - `GET /search?query=…&searchable_tags=a,b&transferables&pseudo` -> SearchedAssets (500 without query and tags);
 *   `&assets=false` (Tessera's own) answers the hits without their assets.
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
  const services = createServices(ctx);
  const body = (c: HonoContext) => readJson(c, ctx.maxBodyBytes);
  const options = (c: HonoContext) => ({
    transferables: queryFlag(c, 'transferables', true),
    pseudo: queryFlag(c, 'pseudo', false),
    assets: queryFlag(c, 'assets', true),
    limit: queryNumber(c, 'limit'),
    offset: queryNumber(c, 'offset'),
  });
  /** Answers the search's figures as headers. */
  const observer = (c: HonoContext): Required<SearchObserver> => ({ timing: {}, onTotal: (total) => c.header(TOTAL_HEADER, String(total)) });

  app.get('/search', async (c) => {
    const params = { query: c.req.query('query'), tags: c.req.query('searchable_tags')?.split(',') };
    const seen = observer(c);
    const result = await services.searchAssets(params, options(c), seen);
    c.header('Server-Timing', searchTiming(seen.timing));
    return c.json(result);
  });
  app.post('/search', async (c) => {
    const opts = options(c);
    const seen = observer(c);
    const result = await services.searchWithFilters(await body(c), opts, seen);
    c.header('Server-Timing', searchTiming(seen.timing));
    return c.json(result);
  });
  app.on(['GET', 'POST'], '/related', async (c) => c.json(await services.relatedAssets(await body(c))));
  app.on(['GET', 'POST'], '/recommended', async (c) => c.json(await services.recommendedAssets(await body(c))));
  return app;
}

const searchTiming = (timing: Required<SearchObserver>['timing']) =>
  serverTiming({ wait: timing.wait, load: timing.load, catchup: timing.catchUp, rank: timing.rank, assets: timing.assets });
