import type { Context } from '../deps.ts';
import { commit } from '../feed/commit.ts';
import { unlinkAll } from '../links/associate.ts';
import { unlinkConversations } from '../qgpt/conversations.ts';
import { forgetRelevant } from '../qgpt/relevant.ts';
import { requireAsset } from './read.ts';

/**
 * Deletes the asset with its formats, contents, annotations and activities, and the snippets relevance
 * kept of it, and unlinks it. (Its vectors go when the vector index applies the logged delete.)
 */
export function deleteAsset(ctx: Context, id: string): Promise<string> {
  return commit(ctx, async (tx, log) => {
    const asset = await requireAsset(tx, id);
    await unlinkAll(ctx, tx, asset);
    await unlinkConversations(tx, asset);
    await forgetRelevant(tx, id);
    for (const formatId of asset.formats) {
      await tx.delete('formats', formatId);
      await tx.delete('contents', formatId);
    }
    for (const annotationId of asset.annotations) await tx.delete('annotations', annotationId);
    for (const activityId of asset.activities) await tx.delete('activities', activityId);
    await tx.delete('assets', id);
    log.deleted(id);
    return id;
  });
}
