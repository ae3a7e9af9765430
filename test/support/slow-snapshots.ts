import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { WriteTx } from '../../worker/core/store/store.ts';

/**
 * A memory store whose writes of the `indexes` collection alone (the snapshots' saves) take `delayMs`
 * longer: a save then costs that, and the next is spaced by it (worker/core/snapshot-pacing.ts).
 */
export class SlowSnapshots extends MemoryStore {
  constructor(private readonly delayMs: number) {
    super();
  }

  override async write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    if (scope?.length === 1 && scope[0] === 'indexes') await new Promise((r) => setTimeout(r, this.delayMs));
    return super.write(fn, scope);
  }
}
