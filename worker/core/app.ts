import { Hono } from 'hono/quick';
import { withDefaults, type Deps } from './deps.ts';
import { ApiError, asApiError } from './errors.ts';
import { assetRoutes } from './routes/asset.ts';
import { assetsRoutes } from './routes/assets.ts';
import { backupRoutes } from './routes/backup.ts';
import { conversationItemRoutes, conversationRoutes } from './routes/conversations.ts';
import { embeddingRoutes } from './routes/embeddings.ts';
import { folderRoutes } from './routes/folders.ts';
import { labelRoutes } from './routes/labels.ts';
import { libraryRoutes } from './routes/library.ts';
import { qgptRoutes } from './routes/qgpt.ts';
import { qgptSettingsRoutes } from './routes/qgpt-settings.ts';
import { searchRoutes } from './routes/search.ts';
import { qgptStreamRoutes, streamRoutes } from './routes/streams.ts';
import { wellKnownRoutes } from './routes/well-known.ts';

/**
 * The whole HTTP API under the base path, on web-standard Request/Response: any host can serve it.
 * `hono/quick` (LinearRouter) because a service worker builds the app at each start: the default
 * RegExpRouter compiles its matcher on the first request, a few ms of every cold start.
 */
export function createApp(deps: Deps) {
  const ctx = withDefaults(deps);
  const app = new Hono().basePath(ctx.base);
  app.route('/.well-known', wellKnownRoutes());
  // Fixed paths under /assets first: `/assets/{asset}` would otherwise take them.
  app.route('/assets', searchRoutes(ctx));
  app.route('/assets', streamRoutes(ctx));
  app.route('/assets', assetsRoutes(ctx));
  app.route('/asset', assetRoutes(ctx));
  app.route('/', labelRoutes(ctx));
  app.route('/conversations', conversationRoutes(ctx));
  app.route('/conversation', conversationItemRoutes(ctx));
  app.route('/backup', backupRoutes(ctx));
  app.route('/embeddings', embeddingRoutes(ctx));
  app.route('/folders', folderRoutes(ctx));
  app.route('/library', libraryRoutes(ctx));
  app.route('/qgpt', qgptStreamRoutes(ctx));
  app.route('/qgpt', qgptRoutes(ctx));
  app.route('/qgpt/settings', qgptSettingsRoutes(ctx));
  app.notFound((c) => c.json(new ApiError(404, 'route_not_found', `No route for ${c.req.method} ${c.req.path}.`), 404));
  app.onError((error, c) => {
    const apiError = asApiError(error);
    // An unexpected error is logged; not an ApiError (a documented answer), nor a request its client aborted.
    if (apiError !== error && apiError.status === 500 && !c.req.raw.signal.aborted) console.error(error);
    return c.json(apiError, apiError.status);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;

