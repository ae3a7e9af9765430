import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';
import type { QGPTRelevanceInput, QGPTRelevanceOutput } from '../model/schemas.ts';

/** `POST /qgpt/relevance`. */
export async function relevance(_ctx: Context, _input: QGPTRelevanceInput): Promise<QGPTRelevanceOutput> {
  return notYet('POST /qgpt/relevance')();
}
