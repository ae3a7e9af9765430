import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { ChatError, streamChat } from '../qgpt/answer/chat.ts';
import { ChatSettingsSchema, clearChatSettings, publicSettings, readChatSettings, writeChatSettings } from '../qgpt/answer/chat-settings.ts';
import { requireBody } from './http.ts';
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
const TEST_TIMEOUT_MS = 10_000;

export function qgptSettingsRoutes(ctx: ServiceContext) {
  const app = new Hono();
  app.get('/', async (c) => c.json(publicSettings(await readChatSettings(ctx))));
  app.put(
    '/',
    keyed(ctx, json, async (c, ctx) => writeChatSettings(ctx, await requireBody(c, ChatSettingsSchema, ctx.maxBodyBytes, '{url, model, apiKey?, enabled?}'))),
  );
  app.post('/test', async (c) => {
    const settings = await readChatSettings(ctx);
    if (!settings) return c.json({ ok: false, message: 'No answer endpoint is set.' });
    const started = performance.now();
    try {
      await streamChat(ctx, settings, [{ role: 'user', content: 'Reply with the single word: ok' }], { timeoutMs: TEST_TIMEOUT_MS, signal: c.req.raw.signal });
      return c.json({ ok: true, message: `Connected: ${settings.model} at ${settings.url} answered in ${Math.round(performance.now() - started)} ms.` });
    } catch (error) {
      if (!(error instanceof ChatError)) throw error;
      return c.json({ ok: false, message: `${settings.url} did not answer: ${error.reason}` });
    }
  });
  app.delete('/', keyed(ctx, json, async (_c, ctx) => clearChatSettings(ctx)));
  return app;
}
