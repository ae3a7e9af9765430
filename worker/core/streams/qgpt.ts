/**
 * `/qgpt/stream`: each input frame (a QGPTStreamInput) is answered by a sequence of QGPTStreamOutput
 * frames ending with a terminal status; every frame carries `conversation` and `request` (the client's
 * value or a generated id). One socket carries many inputs; requests run concurrently, one per
 * conversation (see qgpt-exchange.ts for a question's frames).
 *
 * - `{reset: true}`: every request running on the same socket ends (with RESET, keeping what it produced),
 *   then one RESET frame. The socket is the `tessera-socket` header's id (streams/protocol.ts); requests
 *   of other sockets, in this tab or another, run on.
 * - `{conversation, stop: true}`: that conversation's running request ends (with STOPPED, keeping what it
 *   produced) when this socket started it, then one STOPPED frame; also when nothing of this socket's was
 *   running there (stopping is idempotent). Another socket's request runs on, as with a reset.
 * - `relevance` and/or `question`: an exchange. Both at once without `relevance.options.question` is the
 *   documented error: one FAILED frame (statusCode 422).
 * - A frame that is not a QGPTStreamInput: one FAILED frame (400 not JSON, 422 misfit).
 */
import type { ServiceContext } from '../deps.ts';
import type { QGPTStreamInput, QGPTStreamOutput } from '../model/schemas.ts';
import { QGPTStreamInputSchema } from '../model/schemas.ts';
import { answerExchange, type Plan } from './qgpt-exchange.ts';
import { busyMessage, endRunning, runningRequests } from './running.ts';

export const BOTH_INPUTS_ERROR =
  'An input carries both relevance and question: send relevance with options.question set to true to get relevance and answers in one request, or send one of them.';
export const NOTHING_TO_ANSWER = 'An input needs relevance or question (or stop, or reset).';

type Parsed = { input: QGPTStreamInput } | { error: string; status: number; request?: string; conversation?: string };

/** Parses one input frame's text; a frame that is not a QGPTStreamInput is answered with FAILED. */
export function parseStreamInput(text: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `the input frame is not valid JSON: ${(error as Error).message}`, status: 400 };
  }
  const parsed = QGPTStreamInputSchema.safeParse(json);
  if (parsed.success) return { input: parsed.data };
  const raw = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return {
    error: `the input frame is not a QGPTStreamInput: ${parsed.error.issues[0]?.path.join('.') || '(frame)'}: ${parsed.error.issues[0]?.message}`,
    status: 422,
    ...(typeof raw.request === 'string' ? { request: raw.request } : {}),
    ...(typeof raw.conversation === 'string' ? { conversation: raw.conversation } : {}),
  };
}

/** What an exchange input asks for, or the error that answers it. */
function planOf(input: QGPTStreamInput): Plan | { error: string; status: number } {
  const { relevance, question } = input;
  if (relevance && question && !relevance.options?.question) return { error: BOTH_INPUTS_ERROR, status: 422 };
  // With options.question, relevance does both steps; a question sent alongside adds nothing.
  if (relevance) return { kind: 'relevance', input: relevance, answer: relevance.options?.question === true };
  if (question) return { kind: 'question', input: question };
  return { error: NOTHING_TO_ANSWER, status: 422 };
}

/**
 * The output frames answering one input frame. `closed` aborts when the client goes away (its socket
 * closed): a running exchange then ends as if stopped. `socket` is the id of the socket the frame came
 * on (undefined: the unnamed socket of clients that send none).
 *
 * An exchange is registered on the first `next()`, before anything is awaited: once the caller has
 * asked for the first frame, a stop or reset that comes after finds it.
 */
export async function* answerStream(ctx: ServiceContext, text: string, closed?: AbortSignal, socket?: string): AsyncGenerator<QGPTStreamOutput> {
  const parsed = parseStreamInput(text);
  if ('error' in parsed) {
    yield { conversation: parsed.conversation ?? '', request: parsed.request ?? ctx.newId(), status: 'FAILED', errorMessage: parsed.error, statusCode: parsed.status };
    return;
  }
  const { input } = parsed;
  const request = input.request ?? ctx.newId();
  if (input.reset) {
    await endRunning(ctx, { scope: 'socket', socket }, 'reset');
    yield { conversation: input.conversation ?? '', request, status: 'RESET' };
    return;
  }
  if (input.stop) {
    if (!input.conversation) {
      yield { conversation: '', request, status: 'FAILED', errorMessage: 'A stop needs the conversation to stop.', statusCode: 422 };
      return;
    }
    await endRunning(ctx, { scope: 'stop', conversation: input.conversation, socket }, 'stop');
    yield { conversation: input.conversation, request, status: 'STOPPED' };
    return;
  }
  const plan = planOf(input);
  if ('error' in plan) {
    yield { conversation: input.conversation ?? '', request, status: 'FAILED', errorMessage: plan.error, statusCode: plan.status };
    return;
  }
  const conversation = input.conversation || ctx.newId();
  if (runningRequests(ctx.store).get(conversation)) {
    yield { conversation, request, status: 'FAILED', errorMessage: busyMessage(conversation), statusCode: 409 };
    return;
  }
  yield* answerExchange(ctx, { conversation, request, plan, closed, socket });
}
