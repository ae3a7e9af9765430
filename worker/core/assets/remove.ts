import type { ServiceContext } from '../deps.ts';
import { ApiError, isQuotaExceeded } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import { UNLINK_SCOPE, unlinkAll } from '../links/associate.ts';
import { unlinkConversations } from '../qgpt/conversations.ts';
import { forgetRelevant } from '../qgpt/relevant-ring.ts';
import type { AssetRecord } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';
import { sleep } from '../timers.ts';
import { isHalfDeleted, markHalfDeleted, noteDeleteFinished, noteHalfDeleted, takeFinishedDelete, unlinkAndLog } from './half-deleted.ts';
import { requireAsset } from './read.ts';

/**
 * Deletes the asset with its formats, contents, annotations and activities, and the snippets relevance
 * kept of it, and unlinks it. (Its vectors go when the vector index applies the logged delete.)
 *
 * On a full disk it still works, so that room can be made: see deleteOnFullDisk. Every write, this one
 * included, first finishes earlier full-disk deletes (half-deleted.ts, through the service layer): the
 * same delete sent again answers the id once that is done, and 507 while the disk is still full.
 */
export async function deleteAsset(ctx: ServiceContext, id: string): Promise<string> {
  if (isHalfDeleted(ctx.store, id)) throw unfinishedError();
  try {
    return await deleteWhole(ctx, id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && takeFinishedDelete(ctx.store, id)) return id;
    if (!isQuotaExceeded(error)) throw error;
    return deleteOnFullDisk(ctx, id);
  }
}

/** The records the asset owns, by collection: what goes with it and nowhere else. */
const OWNED = ['assets', 'formats', 'contents', 'annotations', 'activities', 'relevant'] as const;


/**
 * A delete when the disk is full. Once the origin's usage has reached its quota, the browser refuses every
 * transaction that puts anything, however much more it deletes (Chromium checks only what a transaction
 * adds): the one-transaction delete, which logs the change and unlinks the tags (puts), is refused, and
 * no asset could ever be deleted to make room. So it goes in two steps:
 *
 * 1. a transaction that only deletes, which the browser lets through: every record the asset owns (the
 *    asset, its formats and contents, annotations, activities, relevant snippets), so the asset is gone
 *    whole or not at all, and its space is free; and the marker that says no delete is half done;
 * 2. the usual transaction for the rest: the asset unlinked from its tags, websites, summaries, persons
 *    and conversations, and the delete logged (and then published).
 *
 * The browser gives the first step's space back in the background (its database compacts, its blob files
 * go), so a second step refused at once is tried again for a little while (UNLINK_RETRIES_MS) before the
 * delete gives up. Should it still fail (the disk still full), the answer says so (507 `storage_full_delete_unfinished`:
 * the asset is gone, the rest is not done). Until the step runs the asset is half-deleted (half-deleted.ts):
 * answers leave it out, the next write (or the next worker, found through the missing marker) finishes it.
 */
async function deleteOnFullDisk(ctx: ServiceContext, id: string): Promise<string> {
  const asset = await ctx.store.write(
    async (tx) => {
      const asset = await requireAsset(tx, id);
      await forgetRelevant(tx, id);
      await deleteOwned(tx, asset);
      await markHalfDeleted(tx);
      return asset;
    },
    [...OWNED, 'meta'],
  );
  noteHalfDeleted(ctx.store, asset);
  // The cached answers of other assets list this one among their labels' assets.
  ctx.assetCache.clear();
  for (let attempt = 0; ; attempt++) {
    try {
      await unlinkAndLog(ctx, asset);
      break;
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
      const wait = UNLINK_RETRIES_MS[attempt];
      if (wait === undefined) throw unfinishedError();
      await sleep(wait);
    }
  }
  await noteDeleteFinished(ctx, id).catch((error: unknown) => console.error('delete: putting back the whole-deletes marker failed', error));
  return id;
}

/** The waits before each new try of a full-disk delete's second step: about 2 s in all. */
const UNLINK_RETRIES_MS = [50, 100, 200, 400, 600, 800];

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
  }, [...OWNED, ...UNLINK_SCOPE]);
}
