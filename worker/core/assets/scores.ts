import type { ServiceContext } from '../deps.ts';
import { commit } from '../feed/commit.ts';
import type { SeededScore, SeededScoreIncrement } from '../model/schemas.ts';
import { requireAsset } from './read.ts';

const COUNTERS = ['reuse', 'update', 'reference', 'priority', 'searched'] as const satisfies readonly (keyof SeededScore)[];

/** Each flag set in `asset` (or `assets`) of the increment bumps that counter of the asset's Score by one. */
export function incrementScores(ctx: ServiceContext, id: string, increment: SeededScoreIncrement | undefined): Promise<void> {
  return commit(ctx, async (tx, log) => {
    const asset = await requireAsset(tx, id);
    let changed = false;
    for (const flags of [increment?.asset, increment?.assets]) {
      for (const counter of COUNTERS) {
        if (flags?.[counter]) {
          asset.score[counter] = (asset.score[counter] ?? 0) + 1;
          changed = true;
        }
      }
    }
    if (!changed) return;
    await tx.put('assets', asset);
    log.updated(id);
  }, ['assets']);
}
