import { Hono } from 'hono';
import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';

/** Search and discovery under `/assets`: search, related, recommended. */
export function searchRoutes(_ctx: Context) {
  const app = new Hono();
  app.on(['GET', 'POST'], '/search', notYet('Asset search'));
  app.on(['GET', 'POST'], '/related', notYet('Related assets'));
  app.on(['GET', 'POST'], '/recommended', notYet('Recommended assets'));
  return app;
}
