import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { createServices } from '../services.ts';
import { jsonBytes, queryFlag, queryNumber } from './http.ts';

/**
 * `/library`: Tessera's own API for list views (not part of the desktop API).
 *
 * - GET `/library?pseudo=&first=` -> `{rows: [{id, name, language, generic, tags, websites, created,
 *   updated, usage}], total}`: every asset, newest update first, from the search index's metadata (no
 *   asset is read, so 10,000 rows cost about what one search does). Tags and websites are lower-case.
 *   `first=N`: only the first N rows (`total` still counts all), for a list's first screen.
 * - GET `/library/previews?ids=a,b,c` (at most 100) -> `{previews: {<id>: "first lines"}}`: the first
 *   lines of each asset's original text; unknown ids and images are left out.
 */
export function libraryRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.get('/', async (c) => {
    const first = queryNumber(c, 'first');
    const options = { pseudo: queryFlag(c, 'pseudo', false), ...(first === undefined ? {} : { first }) };
    return jsonBytes(c, await services.listLibraryRowsBody(options));
  });
  app.get('/previews', async (c) => {
    const ids = c.req.query('ids');
    if (ids === undefined || ids.trim() === '') throw badRequest("Query parameter 'ids' must list asset ids, comma-separated.", 'invalid_parameter');
    return c.json(await services.libraryPreviews(ids.split(',').map((s) => s.trim()).filter((s) => s !== '')));
  });
  return app;
}
