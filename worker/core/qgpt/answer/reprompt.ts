/**
 * `POST /qgpt/reprompt`: a follow-up question and its conversation turned into a standalone query for
 * relevance.
 *
 * - With a chat endpoint configured (chat-settings.ts), the model rewrites the follow-up; an empty or failed
 *   answer falls back to the rule below.
 * - Otherwise the follow-up keeps its words and gains the salient words of earlier turns that it does not
 *   already say (no stopwords or numbers): the most recent user turns first, identifiers before plain words
 *   within a turn, then identifiers from assistant turns; at most CARRIED_WORDS. "how do I test it?" after
 *   "parse a yaml config file in python" becomes "how do I test it? parse yaml config file python".
 *
 * A follow-up without text takes the most recent user turn's; with neither it is a 422.
 */
import type { ServiceContext } from '../../deps.ts';
import { invalid } from '../../errors.ts';
import type { QGPTRepromptInput, QGPTRepromptOutput } from '../../model/schemas.ts';
import { ChatError, streamChat, type ChatMessage } from './chat.ts';
import { chatTurns, type Turn } from './generative.ts';
import { meaningfulTerms, mentionedIn, salientWords, type SalientWord } from './terms.ts';
import { chatSettingsRecord } from './chat-settings.ts';

export const CARRIED_WORDS = 6;

export const REPROMPT_SYSTEM_PROMPT =
  'Rewrite the user\'s follow-up question as one standalone search query that can be understood without the ' +
  'conversation: keep the names, identifiers, languages and libraries the conversation is about. Answer with ' +
  'the query only: no quotes, no explanation.';

export async function reprompt(ctx: ServiceContext, input: QGPTRepromptInput, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<QGPTRepromptOutput> {
  const turns: Turn[] = (input.conversation.iterable ?? []).map((m) => ({ role: m.role, text: m.text }));
  const followUp = input.query.trim() || [...turns].reverse().find((t) => t.role === 'USER' && t.text.trim() !== '')?.text.trim();
  if (!followUp) throw invalid('A reprompt needs a follow-up query, or a conversation with a user turn.', 'query_required');
  const earlier = turns.filter((t) => t.text.trim() !== followUp);

  const settings = await chatSettingsRecord.active(ctx.store);
  if (settings && earlier.length > 0) {
    const messages: ChatMessage[] = [
      { role: 'system', content: REPROMPT_SYSTEM_PROMPT },
      ...chatTurns(earlier),
      { role: 'user', content: `Follow-up question: ${followUp}\n\nStandalone query:` },
    ];
    try {
      const text = await streamChat(ctx, settings, messages, options);
      const query = text.trim().split('\n')[0]!.trim().replace(/^["'`]+|["'`]+$/g, '').trim();
      if (query !== '') return { query };
    } catch (error) {
      if (!(error instanceof ChatError)) throw error;
    }
  }
  return { query: carryTerms(followUp, earlier) };
}

/** Ids are no words to search by: an extractive answer's "Source: 'name' (asset <uuid>)" names one. */
const UUIDS = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** The follow-up with the salient words of earlier turns it does not say yet. */
export function carryTerms(followUp: string, turns: readonly Turn[]): string {
  const said = meaningfulTerms(followUp);
  const picked: SalientWord[] = [];
  const take = (words: SalientWord[]) => {
    for (const word of words) {
      if (picked.length >= CARRIED_WORDS) return;
      if (mentionedIn(word, said) || picked.some((p) => p.term === word.term)) continue;
      picked.push(word);
    }
  };
  const newestFirst = [...turns].reverse();
  for (const turn of newestFirst.filter((t) => t.role === 'USER' || t.role === 'UNKNOWN')) {
    const words = salientWords(turn.text.replace(UUIDS, ' '));
    take([...words.filter((w) => w.identifier), ...words.filter((w) => !w.identifier)]);
  }
  for (const turn of newestFirst.filter((t) => t.role === 'ASSISTANT')) take(salientWords(turn.text.replace(UUIDS, ' ')).filter((w) => w.identifier));
  return picked.length === 0 ? followUp : `${followUp} ${picked.map((w) => w.text).join(' ')}`;
}
