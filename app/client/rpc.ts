/**
 * The RPC path: the service's operations as typed calls over a MessageChannel to the worker (comlink),
 * for in-page callers that want speed (no HTTP request, no JSON). Each call returns the same wire object
 * as its HTTP route, from the same service function (worker/core/services.ts), and fails with a
 * `TesseraRpcError` carrying the status and code the route would answer.
 *
 * ```ts
 * import { rpc } from './client/index.ts';
 * const asset = await rpc().getAsset(id, { transferables: false });   // = GET /api/asset/{id}?transferables=false
 * const created = await rpc().createAsset(seed);                       // = POST /api/assets/create
 * ```
 *
 * The worker may be stopped at any time (idle, or on purpose), and a port to a stopped worker is dead
 * without notice. The worker holds a Web Lock for its whole life and tells its name when the port is
 * set up; this client queues a request for that lock, which is granted the moment the worker is gone.
 * Then the next call connects again through `navigator.serviceWorker.controller.postMessage`, which
 * starts the worker. Every write carries a fresh Idempotency-Key (the worker runs it once per key and
 * answers a key it has seen with the stored result), so any call, read or write, is sent again on the new
 * connection, up to 3 times. The worker acknowledges each call as it arrives, before doing anything; the
 * one write sent without a key (`registerFolder`, which replaces by name) is sent again only when it was
 * not acknowledged, else it fails with status 503 and code `rpc_interrupted`.
 *
 * Calls on a port are not events to the browser, so they alone would not keep an idle worker alive:
 * while calls are being made, the client also posts a keep-alive message to the worker every 10 s,
 * which keeps it until the calls under way are done.
 */
import { wrap } from 'comlink';
import { KEYED_CALL, OPERATIONS, UNKEYED_WRITES } from '../../worker/core/service-operations.ts';
import type { Operation, Services } from '../../worker/core/services.ts';
import { whenControlled } from './defaults.ts';
import { delay } from './delay.ts';
import { RPC_ACK, RPC_CONNECT, RPC_KEEPALIVE, RPC_READY } from '../../worker/browser/protocol.ts';

const CONNECT_TIMEOUT_MS = 5_000;
const CONNECT_ATTEMPTS = 3;
const ATTEMPTS = 3;
/** After the worker is known gone, how long a reply or acknowledgement already on its way may take. */
const GONE_GRACE_MS = 50;
const KEEPALIVE_MS = 10_000;
/** Keep-alives stop this long after the last call (the worker may then be stopped when idle). */
const KEEPALIVE_AFTER_LAST_CALL_MS = 25_000;

/** The RPC client: every service operation, plus `close()`. */
export type TesseraRpc = Services & {
  /** Drops the connection; a later call connects again. */
  close(): void;
};

/** A failed call: the status, code and message of the HTTP error body the route would answer. */
export class TesseraRpcError extends Error {
  override name = 'TesseraRpcError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP error body of the same failure. */
  toJSON() {
    return { error: { status: this.status, code: this.code, message: this.message } };
  }
}

export interface RpcOptions {
  /** Resolves when the worker controls the page. Default: at once if it does, else `ready()`. */
  ready?: () => Promise<void>;
  /** The worker to connect to. Default: the service worker controlling the page; the embedded mode's Worker. */
  worker?: () => RpcWorker | null | undefined;
}

/** What the RPC connects through: a service worker or a dedicated Worker. */
export interface RpcWorker {
  postMessage(message: unknown, transfer: Transferable[]): void;
}

const controllingWorker = (): RpcWorker | null | undefined => navigator.serviceWorker?.controller;

/** The remote operations (typed loosely here; `TesseraRpc` gives each one its type). */
type RemoteOperations = Record<string, (...args: unknown[]) => Promise<unknown>>;

interface Connection {
  remote: RemoteOperations;
  port: MessagePort;
  /** The comlink message id of the last call sent (set synchronously as a call is made). */
  lastSent: string | undefined;
  /** Ids of calls the worker acknowledged and that have not finished. */
  acked: Set<string>;
  /** Resolves when the worker behind the port is gone. */
  gone: Promise<void>;
  isGone: boolean;
  release: AbortController;
}

const GONE = Symbol('gone');

function isErrorBody(value: unknown): value is { error: { status: number; code: string; message: string } } {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}


export function createRpc(options: RpcOptions = {}): TesseraRpc {
  const whenReady = options.ready ?? whenControlled;
  const target = options.worker ?? controllingWorker;
  let current: Promise<Connection> | undefined;
  let lastCall = 0;
  let inFlight = 0;
  let keepalive: ReturnType<typeof setInterval> | undefined;

  async function open(): Promise<Connection> {
    let lastError: unknown;
    for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
      await whenReady();
      const controller = target();
      if (!controller) {
        lastError = new Error('tessera: the page is not controlled by the worker');
        await delay(100);
        continue;
      }
      const { port1, port2 } = new MessageChannel();
      const hello = new Promise<string>((resolve) => {
        port1.onmessage = (event: MessageEvent<{ type?: unknown; lock?: unknown }>) => {
          if (event.data?.type === RPC_READY && typeof event.data.lock === 'string') resolve(event.data.lock);
        };
      });
      controller.postMessage({ type: RPC_CONNECT }, [port2]);
      const lock = await Promise.race([hello, delay(CONNECT_TIMEOUT_MS).then(() => undefined)]);
      port1.onmessage = null;
      if (lock === undefined) {
        port1.close();
        lastError = new Error('tessera: the worker did not answer the RPC connection');
        continue;
      }
      const release = new AbortController();
      const connection: Connection = {
        remote: {},
        port: port1,
        lastSent: undefined,
        acked: new Set(),
        gone: Promise.resolve(),
        isGone: false,
        release,
      };
      port1.addEventListener('message', (event: MessageEvent<{ type?: unknown; ack?: unknown }>) => {
        if (event.data?.type === RPC_ACK && typeof event.data.ack === 'string') connection.acked.add(event.data.ack);
      });
      // comlink sends each call synchronously through this endpoint: note its message id.
      const endpoint = {
        postMessage: (message: { id?: string }, transfer: Transferable[]) => {
          connection.lastSent = message.id;
          port1.postMessage(message, transfer);
        },
        addEventListener: port1.addEventListener.bind(port1),
        removeEventListener: port1.removeEventListener.bind(port1),
        start: port1.start.bind(port1),
      };
      connection.remote = wrap<RemoteOperations>(endpoint as unknown as MessagePort) as unknown as RemoteOperations;
      connection.gone = navigator.locks
        .request(lock, { signal: release.signal }, () => {
          connection.isGone = true;
        })
        .then(
          () => undefined,
          () => new Promise<void>(() => {}), // released by close(): never "gone"
        );
      return connection;
    }
    throw new TesseraRpcError(503, 'rpc_unavailable', `The worker cannot be reached: ${String((lastError as Error)?.message ?? lastError)}`);
  }

  async function getConnection(): Promise<Connection> {
    if (current) {
      const connection = await current.catch(() => undefined);
      if (connection && !connection.isGone) return connection;
      if (connection) drop(connection);
    }
    current ??= open();
    current.catch(() => (current = undefined));
    return current;
  }

  function drop(connection: Connection): void {
    connection.release.abort();
    connection.port.close();
    if (current) void current.then((c) => c === connection && (current = undefined), () => {});
  }

  function keepAlive(): void {
    lastCall = Date.now();
    if (keepalive !== undefined) return;
    keepalive = setInterval(() => {
      if (inFlight === 0 && Date.now() - lastCall > KEEPALIVE_AFTER_LAST_CALL_MS) {
        clearInterval(keepalive);
        keepalive = undefined;
        return;
      }
      target()?.postMessage({ type: RPC_KEEPALIVE }, []);
    }, KEEPALIVE_MS);
  }

  async function call(operation: Operation, args: unknown[]): Promise<unknown> {
    const kind = OPERATIONS[operation];
    // One key for every attempt of this call: however often it is sent, it runs once.
    const key = kind === 'write' && !UNKEYED_WRITES.includes(operation) ? crypto.randomUUID() : undefined;
    inFlight++;
    keepAlive();
    try {
      for (let attempt = 1; ; attempt++) {
        const connection = await getConnection();
        const sent = key === undefined ? connection.remote[operation]!(...args) : connection.remote[KEYED_CALL]!(key, operation, args);
        const pending = sent.then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        const id = connection.lastSent;
        let outcome = await Promise.race([pending, connection.gone.then((): typeof GONE => GONE)]);
        // The worker is gone: a reply or acknowledgement it sent just before may still be on its way.
        if (outcome === GONE) outcome = await Promise.race([pending, delay(GONE_GRACE_MS).then((): typeof GONE => GONE)]);
        const acked = id !== undefined && connection.acked.has(id);
        if (id !== undefined) connection.acked.delete(id);
        if (outcome === GONE) {
          drop(connection);
          // A read, a keyed write, or a call never acknowledged (it never reached the worker): safe to send again.
          if ((!acked || kind === 'read' || key !== undefined) && attempt < ATTEMPTS) continue;
          throw new TesseraRpcError(
            503,
            acked && kind === 'write' && key === undefined ? 'rpc_interrupted' : 'rpc_unavailable',
            acked && kind === 'write' && key === undefined
              ? `The worker stopped during '${operation}'; it may or may not have been done. Read the state before trying again.`
              : `The worker stopped during '${operation}' ${attempt} times.`,
          );
        }
        if ('error' in outcome) {
          const error = outcome.error;
          if (isErrorBody(error)) throw new TesseraRpcError(error.error.status, error.error.code, error.error.message);
          throw error;
        }
        return outcome.value;
      }
    } finally {
      inFlight--;
      lastCall = Date.now();
    }
  }

  const client = { close: () => void current?.then(drop, () => {}) } as Record<string, unknown>;
  for (const operation of Object.keys(OPERATIONS) as Operation[]) {
    client[operation] = (...args: unknown[]) => call(operation, args);
  }
  return client as unknown as TesseraRpc;
}

let shared: TesseraRpc | undefined;

/** The page's shared RPC client (connects on the first call). */
export function rpc(): TesseraRpc {
  return (shared ??= createRpc());
}
