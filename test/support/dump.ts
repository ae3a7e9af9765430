import { COLLECTIONS } from '../../worker/core/store/records.ts';
import type { Store } from '../../worker/core/store/store.ts';

/** Every record of every collection: compare two dumps to prove a request changed nothing. */
export function dumpStore(store: Store) {
  return store.read(async (tx) => Object.fromEntries(await Promise.all(COLLECTIONS.map(async (c) => [c, await tx.getAll(c)] as const))));
}
