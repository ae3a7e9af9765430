/**
 * The worker's side of the RPC path (app/client/rpc.ts is the page's): a page sends
 * `{type: 'tessera:rpc'}` with a MessagePort to the worker (`controller.postMessage`, which also starts a
 * stopped worker); the worker exposes the services on that port with comlink and answers
 * `{type: 'tessera:rpc-ready', lock}` on it.
 *
 * A port to a stopped worker is dead without any event telling so. To let the page notice, the worker
 * holds a Web Lock named `lock` for its whole life: the page queues a request for the same lock, which
 * is granted the moment this worker's global scope goes away.
 *
 * Every call message is acknowledged at once, `{type: 'tessera:rpc-ack', ack: <call id>}`, before any work starts:
 * when the worker goes away during a call, a page that never got the acknowledgement knows the call never
 * reached it (and may send even a write again); with it, a write may have run.
 *
 * A write comes as `keyed(key, operation, args)` with an Idempotency-Key (services.ts runKeyedOperation):
 * sent again after the worker went away, acknowledged or not, it runs once.
 *
 * Results are the wire objects the routes answer (keys whose value is undefined removed, as JSON would);
 * a failure is thrown as the HTTP error body `{error: {status, code, message}}`.
 */
import { expose } from 'comlink';
import { ApiError, asApiError } from '../core/errors.ts';
import type { ServiceContext } from '../core/deps.ts';
import { KEYED_CALL, OPERATIONS } from '../core/service-operations.ts';
import { runKeyedOperation, type Services } from '../core/services.ts';
import { RPC_ACK, RPC_READY } from './protocol.ts';


declare const self: ServiceWorkerGlobalScope;

let lifetimeLock: Promise<string> | undefined;

/** Takes (once per worker lifetime) a lock that is only released when this worker stops. */
function holdLifetimeLock(): Promise<string> {
  return (lifetimeLock ??= new Promise<string>((resolve, reject) => {
    const name = `tessera-worker-${crypto.randomUUID()}`;
    self.navigator.locks
      .request(name, () => {
        resolve(name);
        return new Promise<never>(() => {});
      })
      .catch(reject);
  }));
}

let inFlight = 0;
let settled: (() => void) | undefined;
let allSettled: Promise<void> = Promise.resolve();

/** Resolves when no RPC call is running (a keep-alive message extends the worker's life until then). */
export function rpcIdle(): Promise<void> {
  return allSettled;
}

function begin(): void {
  if (inFlight++ === 0) allSettled = new Promise((resolve) => (settled = resolve));
}

function end(): void {
  if (--inFlight === 0) settled?.();
}

/**
 * The value without object keys whose value is undefined, so that it equals its JSON round trip. A copy
 * where anything is dropped, never a change in place: a result may be the asset cache's own object.
 */
function withoutUndefined<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    value.forEach((item, i) => {
      const kept = withoutUndefined(item);
      if (kept !== item) (items ??= [...value])[i] = kept;
    });
    return (items ?? value) as T;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(record)) {
    const kept = item === undefined ? undefined : withoutUndefined(item);
    if (kept === item && item !== undefined) continue;
    copy ??= { ...record };
    if (kept === undefined) delete copy[key];
    else copy[key] = kept;
  }
  return (copy ?? value) as T;
}

/** What the RPC path runs on: the services and their context (for keyed writes). */
export interface RpcHost {
  services: Services;
  ctx: ServiceContext;
}

/** The services as the RPC path serves them: each call counted in flight, its result a wire object, its failure an error body. */
export function remoteServices(host: () => Promise<RpcHost>): Services {
  return new Proxy({} as Services, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      return async (...args: unknown[]) => {
        begin();
        try {
          const { services: target, ctx } = await host();
          // `keyed(key, operation, args)`: a write run once per Idempotency-Key.
          if (name === KEYED_CALL) return withoutUndefined(await runKeyedOperation(ctx, args[0], args[1], args[2]));
          const operation = (target as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>)[name];
          if (typeof operation !== 'function' || !Object.hasOwn(OPERATIONS, name)) {
            throw new ApiError(404, 'operation_not_found', `No RPC operation '${name}'.`);
          }
          return withoutUndefined(await operation(...args));
        } catch (error) {
          throw asApiError(error).toJSON();
        } finally {
          end();
        }
      };
    },
  });
}

/** Serves the services on a port a page sent; replies `{type: RPC_READY, lock}` once it listens. */
export async function acceptRpc(port: MessagePort, host: () => Promise<RpcHost>): Promise<void> {
  const lock = await holdLifetimeLock();
  // Added before comlink's listener, so it runs first, in the same task as the message's arrival.
  port.addEventListener('message', (event: MessageEvent<{ id?: unknown }>) => {
    const id = event.data?.id;
    if (typeof id === 'string') port.postMessage({ type: RPC_ACK, ack: id }); // not `id`: comlink would take it for the reply
  });
  expose(remoteServices(host), port);
  port.postMessage({ type: RPC_READY, lock });
}
