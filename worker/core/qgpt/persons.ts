import type { Context } from '../deps.ts';
import { notYet } from '../errors.ts';
import type { QGPTPersonsRelatedInput, QGPTPersonsRelatedOutput } from '../model/schemas.ts';

/** `POST /qgpt/persons/related`. */
export async function personsRelated(
  _ctx: Context,
  _input: QGPTPersonsRelatedInput,
  _options: { transferables?: boolean } = {},
): Promise<QGPTPersonsRelatedOutput> {
  return notYet('POST /qgpt/persons/related')();
}
