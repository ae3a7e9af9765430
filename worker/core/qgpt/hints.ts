import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';
import type { QGPTHintsInput, QGPTQuestionOutput } from '../model/schemas.ts';

/** `POST /qgpt/hints`. */
export async function hints(_ctx: Context, _input: QGPTHintsInput): Promise<QGPTQuestionOutput> {
  return notYet('POST /qgpt/hints')();
}
