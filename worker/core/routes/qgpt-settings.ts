import { Hono } from 'hono/quick';
import type { Context } from '../deps.ts';
import { ChatSettingsSchema, clearChatSettings, publicSettings, readChatSettings, writeChatSettings } from '../qgpt/settings.ts';
import { requireBody } from './http.ts';

/**
 * `/qgpt/settings`: Tessera's own API (not part of the desktop API) for the chat-completions endpoint of
 * generative answers. The API key is never answered back, only `hasApiKey`.
 *
 * - GET -> `{configured: false}` or `{configured: true, url, model, enabled, hasApiKey}`.
 * - PUT `{url, model, apiKey?, enabled?}` replaces the settings (a PUT without `apiKey` leaves none) and
 *   answers as GET; a body that does not fit is a 422 (400 when it is not JSON).
 * - DELETE clears them (answers extractively again) and answers `{configured: false}`.
 */
export function qgptSettingsRoutes(ctx: Context) {
  const app = new Hono();
  app.get('/', async (c) => c.json(publicSettings(await readChatSettings(ctx))));
  app.put('/', async (c) => {
    const settings = await requireBody(c, ChatSettingsSchema, ctx.maxBodyBytes, '{url, model, apiKey?, enabled?}');
    await writeChatSettings(ctx, settings);
    return c.json(publicSettings(settings));
  });
  app.delete('/', async (c) => {
    await clearChatSettings(ctx);
    return c.json(publicSettings(undefined));
  });
  return app;
}
