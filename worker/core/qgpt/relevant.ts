import type { Context } from '../deps.ts';
import type { RelevantRecord } from '../store/records.ts';

/**
 * Relevant snippets handed out by relevance, kept so that a question may name one by its id alone
 * (the wire `RelevantQGPTSeed.id`). Written in one transaction per relevance call.
 */
export async function readRelevant(ctx: Context, ids: readonly string[]): Promise<(RelevantRecord | undefined)[]> {
  if (ids.length === 0) return [];
  const found = await ctx.store.read((tx) => tx.getMany('relevant', ids), ['relevant']);
  const byId = new Map(found.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
}
