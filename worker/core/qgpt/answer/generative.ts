/**
 * The generative answerer: the configured chat-completions endpoint answers from the numbered snippets
 * and cites them as [n]; we add the "Sources:" list ourselves, from the citations that name a snippet
 * given (the model's own list, if any, is not trusted).
 */
import type { ServiceContext } from '../../deps.ts';
import type { Passage } from './passage.ts';
import type { ChatSettings } from './chat-settings.ts';
import { streamChat, type ChatMessage, type ChatOptions } from './chat.ts';
import { sourceLabel } from './sources.ts';

/** At most this many snippets go into the prompt, each cut to SNIPPET_CHARS characters. */
export const PROMPT_SNIPPETS = 8;
const SNIPPET_CHARS = 4000;

export const SYSTEM_PROMPT =
  'You answer questions about the user\'s own code and notes. Answer only from the numbered snippets in the ' +
  'user\'s message, and cite the snippets you use as [1], [2] and so on. If the snippets do not hold the answer, ' +
  'say so; do not invent code, names or facts that are not in them. Be concise.';

/** One earlier turn of the conversation. */
export interface Turn {
  role: 'USER' | 'ASSISTANT' | 'SYSTEM' | 'UNKNOWN';
  text: string;
}

export interface GeneratedAnswer {
  /** The model's text followed by the Sources list. */
  text: string;
  /** The passages it cited, in citation order. */
  cited: Passage[];
  /** The passages it was given. */
  given: Passage[];
}

/** The chat messages for a question: the rules, the earlier turns, then the snippets and the question. */
export function questionPrompt(query: string, passages: readonly Passage[], history: readonly Turn[] = []): ChatMessage[] {
  const snippets = passages
    .slice(0, PROMPT_SNIPPETS)
    .map((p, i) => `[${i + 1}] from ${sourceLabel(p)}:\n${p.text.length > SNIPPET_CHARS ? p.text.slice(0, SNIPPET_CHARS) : p.text}`)
    .join('\n\n');
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    ...chatTurns(history),
    { role: 'user', content: `Snippets:\n\n${snippets}\n\nQuestion: ${query}` },
  ];
}

/**
 * At most this many characters of earlier turns go into the prompt, the newest turns first: past the
 * model's context window every question would fail over to the extractive answer. About 4,000 tokens.
 */
export const HISTORY_CHARS = 16_000;

/**
 * Earlier turns as chat messages (system and unknown turns are left out: the rules are ours): the newest
 * that fit in HISTORY_CHARS together; a newest turn longer than that alone keeps its end.
 */
export function chatTurns(history: readonly Turn[]): ChatMessage[] {
  const turns = history.filter((t) => (t.role === 'USER' || t.role === 'ASSISTANT') && t.text.trim() !== '');
  const kept: ChatMessage[] = [];
  let left = HISTORY_CHARS;
  for (let i = turns.length - 1; i >= 0 && left > 0; i--) {
    const { role, text } = turns[i]!;
    if (text.length > left && kept.length > 0) break;
    const content = text.length > left ? text.slice(-left) : text;
    kept.unshift({ role: role === 'USER' ? 'user' : 'assistant', content });
    left -= content.length;
  }
  return kept;
}

/**
 * Asks the model; streams its text through `onDelta`, then the Sources list as one last delta (so the
 * deltas add up to the answer's text). Throws ChatError when the endpoint fails.
 */
export async function generativeAnswer(
  ctx: ServiceContext,
  settings: ChatSettings,
  query: string,
  passages: readonly Passage[],
  history: readonly Turn[],
  options: ChatOptions = {},
): Promise<GeneratedAnswer> {
  const given = passages.slice(0, PROMPT_SNIPPETS);
  const text = await streamChat(ctx, settings, questionPrompt(query, given, history), options);
  const cited = citedPassages(text, given);
  const sources = sourcesList(cited, given);
  options.onDelta?.(sources);
  return { text: `${text}${sources}`, cited, given };
}

/** The passages named by `[n]` citations (also `[1, 3]` and `[1][2]`), in order of first citation. */
export function citedPassages(text: string, given: readonly Passage[]): Passage[] {
  const seen = new Set<number>();
  for (const group of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of group[1]!.split(',').map((x) => Number(x.trim()))) {
      if (n >= 1 && n <= given.length) seen.add(n);
    }
  }
  return [...seen].map((n) => given[n - 1]!);
}

function sourcesList(cited: readonly Passage[], given: readonly Passage[]): string {
  if (cited.length > 0) return `\n\nSources:\n${cited.map((p) => `[${given.indexOf(p) + 1}] ${sourceLabel(p)}`).join('\n')}`;
  return `\n\nSources: the model cited none of the snippets it was given:\n${given.map((p, i) => `[${i + 1}] ${sourceLabel(p)}`).join('\n')}`;
}
