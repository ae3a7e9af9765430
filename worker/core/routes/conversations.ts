import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { readJson } from './http.ts';
import { json, keyed, noContent } from './idempotent.ts';

/**
 * `/conversations` and `/conversation`: the stored `/qgpt/stream` conversations (the desktop API's paths,
 * so the SDK's ConversationsApi and ConversationApi work unchanged).
 *
 * - GET `/conversations` -> Conversations: every conversation with its messages, most recent first.
 * - GET `/conversation/{conversation}` -> Conversation with its messages; 404 for an unknown id.
 * - POST `/conversation/update` with a Conversation (at least `id`; `name` is taken) -> the Conversation.
 * - POST `/conversations/{conversation}/delete` -> 204: the conversation and its messages go, and no
 *   asset lists it afterwards (the desktop API's path, so the SDK's `conversationsDeleteSpecificConversation`
 *   works unchanged); 404 JSON for an unknown id.
 */
export function conversationRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.get('/', async (c) => c.json(await services.listConversations()));
  app.post('/:conversation/delete', keyed(ctx, noContent, async (c, services) => services.deleteConversation(c.req.param('conversation')!)));
  return app;
}

export function conversationItemRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.post('/update', keyed(ctx, json, async (c, services) => services.updateConversation(await readJson(c, ctx.maxBodyBytes))));
  app.get('/:conversation', async (c) => c.json(await services.getConversation(c.req.param('conversation'))));
  return app;
}
