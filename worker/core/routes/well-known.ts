import { Hono } from 'hono/quick';

/**
 * The version of the desktop API Tessera is wire-compatible with. Clients range-check it
 * (the CLI wants 12.x), so it names the API, not Tessera's own release.
 */
export const API_VERSION = '12.0.0';

export function wellKnownRoutes() {
  const app = new Hono();
  // Hono answers HEAD with the GET handler minus the body, which the Python client's port scan needs.
  app.get('/health', (c) => c.text('ok'));
  app.get('/version', (c) => c.text(API_VERSION));
  return app;
}
