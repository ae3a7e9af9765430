import { Hono } from 'hono';
import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';

/** The change streams under `/assets/stream`. */
export function streamRoutes(_ctx: Context) {
  const app = new Hono();
  app.get('/stream', notYet('The asset stream'));
  app.get('/stream/*', notYet('The asset stream'));
  return app;
}
