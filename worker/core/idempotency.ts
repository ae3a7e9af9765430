/**
 * Idempotency keys: a write sent again runs once.
 *
 * When the browser stops a service worker that has not answered a fetch yet, Chromium dispatches the same
 * request again to the restarted worker; a write that committed just before the stop would commit twice
 * (one POST, two assets; a score counted twice). So a write may carry an `Idempotency-Key` (any client
 * string, 1 to 200 visible ASCII characters; the page's client sends a fresh UUID with each write):
 *
 * - The write's response (status, content type, body) is put under the key in the write's own
 *   transaction: either the write and its key are committed, or neither is.
 * - A request whose key is known is answered with the stored response (and `idempotent-replayed: true`),
 *   without running again. The transaction checks the key too, so two copies racing each other write once.
 * - A key sent with another request (method, path and query) is a 422 `idempotency_key_reused`.
 * - A request that failed stored nothing: sent again with its key, it runs again.
 * - Keys are kept 10 minutes (IDEMPOTENCY_TTL_MS), and at most MAX_KEPT_RESPONSES of them holding at most
 *   MAX_KEPT_BYTES of bodies (the oldest go first; the newest is always kept), swept now and then.
 *
 * Mechanics: the route (routes/idempotent.ts) or the RPC host runs the operation on a ServiceContext carrying an
 * {@link IdempotencyScope}; the one write transaction of the operation ({@link keyedWrite}, which `commit`
 * uses) checks and stores the key. The response is made from that transaction's result by the route's
 * `respond`, so what is stored is what is answered.
 */
import type { ServiceContext } from './deps.ts';
import { ApiError, badRequest } from './errors.ts';
import type { CollectionName, IdempotencyRecord } from './store/records.ts';
import type { Store, WriteTx } from './store/store.ts';
import { batchedWrite } from './store/write-batches.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set (to `true`) on a response answered from a stored key. */
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_TTL_MS = 10 * 60_000;
export const MAX_KEPT_RESPONSES = 1000;
export const MAX_KEPT_BYTES = 32 * 1024 * 1024;
/** A sweep runs after this many keyed writes, or this long after the last one, whichever comes first. */
const SWEEP_AFTER_WRITES = 100;
const SWEEP_AFTER_MS = 60_000;
const SWEEP_BATCH = 64;

export type StoredResponse = IdempotencyRecord['response'];

/** One keyed request under way. */
export interface IdempotencyScope {
  readonly key: string;
  /** What it is: `POST /api/assets/create?…`, `RPC createAsset`. */
  readonly request: string;
  /** The response to the result of the operation's write transaction. */
  readonly respond: (result: unknown) => StoredResponse;
  /** The response the write stored (set once its transaction has committed). */
  stored?: StoredResponse;
  /** Its write transaction has begun. */
  used: boolean;
  /** The request is over: writes made later with this context (background work) are not keyed. */
  closed: boolean;
}

/** Thrown inside the write transaction when the key is there already. */
class KnownKey extends Error {
  constructor(readonly record: IdempotencyRecord) {
    super(`Idempotency-Key '${record.id}' is known`);
  }
}

/** The key of a header value; anything but 1 to 200 visible ASCII characters is a 400. */
export function checkKey(value: unknown): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(value)) {
    throw badRequest('An Idempotency-Key must be 1 to 200 visible ASCII characters (a UUID, say).', 'invalid_idempotency_key');
  }
  return value;
}

export type Outcome<T> = { replayed: false; result: T; response: StoredResponse } | { replayed: true; response: StoredResponse };

/**
 * Runs `operation` at most once for `key`: on a ServiceContext carrying the key, whose one write transaction
 * stores `respond(result)` under it. A key already stored (before or during the run) answers what was
 * stored instead.
 */
export async function runOnce<T>(
  ctx: ServiceContext,
  key: string,
  request: string,
  respond: (result: unknown) => StoredResponse,
  operation: (ctx: ServiceContext) => Promise<T>,
): Promise<Outcome<T>> {
  const known = await ctx.store.read((tx) => tx.get('idempotency', key), ['idempotency']);
  if (known && known.expires > ctx.now().getTime()) return replay(known, request);
  const scope: IdempotencyScope = { key, request, respond, used: false, closed: false };
  let result: T;
  try {
    result = await operation({ ...ctx, idempotency: scope });
  } catch (error) {
    if (error instanceof KnownKey) return replay(error.record, request);
    throw error;
  } finally {
    scope.closed = true;
  }
  if (scope.stored) noteKeyedWrite(ctx);
  return { replayed: false, result, response: scope.stored ?? respond(result) };
}

function replay(record: IdempotencyRecord, request: string): Outcome<never> {
  if (record.request !== request) {
    throw new ApiError(
      422,
      'idempotency_key_reused',
      `The Idempotency-Key '${record.id}' was used for ${record.request}; this request is ${request}. Send a new key with a new request.`,
    );
  }
  return { replayed: true, response: record.response };
}

/**
 * A user write (`batchedWrite`: it may share a transaction with others), keyed when the ServiceContext carries a request's key: the transaction first checks the key
 * (known: nothing runs, the caller answers the stored response), then runs `fn` and puts the response to
 * its result under the key. An operation makes one such transaction; a second is a programming error.
 * `scope` gains the `idempotency` collection.
 */
export async function keyedWrite<T>(ctx: ServiceContext, fn: (tx: WriteTx) => Promise<T>, scope: readonly CollectionName[]): Promise<T> {
  const once = ctx.idempotency;
  if (!once || once.closed) return batchedWrite(ctx.store, fn, scope);
  if (once.used) throw new Error(`A keyed request made a second write transaction (${once.request}).`);
  once.used = true;
  const { out, response } = await batchedWrite(
    ctx.store,
    async (tx) => {
      const now = ctx.now().getTime();
      const known = await tx.get('idempotency', once.key);
      if (known && known.expires > now) throw new KnownKey(known);
      const out = await fn(tx);
      const response = once.respond(out);
      const record: IdempotencyRecord = { id: once.key, request: once.request, created: now, expires: now + IDEMPOTENCY_TTL_MS, size: response.body.length, response };
      await tx.put('idempotency', record);
      return { out, response };
    },
    [...scope, 'idempotency'],
  );
  once.stored = response;
  return out;
}

interface SweepState {
  writes: number;
  last: number;
  running?: Promise<number> | undefined;
}
const sweeps = new WeakMap<Store, SweepState>();

function noteKeyedWrite(ctx: ServiceContext): void {
  let state = sweeps.get(ctx.store);
  if (!state) sweeps.set(ctx.store, (state = { writes: 0, last: 0 }));
  state.writes++;
  const now = ctx.now().getTime();
  if (state.running || (state.writes < SWEEP_AFTER_WRITES && now - state.last < SWEEP_AFTER_MS)) return;
  state.writes = 0;
  state.last = now;
  const current = state;
  current.running = sweepIdempotencyKeys(ctx)
    .catch((error: unknown) => {
      console.error('idempotency: sweeping old keys failed', error);
      return 0;
    })
    .finally(() => (current.running = undefined));
}

/**
 * Forgets expired keys, then the oldest beyond MAX_KEPT_RESPONSES or MAX_KEPT_BYTES (never the newest).
 * Reads in bounded batches and keeps only ids, times and sizes; one write deletes. Answers how many went.
 */
export async function sweepIdempotencyKeys(ctx: ServiceContext, limits = { count: MAX_KEPT_RESPONSES, bytes: MAX_KEPT_BYTES }): Promise<number> {
  const now = ctx.now().getTime();
  const drop: string[] = [];
  const live: { id: string; created: number; size: number }[] = [];
  for (let after: string | undefined; ; ) {
    const batch = await ctx.store.read((tx) => tx.getRange('idempotency', after, SWEEP_BATCH), ['idempotency']);
    for (const record of batch) {
      if (record.expires <= now) drop.push(record.id);
      else live.push({ id: record.id, created: record.created, size: record.size });
    }
    if (batch.length < SWEEP_BATCH) break;
    after = batch.at(-1)!.id;
  }
  live.sort((a, b) => b.created - a.created);
  let bytes = 0;
  live.forEach((record, i) => {
    bytes += record.size;
    if (i > 0 && (i >= limits.count || bytes > limits.bytes)) drop.push(record.id);
  });
  if (drop.length > 0) await ctx.store.write((tx) => Promise.all(drop.map((id) => tx.delete('idempotency', id))), ['idempotency']);
  return drop.length;
}
