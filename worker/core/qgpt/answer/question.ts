/**
 * `POST /qgpt/question`: answers from the relevant seeds of a question input.
 *
 * - Without a configured endpoint (or with it disabled): the extractive answerer (answer/extractive.ts).
 * - With one (chat-settings.ts): the model's answer first, grounded in the numbered snippets and ending with
 *   a "Sources:" list we compute from its [n] citations, then the extractive answers. The generated answer's
 *   score is the mean relevance (answer/extractive.ts `passageRelevance`) of the snippets it cites, half the
 *   mean over all snippets given when it cites none; the extractive answers after it are capped at that score
 *   so the list stays best first.
 * - When the endpoint fails (unreachable, non-2xx, a malformed or truncated stream, no first byte within
 *   30 s): the extractive answers, the first one opening with a note naming the endpoint and the reason.
 */
import type { ServiceContext } from '../../deps.ts';
import type { QGPTQuestionAnswer, QGPTQuestionInput, QGPTQuestionOutput } from '../../model/schemas.ts';
import { ChatError, type ChatOptions } from './chat.ts';
import { extractiveAnswers, passageRelevance, MAX_ANSWERS } from './extractive.ts';
import { generativeAnswer, type Turn } from './generative.ts';
import { turnsOf } from './history.ts';
import { passagesOf } from './relevant-seeds.ts';
import { assetIdsOfPassages } from './sources.ts';
import { answerScore, type Passage } from './passage.ts';
import { chatSettingsRecord } from './chat-settings.ts';

export { passagesOf } from './relevant-seeds.ts';

export interface AnswerOptions {
  signal?: AbortSignal;
  /**
   * Called with each chunk of the first answer's text as it is produced (the stream's IN-PROGRESS deltas).
   * The chunks add up to `answers.iterable[0].text`, except after a model failure mid-answer: then the
   * chunks are the model's partial text, then a blank line and the fallback's text (which alone is
   * `answers.iterable[0].text`).
   */
  onDelta?: (text: string) => void;
  /** Earlier turns of the conversation, oldest first; when given, `input.messages` is not read. */
  history?: Turn[];
  /** The chat endpoint's timeout before the first byte and between reads (tests). Default 30 s. */
  timeoutMs?: number;
}

/** A question's answers and what they drew on. */
export interface AnsweredQuestion {
  output: QGPTQuestionOutput;
  /** The assets whose snippets the answers used (cited by the model, or shown), in order; for conversations. */
  assets: string[];
  /** Which answerer produced the first answer. */
  answerer: 'extractive' | 'generative';
  /** Why the configured model was not used, when it failed. */
  fallback?: string;
}

/** `POST /qgpt/question`. */
export async function question(ctx: ServiceContext, input: QGPTQuestionInput, options: AnswerOptions = {}): Promise<QGPTQuestionOutput> {
  return (await questionWithSources(ctx, input, options)).output;
}

/**
 * The question's answers with the assets they drew on (what the stream links a conversation to).
 * Throws `relevant_seed_unusable` (422) for an empty or unusable relevant list before anything is asked.
 * When `signal` aborts, rejects with its reason (no fallback).
 */
export async function questionWithSources(ctx: ServiceContext, input: QGPTQuestionInput, options: AnswerOptions = {}): Promise<AnsweredQuestion> {
  // Widened first: comparing the deep wire type with passagesOf's parameter overflows the type checker.
  const relevant = input.relevant as unknown as { iterable: readonly unknown[] };
  const passages = await passagesOf(ctx, relevant);
  return answerPassages(ctx, input.query, passages, options.history ?? (await turnsOf(ctx, input.messages ?? undefined)), options);
}

/** Answers a query from passages already resolved. */
export async function answerPassages(
  ctx: ServiceContext,
  query: string,
  passages: readonly Passage[],
  history: readonly Turn[],
  options: AnswerOptions = {},
): Promise<AnsweredQuestion> {
  const settings = await chatSettingsRecord.active(ctx.store);
  options.signal?.throwIfAborted();
  if (!settings) return extractive(query, passages, options);

  let emitted = 0;
  const chat: ChatOptions = {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    onDelta: (text) => {
      emitted += text.length;
      options.onDelta?.(text);
    },
  };
  try {
    const generated = await generativeAnswer(ctx, settings, query, passages, history, chat);
    const relevance = (list: readonly Passage[]) => mean(list.map((p) => passageRelevance(query, p, passages)));
    const score = answerScore(generated.cited.length > 0 ? relevance(generated.cited) : 0.5 * relevance(generated.given));
    const rest = extractiveAnswers(query, passages, MAX_ANSWERS - 1).map((a) => ({ score: Math.min(a.score, score), text: a.text }));
    return {
      output: { answers: { iterable: [{ score, text: generated.text }, ...rest] } },
      assets: assetIdsOfPassages(generated.cited.length > 0 ? generated.cited : generated.given),
      answerer: 'generative',
    };
  } catch (error) {
    if (!(error instanceof ChatError)) throw error;
    const note = `(The chat model at ${settings.url} failed: ${error.reason}; showing passages from your library instead.)`;
    const fallback = extractive(query, passages, {}, note);
    options.onDelta?.(`${emitted > 0 ? '\n\n' : ''}${fallback.output.answers.iterable[0]?.text ?? note}`);
    return { ...fallback, fallback: error.reason };
  }
}

function extractive(query: string, passages: readonly Passage[], options: AnswerOptions, note?: string): AnsweredQuestion {
  const answers = extractiveAnswers(query, passages);
  const iterable: QGPTQuestionAnswer[] = answers.map((a, i) => ({ score: a.score, text: i === 0 && note ? `${note}\n\n${a.text}` : a.text }));
  if (iterable.length === 0 && note) iterable.push({ score: 0, text: note });
  if (iterable[0]) options.onDelta?.(iterable[0].text);
  return { output: { answers: { iterable } }, assets: assetIdsOfPassages(answers.map((a) => a.passage)), answerer: 'extractive' };
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

