import { Hono } from 'hono/quick';
import type { Context } from '../deps.ts';
import { deleteConversation } from '../qgpt/conversations.ts';

/**
 * `/conversations`: the stored `/qgpt/stream` conversations.
 *
 * - POST `/conversations/{conversation}/delete` -> 204: the conversation and its messages go, and no
 *   asset lists it afterwards (the desktop API's path, so the SDK's `conversationsDeleteSpecificConversation`
 *   works unchanged); 404 JSON for an unknown id.
 */
export function conversationRoutes(ctx: Context) {
  const app = new Hono();
  app.post('/:conversation/delete', async (c) => {
    await deleteConversation(ctx, c.req.param('conversation'));
    return c.body(null, 204);
  });
  return app;
}
