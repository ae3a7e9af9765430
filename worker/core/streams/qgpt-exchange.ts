/**
 * One `/qgpt/stream` exchange: a question asked in a conversation, answered as frames.
 *
 * Frames: `INITIALIZED` at once; then, when an answer is asked for, `IN-PROGRESS` frames whose
 * `question.answers.iterable[0].text` is the next chunk of the first answer (a delta; `score` 0, as the
 * answer is scored only once complete); then one terminal frame:
 * - `COMPLETED` (no new text), once the exchange is stored. When relevance ran it carries `relevance`
 *   (the relevant snippets, and with `options.question` the complete `answer` with every answer's score).
 * - `STOPPED` (after a stop, or when the client went away) or `RESET` (after a reset), once what was
 *   produced is stored: the query, and the answer text sent so far when there was some.
 * - `FAILED` with `errorMessage` and `statusCode` (an ApiError's status, else 500); nothing is stored.
 *
 * Stored: the conversation (created with the given id when it does not exist, named after its first
 * query), a USER message (the query), an ASSISTANT message (exactly the text sent as deltas; none for
 * relevance alone), and links between the conversation and the assets the answer drew on (those it cited,
 * or showed; after a stop, those of the relevant snippets). Earlier turns of the conversation go to the
 * answerer as its history, unless the client sent its own `messages`.
 */
import type { ServiceContext } from '../deps.ts';
import { ApiError } from '../errors.ts';
import type {
  QGPTQuestionInput,
  QGPTRelevanceInput,
  QGPTRelevanceOutput,
  QGPTStreamOutput,
  RelevantQGPTSeeds,
} from '../model/schemas.ts';
import type { Turn } from '../qgpt/answer/generative.ts';
import { assetIdsOfPassages } from '../qgpt/answer/sources.ts';
import { readConversation, saveExchange } from '../qgpt/conversations.ts';
import { passagesOf, questionWithSources, type AnsweredQuestion } from '../qgpt/answer/question.ts';
import { questionOf, relevance } from '../qgpt/relevance.ts';
import { deltasOf } from './deltas.ts';
import { busyMessage, runningRequests, type EndReason } from './running.ts';

export type Plan =
  | { kind: 'relevance'; input: QGPTRelevanceInput; /** options.question: answer after relevance. */ answer: boolean }
  | { kind: 'question'; input: QGPTQuestionInput };

export interface ExchangeRequest {
  conversation: string;
  request: string;
  plan: Plan;
  /** Aborts when the client went away. */
  closed?: AbortSignal;
  /** The socket the input came on (a reset of that socket ends it). */
  socket?: string | undefined;
}

const ABORTED = Symbol('aborted');

/** Settles with the promise, or with ABORTED as soon as the signal aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The frames of one exchange. The caller has checked that the conversation runs no other request: this
 * registers it (synchronously, on the first `next()`) before anything is awaited.
 */
export async function* answerExchange(ctx: ServiceContext, exchange: ExchangeRequest): AsyncGenerator<QGPTStreamOutput> {
  const { conversation, request, plan } = exchange;
  const frame = (fields: Omit<QGPTStreamOutput, 'conversation' | 'request'>): QGPTStreamOutput => ({ conversation, request, ...fields });
  const abort = new AbortController();
  let finish!: () => void;
  runningRequests(ctx.store).add(conversation, { request, socket: exchange.socket, abort, done: new Promise<void>((resolve) => (finish = resolve)) });
  const onClosed = () => abort.abort('closed' satisfies EndReason);
  exchange.closed?.addEventListener('abort', onClosed, { once: true });
  if (exchange.closed?.aborted) onClosed();

  const query = plan.input.query;
  let sent = '';
  let relevant: RelevantQGPTSeeds | undefined;
  let found: QGPTRelevanceOutput | undefined;
  let terminal: QGPTStreamOutput;
  let claimed = false;
  try {
    // Another instance of the library may be answering in this conversation (the host's OtherInstances).
    claimed = await ctx.otherInstances.claim(conversation, exchange.socket);
    if (claimed) {
      yield frame({ status: 'INITIALIZED' });
      terminal = yield* run();
    } else terminal = frame({ status: 'FAILED', errorMessage: busyMessage(conversation), statusCode: 409 });
  } catch (error) {
    terminal = claimed && abort.signal.aborted ? await endedEarly() : failed(error);
  } finally {
    exchange.closed?.removeEventListener('abort', onClosed);
    // Before the terminal frame: a stop or reset waiting on this request answers after it.
    finish();
    if (claimed) ctx.otherInstances.release(conversation);
  }
  yield terminal;

  /** Relevance and/or the answer; the IN-PROGRESS frames, then the COMPLETED frame once stored. */
  async function* run(): AsyncGenerator<QGPTStreamOutput, QGPTStreamOutput> {
    const stored = await readConversation(ctx, conversation);
    const history: Turn[] = (stored?.messages ?? []).map((m) => ({ role: m.role, text: m.text }));
    let input: QGPTQuestionInput;
    if (plan.kind === 'relevance') {
      const { options, ...rest } = plan.input;
      const result = await unlessAborted(relevance(ctx, { ...rest, options: { ...options, question: false } }), abort.signal);
      if (result === ABORTED) throw abort.signal.reason;
      found = result;
      relevant = result.relevant;
      if (!plan.answer) {
        await saveExchange(ctx, { conversation, query, assets: await assetsOfRelevant() });
        return frame({ status: 'COMPLETED', relevance: found });
      }
      input = questionOf(plan.input, relevant);
    } else {
      input = plan.input;
      relevant = input.relevant;
    }

    // Earlier turns: the client's own `messages` when it sent them, else the stored conversation's.
    const options = { signal: abort.signal, ...(input.messages ? {} : { history }) };
    const deltas = deltasOf((onDelta) => questionWithSources(ctx, input, { ...options, onDelta }));
    let answered: AnsweredQuestion;
    for (;;) {
      const next = deltas.next();
      next.catch(() => {}); // an answerer that rejects after a stop is no longer listened to
      const step = await unlessAborted(next, abort.signal);
      if (step === ABORTED) throw abort.signal.reason;
      if (step.done) {
        answered = step.value;
        break;
      }
      sent += step.value;
      yield frame({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ text: step.value, score: 0 }] } } });
    }
    if (abort.signal.aborted) throw abort.signal.reason;
    // An answerer that did not report (all of) its text as deltas: the rest as one last delta.
    const { output } = answered;
    const first = output.answers.iterable[0];
    if (first && first.text.length > sent.length && first.text.startsWith(sent)) {
      const rest = first.text.slice(sent.length);
      sent = first.text;
      yield frame({ status: 'IN-PROGRESS', question: { answers: { iterable: [{ text: rest, score: first.score }] } } });
    }
    await saveExchange(ctx, { conversation, query, answer: sent, assets: answered.assets });
    return frame({ status: 'COMPLETED', ...(found ? { relevance: { ...found, answer: output } } : {}) });
  }

  /** After a stop, a reset or the client going away: store what was produced, answer STOPPED or RESET. */
  async function endedEarly(): Promise<QGPTStreamOutput> {
    try {
      const assets = sent ? await assetsOfRelevant() : [];
      await saveExchange(ctx, { conversation, query, answer: sent || undefined, assets });
    } catch (error) {
      return failed(error);
    }
    const status = abort.signal.reason === ('reset' satisfies EndReason) ? 'RESET' : 'STOPPED';
    return frame({ status, ...(found ? { relevance: found } : {}) });
  }

  /** The assets of the relevant snippets (what a stopped answer or relevance alone drew on). */
  async function assetsOfRelevant(): Promise<string[]> {
    return relevant ? assetIdsOfPassages(await passagesOf(ctx, relevant, { allowEmpty: true })) : [];
  }

  function failed(error: unknown): QGPTStreamOutput {
    const statusCode = error instanceof ApiError ? error.status : 500;
    const errorMessage = error instanceof Error ? error.message : String(error);
    return frame({ status: 'FAILED', errorMessage, statusCode });
  }
}
