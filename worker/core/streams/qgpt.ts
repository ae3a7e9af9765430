/**
 * `/qgpt/stream`: each input frame (a QGPTStreamInput) is answered by a sequence of QGPTStreamOutput
 * frames ending with a terminal status. Question answering arrives with its own issue; until then every
 * input is answered by one FAILED frame, so the socket path is real end to end.
 */
import type { Context } from '../deps.ts';
import { QGPTStreamInputSchema, type QGPTStreamInput, type QGPTStreamOutput } from '../model/schemas.ts';

export const QGPT_NOT_IMPLEMENTED = 'question answering is not implemented yet';

/** Parses one input frame's text; a frame that is not a QGPTStreamInput is answered with FAILED. */
export function parseStreamInput(text: string): { input: QGPTStreamInput } | { error: string; request?: string; conversation?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { error: `the input frame is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = QGPTStreamInputSchema.safeParse(json);
  if (parsed.success) return { input: parsed.data };
  const raw = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return {
    error: `the input frame is not a QGPTStreamInput: ${parsed.error.issues[0]?.path.join('.') || '(frame)'}: ${parsed.error.issues[0]?.message}`,
    ...(typeof raw.request === 'string' ? { request: raw.request } : {}),
    ...(typeof raw.conversation === 'string' ? { conversation: raw.conversation } : {}),
  };
}

/** The output frames answering one input frame. `conversation` is on every frame (clients require it). */
export async function* answerStream(ctx: Context, text: string): AsyncGenerator<QGPTStreamOutput> {
  const parsed = parseStreamInput(text);
  const source = 'input' in parsed ? parsed.input : parsed;
  const request = source.request ?? ctx.newId();
  const conversation = source.conversation ?? '';
  yield {
    conversation,
    request,
    status: 'FAILED',
    errorMessage: 'error' in parsed ? parsed.error : QGPT_NOT_IMPLEMENTED,
  };
}
