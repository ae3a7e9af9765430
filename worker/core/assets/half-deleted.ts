/**
 * Half-deleted assets: a full-disk delete (remove.ts) whose second step, unlinking the asset from its tags,
 * websites, summaries, persons and conversations and logging its delete, has not run yet (the disk was
 * still full, or the worker was stopped in between). Until it runs, those records still name the asset,
 * and the change log (so the search index, the library rows and the streams) lacks its delete.
 *
 * - In memory, per store, from the moment the first step commits: the service layer leaves their ids out
 *   of every answer ({@link scrubAnswer}), and every write first tries to finish them ({@link settleDeletes}).
 * - Durably through a marker: the `meta` record WHOLE_ID exists only while no delete is half done. The first
 *   step deletes it in its own transaction (a delete, which a full disk lets through); it is put back once
 *   the last half-deleted asset is finished. A worker that starts without it (one stopped between the two
 *   steps, or a database that never had it) looks for half-deleted assets before its first answer: asset ids
 *   that links name but no asset record has, and assets whose last logged change is not their delete but
 *   whose record is gone. It finishes them, or on a disk still full keeps them in memory as above. Reading
 *   every link and change-log record is paid only then.
 *
 * What the search index saved of such an asset before its creation left the change log (more than
 * CHANGE_LOG_SIZE changes ago) is found only through its labels; an unlabelled one stays in the index's
 * snapshot until the index is next rebuilt (a search answer reads the asset and leaves out what is gone).
 */
import type { ServiceContext } from '../deps.ts';
import { isQuotaExceeded } from '../errors.ts';
import { commit, loggedChanges } from '../feed/commit.ts';
import { UNLINK_SCOPE, unlinkAll } from '../links/associate.ts';
import { unlinkConversations } from '../qgpt/conversations.ts';
import type { AssetRecord } from '../store/records.ts';
import type { Store, WriteTx } from '../store/store.ts';
import { utf8Bytes } from '../utf8.ts';

/** The `meta` record that says no delete is half done (see the header). */
export const WHOLE_ID = 'deletes-whole';

/** What the second step needs of an asset: its id (its links are records of their own, which the first step leaves). */
export type AssetLinks = Pick<AssetRecord, 'id'>;

interface HalfDeletes {
  /** The look for half-deleted assets a worker makes before its first answer, once. */
  checked?: Promise<void>;
  /** Half-deleted, by id. */
  pending: Map<string, AssetLinks>;
  /** Finished by this worker and not asked for since: sent again, their delete answers their id once (remove.ts). */
  finished: Set<string>;
  /** The WHOLE_ID marker is known to be stored. */
  marked: boolean;
  /** The store was empty when this worker first looked, so holds no marker: its first write puts it. */
  emptyAtStart?: boolean;
  /** The same, kept after that first write (`beganEmpty`). */
  beganEmpty?: boolean;
}

const states = new WeakMap<Store, HalfDeletes>();

function stateOf(store: Store): HalfDeletes {
  let state = states.get(store);
  if (!state) states.set(store, (state = { pending: new Map(), finished: new Set(), marked: false }));
  return state;
}

/** Whether the asset `id` is half-deleted (its second step is still to run). */
export function isHalfDeleted(store: Store, id: string): boolean {
  return stateOf(store).pending.has(id);
}

/** Whether this worker finished the delete of `id` since a delete of it last answered (then that one answers its id, once). */
export function takeFinishedDelete(store: Store, id: string): boolean {
  return stateOf(store).finished.delete(id);
}

/** Inside the first step's transaction: the marker goes, so that a worker stopped before the second step is found out. */
export async function markHalfDeleted(tx: WriteTx): Promise<void> {
  await tx.delete('meta', WHOLE_ID);
}

/** After the first step committed: the asset is half-deleted until {@link finishHalfDeletes} runs its second step. */
export function noteHalfDeleted(store: Store, asset: AssetLinks): void {
  const state = stateOf(store);
  state.pending.set(asset.id, asset);
  state.marked = false;
}

/** The second step of `id` ran in its delete's own request: no longer half-deleted; the marker goes back once none is left. */
export async function noteDeleteFinished(ctx: ServiceContext, id: string): Promise<void> {
  stateOf(ctx.store).pending.delete(id);
  await finishHalfDeletes(ctx);
}

/**
 * Runs the second step of every half-deleted asset, each in a transaction of its own, then puts the marker
 * back once none is left. A full disk leaves what it refused for the next write; any other error is thrown.
 */
export async function finishHalfDeletes(ctx: ServiceContext): Promise<void> {
  // Not under a request's Idempotency-Key: the request's own write is the one its key answers.
  const unkeyed: ServiceContext = { ...ctx, idempotency: undefined };
  const state = stateOf(ctx.store);
  for (const asset of [...state.pending.values()]) {
    try {
      await unlinkAndLog(unkeyed, asset);
      state.pending.delete(asset.id);
      state.finished.add(asset.id);
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
    }
  }
  if (state.pending.size > 0 || state.marked) return;
  try {
    await ctx.store.write((tx) => tx.put('meta', { id: WHOLE_ID, value: true }), ['meta']);
    state.marked = true;
  } catch (error) {
    if (!isQuotaExceeded(error)) throw error;
  }
}

/** The second step: the asset, whose records are gone, unlinked everywhere and its delete logged (and then published). */
export function unlinkAndLog(ctx: ServiceContext, asset: AssetLinks): Promise<string> {
  return commit(ctx, async (tx, log) => {
    // Both read only the id of the record.
    await unlinkAll(ctx, tx, asset as AssetRecord);
    await unlinkConversations(tx, asset as AssetRecord);
    log.deleted(asset.id);
    return asset.id;
  }, UNLINK_SCOPE);
}

/**
 * Whether the store held no asset and had logged no change when this worker's first operation looked:
 * every change of the library since is then one of its change events, from seq 1 on (a library migrated
 * from before the change log has assets and no change, so it did not begin empty).
 */
export function beganEmpty(store: Store): boolean {
  return stateOf(store).beganEmpty === true;
}

/**
 * Called after every write that succeeded (services.ts): on a store that was empty when this worker first
 * looked, the first one puts the marker. Without it the next worker would read every asset, link and change
 * before its first answer (2 s at 100,000 assets, after a first import). A marker that cannot be put is
 * looked for again by the next worker, as before; the write has committed either way.
 */
export async function markAfterWrite(ctx: ServiceContext): Promise<void> {
  const state = stateOf(ctx.store);
  if (!state.emptyAtStart) return;
  state.emptyAtStart = false;
  try {
    await finishHalfDeletes(ctx);
  } catch (error) {
    console.warn(`deletes: the marker could not be put (${(error as Error).message}); the next worker looks for half-deleted assets`);
  }
}

/**
 * Awaited by every service operation before it runs (services.ts): the first one of a worker looks for
 * half-deleted assets when the marker is missing (see the header); a write first tries to finish those
 * known.
 */
export async function settleDeletes(ctx: ServiceContext, write: boolean): Promise<void> {
  const state = stateOf(ctx.store);
  state.checked ??= checkOnce(ctx).catch((error: unknown) => {
    // Looked for again by the next operation.
    state.checked = undefined;
    throw error;
  });
  await state.checked;
  if (write && state.pending.size > 0) await finishHalfDeletes(ctx);
}

async function checkOnce(ctx: ServiceContext): Promise<void> {
  const state = stateOf(ctx.store);
  if (await ctx.store.read((tx) => tx.get('meta', WHOLE_ID), ['meta'])) {
    state.marked = true;
    return;
  }
  const { found, empty } = await findHalfDeleted(ctx);
  // A store that holds no asset and has logged no change has nothing to repair (looking costs nothing
  // there): no marker is written for it now, so a first request that is refused stores nothing. The first
  // write that succeeds puts it (`markAfterWrite`).
  if (empty) {
    state.emptyAtStart = state.beganEmpty = true;
    return;
  }
  for (const asset of found) state.pending.set(asset.id, asset);
  await finishHalfDeletes(ctx);
}

/**
 * Assets whose records are gone but which links still name, or whose delete the change log lacks; `empty`
 * when the store holds no asset and has logged no change.
 */
export async function findHalfDeleted(ctx: ServiceContext): Promise<{ found: AssetLinks[]; empty: boolean }> {
  return ctx.store.read(
    async (tx) => {
      const [assets, links, changes] = await Promise.all([tx.getAll('assets'), tx.getAll('links'), tx.getAll('changes')]);
      const existing = new Set(assets.map((a) => a.id));
      const found = new Set<string>();
      for (const link of links) if (!existing.has(link.asset)) found.add(link.asset);
      // The change log in key order is commit order: the last kind logged for each asset.
      const last = new Map(loggedChanges(changes).map((c) => [c.asset, c.kind]));
      for (const [id, kind] of last) if (kind !== 'deleted' && !existing.has(id)) found.add(id);
      return { found: [...found].map((id) => ({ id })), empty: assets.length === 0 && changes.length === 0 };
    },
    ['assets', 'links', 'changes'],
  );
}

/**
 * A service answer without references to half-deleted assets: array items that name one (by `id`,
 * `identifier` or `asset.id`: a linked asset, a search hit, a library row, a relevant snippet) are left out,
 * and the `indices` beside such a list are counted again. A JSON body (bytes) is read, scrubbed and written
 * again. Costs nothing while no asset is half-deleted.
 */
export function scrubAnswer<T>(store: Store, answer: T): T {
  const gone = stateOf(store).pending;
  if (gone.size === 0) return answer;
  if (answer instanceof Uint8Array) {
    return utf8Bytes(JSON.stringify(scrub(JSON.parse(new TextDecoder().decode(answer)), gone))) as T;
  }
  return scrub(answer, gone) as T;
}

function scrub(value: unknown, gone: ReadonlyMap<string, unknown>): unknown {
  const names = (item: unknown): boolean => {
    if (!item || typeof item !== 'object') return false;
    const { id, identifier, asset } = item as { id?: unknown; identifier?: unknown; asset?: { id?: unknown } };
    return [id, identifier, asset?.id].some((x) => typeof x === 'string' && gone.has(x));
  };
  if (Array.isArray(value)) return value.filter((item) => !names(item)).map((item) => scrub(item, gone));
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[key] = scrub(field, gone);
  const { iterable, indices } = value as { iterable?: unknown; indices?: unknown };
  if (Array.isArray(iterable) && indices && typeof indices === 'object' && (out.iterable as unknown[]).length !== iterable.length) {
    out.indices = Object.fromEntries((out.iterable as { id: string }[]).map((item, i) => [item.id, i]));
  }
  return out;
}
