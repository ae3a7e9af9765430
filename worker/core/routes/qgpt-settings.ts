import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { readJson } from './http.ts';
import { json, keyed } from './idempotent.ts';

/**
 * `/qgpt/settings`: Tessera's own API (not part of the desktop API) for the chat-completions endpoint of
 * generative answers. The API key is never answered back, only `hasApiKey`.
 *
 * - GET -> `{configured: false}` or `{configured: true, url, model, enabled, hasApiKey}`.
 * - PUT `{url, model, apiKey?, enabled?}` replaces the settings (a PUT without `apiKey` leaves none) and
 *   answers as GET; a body that does not fit is a 422 (400 when it is not JSON).
 * - DELETE clears them (answers extractively again) and answers `{configured: false}`.
 * - POST `/test` asks the saved endpoint for a one-word completion (10 s at most) -> `{ok, message}`:
 *   whether it answered, or why not (the reason only: the endpoint's own error text is not repeated).
 */
export function qgptSettingsRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.get('/', async (c) => c.json(await services.chatSettings()));
  app.put('/', keyed(ctx, json, async (c, services) => services.saveChatSettings(await readJson(c, ctx.maxBodyBytes))));
  app.post('/test', async (c) => c.json(await services.testChatSettings({ signal: c.req.raw.signal })));
  app.delete('/', keyed(ctx, json, async (_c, services) => services.clearChatSettings()));
  return app;
}
