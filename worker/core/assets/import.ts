import type { ServiceContext } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import * as build from '../model/build.ts';
import type { FlattenedAssets, Seeds } from '../model/schemas.ts';
import type { DocumentParts } from '../search/documents.ts';
import { labelFinder } from '../links/labels.ts';
import { STORE_ASSET_SCOPE, storeAsset } from './create.ts';
import { prepareSeed, type PreparedSeed } from './prepare.ts';

/** At most this many seeds in one import (one transaction). */
export const MAX_IMPORT = 5000;
/** Seeds stored between two chances for other requests to run (see importAssets). */
const SLICE = 50;

/**
 * `POST /assets/import` (a Tessera extension, not in the SDK): creates an asset from each seed of a Seeds
 * body, exactly as `POST /assets/create` would, but in one transaction: either every asset is created or,
 * when any seed is refused, none is. Answers the new ids, in the order of the seeds. One transaction for
 * many assets is what makes a library import fast in IndexedDB (a transaction per asset costs milliseconds).
 */
export async function importAssets(ctx: ServiceContext, seeds: Seeds): Promise<FlattenedAssets> {
  if (seeds.iterable.length > MAX_IMPORT) {
    throw new ApiError(413, 'too_many_seeds', `An import holds at most ${MAX_IMPORT} seeds; this one has ${seeds.iterable.length}.`);
  }
  const prepared: PreparedSeed[] = [];
  for (const [i, seed] of seeds.iterable.entries()) {
    try {
      prepared.push(await prepareSeed(ctx, seed));
    } catch (error) {
      if (error instanceof ApiError) throw new ApiError(error.status, error.code, `iterable.${i}: ${error.message}`);
      throw error;
    }
  }
  return commit(ctx, async (tx, log) => {
    // Seeds naming the same new tag or website create it once (labelFinder), so the seeds are stored side
    // by side: the transaction's requests flow without waiting for each other.
    const labels = labelFinder(ctx, tx);
    const stored: Promise<DocumentParts>[] = [];
    let mark: Promise<unknown> | undefined;
    for (let i = 0; i < prepared.length; i += SLICE) {
      const slice = prepared.slice(i, i + SLICE).map((p, j) => storeAsset(ctx, tx, p, seeds.iterable[i + j]!.person ?? undefined, labels));
      // All are awaited together below; one that fails meanwhile is not left unheard (Node's unhandled rejection).
      for (const started of slice) started.catch(() => undefined);
      stored.push(...slice);
      // Between slices the import waits for a read of its transaction, answered once the slice before this
      // one is stored: in IndexedDB (and PostgreSQL) that answer comes as a task, so a request that arrived
      // meanwhile (a search as the user types) is answered then, not after the whole import; and the
      // database still has this slice to store while it waits. (Waiting on anything outside the
      // transaction, a timer, would end it.)
      const previous = mark;
      mark = tx.count('meta');
      mark.catch(() => undefined);
      if (previous) await previous;
    }
    await mark;
    const parts = await Promise.all(stored);
    for (const part of parts) log.created(part.asset.id, part);
    // Made in the transaction: a keyed request keeps it as its response.
    return build.references(parts.map((part) => part.asset.id));
  }, STORE_ASSET_SCOPE);
}
