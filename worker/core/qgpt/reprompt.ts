import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';
import type { QGPTRepromptInput, QGPTRepromptOutput } from '../model/schemas.ts';

/** `POST /qgpt/reprompt`. */
export async function reprompt(_ctx: Context, _input: QGPTRepromptInput): Promise<QGPTRepromptOutput> {
  return notYet('POST /qgpt/reprompt')();
}
