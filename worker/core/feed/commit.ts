import type { Context } from '../deps.ts';
import type { WriteTx } from '../store/store.ts';
import type { ChangeEvent } from './feed.ts';

/** Collects which assets a write changed; one event per asset, the strongest kind wins. */
export class ChangeLog {
  readonly changes = new Map<string, ChangeEvent['kind']>();

  created(asset: string) {
    this.changes.set(asset, 'created');
  }
  updated(asset: string) {
    if (!this.changes.has(asset)) this.changes.set(asset, 'updated');
  }
  deleted(asset: string) {
    this.changes.set(asset, 'deleted');
  }
}

const SEQ_KEY = 'seq';

/**
 * Runs one write as one transaction, numbers its changes inside that transaction, and publishes
 * them only after the commit, so a listener never hears of a write that did not happen.
 */
export async function commit<T>(ctx: Context, fn: (tx: WriteTx, log: ChangeLog) => Promise<T>): Promise<T> {
  const events: ChangeEvent[] = [];
  const result = await ctx.store.write(async (tx) => {
    const log = new ChangeLog();
    const out = await fn(tx, log);
    if (log.changes.size > 0) {
      let seq = Number((await tx.get('meta', SEQ_KEY))?.value ?? 0);
      for (const [asset, kind] of log.changes) events.push({ seq: ++seq, asset, kind });
      await tx.put('meta', { id: SEQ_KEY, value: seq });
    }
    return out;
  });
  ctx.feed.publish(events);
  return result;
}

/** The sequence number of the last committed change (0 before any). */
export async function lastSeq(ctx: Context): Promise<number> {
  return ctx.store.read(async (tx) => Number((await tx.get('meta', SEQ_KEY))?.value ?? 0));
}
