/**
 * The earlier turns of a question's conversation, from the input's `messages` (references to stored
 * messages; a reference that carries the message's fragment is read from it when the id is unknown).
 */
import type { ServiceContext } from '../../deps.ts';
import type { FlattenedConversationMessages } from '../../model/schemas.ts';
import type { Turn } from './generative.ts';

const ROLES = new Set(['USER', 'ASSISTANT', 'SYSTEM', 'UNKNOWN']);

export async function turnsOf(ctx: ServiceContext, messages: FlattenedConversationMessages | undefined): Promise<Turn[]> {
  const refs = messages?.iterable ?? [];
  if (refs.length === 0) return [];
  const stored = await ctx.store.read((tx) => tx.getMany('messages', refs.map((r) => r.id)), ['messages']);
  const byId = new Map(stored.map((m) => [m.id, m]));
  const turns: Turn[] = [];
  for (const ref of refs) {
    const record = byId.get(ref.id);
    if (record) {
      turns.push({ role: record.role, text: record.text });
      continue;
    }
    const reference = ref.reference as { role?: unknown; fragment?: { string?: { raw?: unknown } } } | undefined;
    const text = reference?.fragment?.string?.raw;
    if (typeof text === 'string') {
      const role = typeof reference?.role === 'string' && ROLES.has(reference.role) ? (reference.role as Turn['role']) : 'UNKNOWN';
      turns.push({ role, text });
    }
  }
  return turns;
}
