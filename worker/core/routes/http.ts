import type { Context as HonoContext } from 'hono';
import type { z } from 'zod';
import { ApiError, badRequest, invalid } from '../errors.ts';

/** Request parsing shared by every route: query flags, bodies (size, syntax, schema), path ids. */

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** A boolean query parameter; anything but true/false/1/0 is a 400. */
export function queryFlag(c: HonoContext, name: string, fallback: boolean): boolean {
  const value = c.req.query(name);
  if (value === undefined || value === '') return fallback;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw badRequest(`Query parameter '${name}' must be true or false; got '${value}'.`, 'invalid_parameter');
}

/** A whole-number query parameter in 1..max, or undefined when absent; anything else is a 400. */
export function queryCount(c: HonoContext, name: string, max: number): number | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw badRequest(`Query parameter '${name}' must be a whole number from 1 to ${max}; got '${value}'.`, 'invalid_parameter');
  }
  return Number(value);
}

/** A whole-number query parameter in 0..max (default 1,000,000), or undefined when absent; anything else is a 400. */
export function queryNumber(c: HonoContext, name: string, max = 1_000_000): number | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,7}$/.test(value) || Number(value) > max) {
    throw badRequest(`Query parameter '${name}' must be a whole number from 0 to ${max}; got '${value}'.`, 'invalid_parameter');
  }
  return Number(value);
}

/**
 * The request body's chunks as they arrive, refusing (413) a body over `limit` bytes as soon as it passes
 * it, without buffering it: for bodies read as a stream (a backup restore) and for readText.
 */
export async function* bodyChunks(request: Request, limit: number): AsyncGenerator<Uint8Array, void, undefined> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      yield value;
    }
  } finally {
    // Stopped early (too large, or the caller gave up on a bad line): nothing more is read.
    await reader.cancel().catch(() => undefined);
  }
}

/** Reads the request body as text, refusing more than `limit` bytes (a 413) without buffering them. */
export async function readText(request: Request, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(request, limit)) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const tooLarge = (limit: number) =>
  new ApiError(413, 'body_too_large', `The request body is larger than the limit of ${limit} bytes.`);

/**
 * The JSON body, validated against a contract schema. Malformed JSON is a 400; content that does
 * not fit the schema (missing fields, wrong types, unknown enum strings) is a 422. An empty body
 * gives `undefined` (the contract makes most bodies optional; the service decides what it needs).
 */
export async function readBody<S extends z.ZodType>(c: HonoContext, schema: S, limit: number): Promise<z.infer<S> | undefined> {
  const text = await readText(c.req.raw, limit);
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON: ${(error as Error).message}`, 'malformed_json');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalid(describeIssues(parsed.error), 'invalid_body');
  return parsed.data;
}

/** Like readBody, for operations that cannot do anything without a body. */
export async function requireBody<S extends z.ZodType>(c: HonoContext, schema: S, limit: number, what: string): Promise<z.infer<S>> {
  const body = await readBody(c, schema, limit);
  if (body === undefined) throw invalid(`The request needs a ${what} body.`, 'missing_body');
  return body;
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}
