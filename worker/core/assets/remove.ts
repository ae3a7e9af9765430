import type { ServiceContext } from '../deps.ts';
import { isQuotaExceeded } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import { unlinkAll } from '../links/associate.ts';
import { unlinkConversations } from '../qgpt/conversations.ts';
import { forgetRelevant } from '../qgpt/relevant-ring.ts';
import type { AssetRecord } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';
import { requireAsset } from './read.ts';

/**
 * Deletes the asset with its formats, contents, annotations and activities, and the snippets relevance
 * kept of it, and unlinks it. (Its vectors go when the vector index applies the logged delete.)
 *
 * On a full disk it still works, so that room can be made: see deleteOnFullDisk.
 */
export async function deleteAsset(ctx: ServiceContext, id: string): Promise<string> {
  try {
    return await deleteWhole(ctx, id);
  } catch (error) {
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
 *    whole or not at all, and its space is free;
 * 2. the usual transaction for the rest: the asset unlinked from its tags, websites, summaries, persons
 *    and conversations, and the delete logged (and then published).
 *
 * Should the second step fail (a crash between the two, or a disk still full), the asset is gone but
 * those records still name it and the change log lacks its delete: the error is answered (507), and the
 * search index and the streams learn of the delete at their next rebuild or snapshot.
 */
async function deleteOnFullDisk(ctx: ServiceContext, id: string): Promise<string> {
  const asset = await ctx.store.write(async (tx) => {
    const asset = await requireAsset(tx, id);
    await forgetRelevant(tx, id);
    await deleteOwned(tx, asset);
    return asset;
  }, OWNED);
  return commit(ctx, async (tx, log) => {
    await unlinkAll(ctx, tx, asset);
    await unlinkConversations(tx, asset);
    log.deleted(id);
    return id;
  });
}

async function deleteOwned(tx: WriteTx, asset: AssetRecord): Promise<void> {
  for (const formatId of asset.formats) {
    await tx.delete('formats', formatId);
    await tx.delete('contents', formatId);
  }
  for (const annotationId of asset.annotations) await tx.delete('annotations', annotationId);
  for (const activityId of asset.activities) await tx.delete('activities', activityId);
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
  });
}
