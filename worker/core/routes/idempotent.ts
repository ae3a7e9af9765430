import type { Context as HonoContext } from 'hono';
import type { ServiceContext } from '../deps.ts';
import { checkKey, IDEMPOTENCY_HEADER, REPLAYED_HEADER, runOnce, type StoredResponse } from '../idempotency.ts';
import { createServices, type AllServices } from '../services.ts';

/**
 * Write routes that honour an `Idempotency-Key` request header (see ../idempotency.ts): a request sent
 * again with its key is answered with the response stored by its write, and writes nothing.
 *
 * ```ts
 * app.post('/create', keyed(ctx, json, async (c, services) => services.createAsset(await readJson(c, …))));
 * ```
 *
 * The handler runs the operation on the `services` it is given (bound to a context carrying the key) and
 * returns the result of its one write transaction; `respond` makes the response of it, the same with a
 * key or without.
 */
export function keyed<R>(ctx: ServiceContext, respond: (result: R) => StoredResponse, handler: (c: HonoContext<any, any>, services: AllServices) => Promise<R>) {
  const unkeyed = createServices(ctx);
  return async (c: HonoContext<any, any>): Promise<Response> => {
    const header = c.req.header(IDEMPOTENCY_HEADER);
    if (header === undefined) return toResponse(respond(await handler(c, unkeyed)), false);
    const url = new URL(c.req.url);
    const request = `${c.req.method} ${url.pathname}${url.search}`;
    const outcome = await runOnce(ctx, checkKey(header), request, respond as (result: unknown) => StoredResponse, (scoped) => handler(c, createServices(scoped)));
    return toResponse(outcome.response, outcome.replayed);
  };
}

/** A JSON body, 200. */
export const json = (result: unknown): StoredResponse => ({ status: 200, contentType: 'application/json', body: JSON.stringify(result) });
/** A text body, 200. */
export const text = (result: string): StoredResponse => ({ status: 200, contentType: 'text/plain; charset=UTF-8', body: result });
/** No body, 204. */
export const noContent = (): StoredResponse => ({ status: 204, body: '' });

function toResponse(response: StoredResponse, replayed: boolean): Response {
  const headers: Record<string, string> = {};
  if (response.contentType) headers['content-type'] = response.contentType;
  if (replayed) headers[REPLAYED_HEADER] = 'true';
  return new Response(response.status === 204 ? null : response.body, { status: response.status, headers });
}
