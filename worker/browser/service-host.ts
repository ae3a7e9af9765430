/**
 * The service app of one worker lifetime, as both browser hosts use it (a service worker, ./install.ts, and the
 * embedded mode's dedicated Worker, ../embedded/worker.ts): created on the first request, answering every
 * request under the base, failures as JSON error bodies.
 *
 * - A failed creation is not kept, so the next request tries again (a transient failure, say an IndexedDB
 *   upgrade blocked by an old tab, must not brick the worker until it is stopped). It cannot stay pending:
 *   IdbStore.open gives up on a blocked upgrade after BLOCKED_TIMEOUT_MS.
 * - When the app starts, the last committed change seq goes out on the BroadcastChannel
 *   `tessera-stream-head`: a page's stream that missed an event (published by a worker stopped right after
 *   its commit) catches up.
 */
import { ApiError, asApiError } from '../core/errors.ts';
import { lastSeq } from '../core/feed/commit.ts';
import { HEAD_CHANNEL, type HeadMessage } from '../core/streams/protocol.ts';
import { createServiceApp, type ServiceApp, type ServiceAppOptions } from './service-app.ts';

export interface ServiceHost {
  /** The app, created once per worker lifetime (see the header). */
  app(): Promise<ServiceApp>;
  /** The app's response to a request under the base; 503 when the app cannot start, 500 on a thrown error. */
  answer(request: Request): Promise<Response>;
}

export function createServiceHost(options: ServiceAppOptions): ServiceHost {
  let app: Promise<ServiceApp> | undefined;

  function getApp(): Promise<ServiceApp> {
    if (!app) {
      app = createServiceApp(options);
      app.then(announceHead, () => {
        app = undefined;
      });
    }
    return app;
  }

  async function answer(request: Request): Promise<Response> {
    let service: ServiceApp;
    try {
      service = await getApp();
    } catch (error) {
      // A blocked database upgrade says so (storage_blocked) and what to do.
      if (error instanceof ApiError) return errorResponse(new ApiError(503, error.code, error.message));
      return errorResponse(new ApiError(503, 'unavailable', `service failed to start: ${messageOf(error)}`));
    }
    try {
      return await service.fetch(request);
    } catch (error) {
      // The app answers its own errors (app.onError); this is for one thrown past it, mapped the same way.
      return errorResponse(asApiError(error));
    }
  }

  return { app: getApp, answer };
}

/** Posts the last committed seq on the head channel (see the header). */
function announceHead(service: ServiceApp): void {
  lastSeq(service.ctx).then(
    (seq) => {
      const channel = new BroadcastChannel(HEAD_CHANNEL);
      channel.postMessage({ type: 'head', seq } satisfies HeadMessage);
      channel.close();
    },
    () => {},
  );
}

function errorResponse(error: ApiError): Response {
  return Response.json(error, { status: error.status });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
