import type { ServiceContext } from '../deps.ts';
import { ApiError, isQuotaExceeded } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import { LINK_KINDS, unlinkAll } from '../links/associate.ts';
import { unlinkConversations } from '../qgpt/conversations.ts';
import { forgetRelevant } from '../qgpt/relevant-ring.ts';
import type { AssetRecord } from '../store/records.ts';
import type { Store, WriteTx } from '../store/store.ts';
import { requireAsset } from './read.ts';

/**
 * Deletes the asset with its formats, contents, annotations and activities, and the snippets relevance
 * kept of it, and unlinks it. (Its vectors go when the vector index applies the logged delete.)
 *
 * On a full disk it still works, so that room can be made: see deleteOnFullDisk.
 */
export async function deleteAsset(ctx: ServiceContext, id: string): Promise<string> {
  if (await finishUnfinished(ctx, id)) return id;
  try {
    return await deleteWhole(ctx, id);
  } catch (error) {
    if (!isQuotaExceeded(error)) throw error;
    return deleteOnFullDisk(ctx, id);
  }
}

/** The records the asset owns, by collection: what goes with it and nowhere else. */
const OWNED = ['assets', 'formats', 'contents', 'annotations', 'activities', 'relevant'] as const;
/** What unlinking the asset everywhere touches: the records it links to, its conversations and their messages. */
const LINKED = [...LINK_KINDS, 'conversations', 'messages', 'links'] as const;

/**
 * A delete when the disk is full. Once the origin's usage has reached its quota, the browser refuses every
 * transaction that puts anything, however much more it deletes (Chromium checks only what a transaction
 * adds): the one-transaction delete, which logs the change and unlinks the tags (puts), is refused, and
 * no asset could ever be deleted to make room. So it goes in two steps:
 *
 * 1. a transaction that only deletes, which the browser lets through: every record the asset owns (the
 *    asset, its formats and contents, annotations, activities, relevant snippets), so the asset is gone
 *    whole or not at all, and its space is free;
 * 2. the usual transaction for the rest: the asset unlinked from its tags, websites, summaries, persons
 *    and conversations, and the delete logged (and then published).
 *
 * Should the second step fail (the disk still full), the answer says so (507 `storage_full_delete_unfinished`:
 * the asset is gone, the rest is not done) and the step is kept in memory: the next delete, of this asset
 * (answered 200 once done) or of another, does it first. A worker stopped in between forgets it: those
 * records still name the asset and the change log lacks its delete, so the search index and the streams
 * learn of it at their next rebuild or snapshot.
 */
async function deleteOnFullDisk(ctx: ServiceContext, id: string): Promise<string> {
  const asset = await ctx.store.write(async (tx) => {
    const asset = await requireAsset(tx, id);
    await forgetRelevant(tx, id);
    await deleteOwned(tx, asset);
    return asset;
  }, OWNED);
  try {
    return await unlinkAndLog(ctx, asset);
  } catch (error) {
    if (!isQuotaExceeded(error)) throw error;
    unfinishedDeletes(ctx.store).set(id, asset);
    throw unfinishedError();
  }
}

/** The second step of a full-disk delete: the asset, already gone, unlinked everywhere and its delete logged. */
function unlinkAndLog(ctx: ServiceContext, asset: AssetRecord): Promise<string> {
  return commit(ctx, async (tx, log) => {
    await unlinkAll(ctx, tx, asset);
    await unlinkConversations(tx, asset);
    log.deleted(asset.id);
    return asset.id;
  }, LINKED);
}

/** Full-disk deletes whose second step has not been done yet, per store (memory only: see deleteOnFullDisk). */
const unfinished = new WeakMap<Store, Map<string, AssetRecord>>();

function unfinishedDeletes(store: Store): Map<string, AssetRecord> {
  let pending = unfinished.get(store);
  if (!pending) unfinished.set(store, (pending = new Map()));
  return pending;
}

/**
 * Does the second step of earlier full-disk deletes. True when `id` was one of them and is now done; when
 * its step fails again, that error is the answer. Another's failure leaves it for the next delete.
 */
async function finishUnfinished(ctx: ServiceContext, id: string): Promise<boolean> {
  const pending = unfinishedDeletes(ctx.store);
  let finished = false;
  for (const asset of [...pending.values()]) {
    try {
      await unlinkAndLog(ctx, asset);
      pending.delete(asset.id);
      finished ||= asset.id === id;
    } catch (error) {
      if (asset.id !== id) continue;
      throw isQuotaExceeded(error) ? unfinishedError() : error;
    }
  }
  return finished;
}

const unfinishedError = () =>
  new ApiError(
    507,
    'storage_full_delete_unfinished',
    'Storage is still full: the asset was deleted, but it could not yet be unlinked from its tags, websites and conversations nor its delete announced. Free more space (delete another asset), then send this delete again to finish it.',
  );

async function deleteOwned(tx: WriteTx, asset: AssetRecord): Promise<void> {
  for (const formatId of asset.formats) {
    await tx.delete('formats', formatId);
    await tx.delete('contents', formatId);
  }
  for (const annotationId of asset.annotations) await tx.delete('annotations', annotationId);
  // Every activity of the asset, not only the newest its record lists.
  for (const activityId of await tx.getKeysFromIndex('activities', 'asset', asset.id)) await tx.delete('activities', activityId);
  await tx.delete('assets', asset.id);
}

function deleteWhole(ctx: ServiceContext, id: string): Promise<string> {
  return commit(ctx, async (tx, log) => {
    const asset = await requireAsset(tx, id);
    await unlinkAll(ctx, tx, asset);
    await unlinkConversations(tx, asset);
    await forgetRelevant(tx, id);
    await deleteOwned(tx, asset);
    log.deleted(id);
    return id;
  }, [...OWNED, ...LINKED]);
}
