import type { Context } from '../deps.ts';
import type { RelevantRecord } from '../store/records.ts';

/**
 * Relevant snippets handed out by relevance, kept so that a question may name one by its id alone (the
 * wire `RelevantQGPTSeed.id`). They live in a ring of RING_SIZE slots (the record key): the id handed out
 * is `<slot>.<nonce>`, so an id whose slot was reused since resolves to nothing rather than to another
 * snippet. One transaction per relevance call.
 */
export const RING_SIZE = 2000;
const CURSOR_ID = 'qgpt.relevant.cursor';

export type NewRelevant = Omit<RelevantRecord, 'id' | 'nonce' | 'created'>;

/** Stores the snippets (in order) and answers their ids. */
export async function storeRelevant(ctx: Context, items: readonly NewRelevant[]): Promise<string[]> {
  if (items.length === 0) return [];
  const created = ctx.now().toISOString();
  const nonces = items.map(() => ctx.newId().replace(/-/g, '').slice(0, 16));
  return ctx.store.write(async (tx) => {
    const cursor = Number((await tx.get('meta', CURSOR_ID))?.value ?? 0);
    const slots = items.map((_, i) => String((cursor + i) % RING_SIZE));
    await Promise.all([
      ...items.map((item, i) => tx.put('relevant', { ...item, id: slots[i]!, nonce: nonces[i]!, created })),
      tx.put('meta', { id: CURSOR_ID, value: (cursor + items.length) % RING_SIZE }),
    ]);
    return slots.map((slot, i) => `${slot}.${nonces[i]}`);
  });
}

/**
 * The stored snippets of some ids, in order (undefined for an id that is unknown or whose slot was reused).
 * Each record comes back with `id` set to the id that was handed out.
 */
export async function readRelevant(ctx: Context, ids: readonly string[]): Promise<(RelevantRecord | undefined)[]> {
  if (ids.length === 0) return [];
  const keys = ids.map((id) => id.split('.'));
  const found = await ctx.store.read((tx) => tx.getMany('relevant', [...new Set(keys.map(([slot]) => slot!))]), ['relevant']);
  const bySlot = new Map(found.map((r) => [r.id, r]));
  return keys.map(([slot, nonce], i) => {
    const record = bySlot.get(slot!);
    return record && nonce && record.nonce === nonce ? { ...record, id: ids[i]! } : undefined;
  });
}
