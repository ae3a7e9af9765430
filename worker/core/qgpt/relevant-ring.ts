import type { ServiceContext } from '../deps.ts';
import type { RelevantRecord } from '../store/records.ts';
import type { ReadTx, WriteTx } from '../store/store.ts';

/**
 * Relevant snippets handed out by relevance, kept so that a question may name one by its id alone (the
 * wire `RelevantQGPTSeed.id`). They live in a ring of RING_SIZE slots (the record key): the id handed out
 * is `<slot>.<nonce>`, so an id whose slot was reused since resolves to nothing rather than to another
 * snippet. One transaction per relevance call.
 *
 * A deleted asset's snippets leave the ring in the deleting transaction (`forgetRelevant`); one deleted
 * while a relevance call ran is not stored, and reading checks again, so its text is never answered.
 */
export const RING_SIZE = 2000;
const CURSOR_ID = 'qgpt.relevant.cursor';

export type NewRelevant = Omit<RelevantRecord, 'id' | 'nonce' | 'created'>;

/** Stores the snippets (in order) and answers their ids. */
export async function storeRelevant(ctx: ServiceContext, items: readonly NewRelevant[]): Promise<string[]> {
  if (items.length === 0) return [];
  const created = ctx.now().toISOString();
  const nonces = items.map(() => ctx.newId().replace(/-/g, '').slice(0, 16));
  // Scoped: this runs on every relevance call, next to users' writes (assets are only read here).
  return ctx.store.write(async (tx) => {
    const [cursor, live] = await Promise.all([tx.get('meta', CURSOR_ID).then((r) => Number(r?.value ?? 0)), liveAssets(tx, items)]);
    let next = cursor;
    const ids: string[] = [];
    const puts: Promise<void>[] = [];
    items.forEach((item, i) => {
      // An asset deleted since it was ranked gets an id no slot holds ('-' is never a slot).
      if (item.asset !== undefined && !live.has(item.asset)) return void ids.push(`-.${nonces[i]}`);
      const slot = String(next++ % RING_SIZE);
      puts.push(tx.put('relevant', { ...item, id: slot, nonce: nonces[i]!, created }));
      ids.push(`${slot}.${nonces[i]}`);
    });
    await Promise.all([...puts, tx.put('meta', { id: CURSOR_ID, value: next % RING_SIZE })]);
    return ids;
  }, ['relevant', 'meta', 'assets']);
}

/**
 * The stored snippets of some ids, in order (undefined for an id that is unknown or whose slot was reused).
 * Each record comes back with `id` set to the id that was handed out.
 */
export async function readRelevant(ctx: ServiceContext, ids: readonly string[]): Promise<(RelevantRecord | undefined)[]> {
  if (ids.length === 0) return [];
  const keys = ids.map((id) => id.split('.'));
  const { found, live } = await ctx.store.read(async (tx) => {
    const found = await tx.getMany('relevant', [...new Set(keys.map(([slot]) => slot!))]);
    return { found, live: await liveAssets(tx, found) };
  }, ['relevant', 'assets']);
  const bySlot = new Map(found.map((r) => [r.id, r]));
  return keys.map(([slot, nonce], i) => {
    const record = bySlot.get(slot!);
    if (record?.asset !== undefined && !live.has(record.asset)) return undefined;
    return record && nonce && record.nonce === nonce ? { ...record, id: ids[i]! } : undefined;
  });
}

/** Drops every ring entry of a deleted asset; called inside the deleting transaction. */
export async function forgetRelevant(tx: WriteTx, asset: string): Promise<void> {
  const ring = await tx.getAll('relevant');
  await Promise.all(ring.filter((r) => r.asset === asset).map((r) => tx.delete('relevant', r.id)));
}

/** Which of the assets the snippets came from still exist. */
async function liveAssets(tx: ReadTx, items: readonly { asset?: string }[]): Promise<Set<string>> {
  const ids = [...new Set(items.map((i) => i.asset).filter((id) => id !== undefined))];
  return new Set(ids.length === 0 ? [] : (await tx.getMany('assets', ids)).map((a) => a.id));
}
