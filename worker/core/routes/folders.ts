import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { keyed, noContent } from './idempotent.ts';

/**
 * `/folders`: Tessera's own API over the folders granted for `/qgpt/relevance` paths (qgpt/files/folders.ts).
 * GET `/folders` -> `{iterable: [{name, path, created}]}`; DELETE `/folders/{name}` -> 204 (404 when no
 * folder has that name). Registering needs a handle, which HTTP cannot carry: `registerFolder()` in
 * app/client/folders.ts (the RPC path).
 */
export function folderRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.get('/', async (c) => c.json(await services.listFolders()));
  app.delete('/:name', keyed(ctx, noContent, async (c, services) => services.removeFolder(c.req.param('name')!)));
  return app;
}
