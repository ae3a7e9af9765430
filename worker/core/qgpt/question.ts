import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';
import type { QGPTQuestionInput, QGPTQuestionOutput } from '../model/schemas.ts';

export interface AnswerOptions {
  signal?: AbortSignal;
  /** Called with each chunk of the first answer's text as it is produced (the stream's IN-PROGRESS deltas). */
  onDelta?: (text: string) => void;
}

/** `POST /qgpt/question`. */
export async function question(_ctx: Context, _input: QGPTQuestionInput, _options: AnswerOptions = {}): Promise<QGPTQuestionOutput> {
  return notYet('POST /qgpt/question')();
}
