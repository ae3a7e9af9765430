import type { Context as HonoContext } from 'hono';
import { ApiError, badRequest } from '../errors.ts';

/**
 * Request parsing shared by every route: query parameters to typed values, and the one body reader
 * (size limit, JSON syntax). What the values must be is the services' to check (service-input.ts).
 */

/**
 * A 200 answer of JSON already serialised (a cached body), given as a stream of one chunk rather than as
 * the bytes themselves: Chromium hands a service worker's stream body to the page faster than the same
 * bytes (a 3.2 MB listing: 166 -> 109 ms in a bare worker, as fast as a network response; a 4 KB asset
 * read about 0.5 ms sooner). Its length is still declared, as it would be for the bytes.
 */
export function jsonBytes(c: HonoContext, bytes: Uint8Array<ArrayBuffer>): Response {
  return c.body(oneChunk(bytes), 200, { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) });
}

/** `bytes` as a stream body (see jsonBytes); the bytes are shared, not copied. */
export function oneChunk(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** A `Server-Timing` header's value: each part's milliseconds as `name;dur=ms`, parts not measured left out. */
export function serverTiming(parts: Record<string, number | undefined>): string {
  return Object.entries(parts)
    .filter(([, ms]) => ms !== undefined)
    .map(([name, ms]) => `${name};dur=${ms!.toFixed(3)}`)
    .join(', ');
}

/** A boolean query parameter; anything but true/false/1/0 is a 400. */
export function queryFlag(c: HonoContext, name: string, fallback: boolean): boolean {
  const value = c.req.query(name);
  if (value === undefined || value === '') return fallback;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw badRequest(`Query parameter '${name}' must be true or false; got '${value}'.`, 'invalid_parameter');
}

/** A whole-number query parameter, or undefined when absent; anything else is a 400 (its range is the service's to check). */
export function queryNumber(c: HonoContext, name: string): number | undefined {
  const value = c.req.query(name);
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw badRequest(`Query parameter '${name}' must be a whole number; got '${value}'.`, 'invalid_parameter');
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
 * The JSON body (at most `limit` bytes, else 413), for a service to check: malformed JSON is a 400; an
 * empty body gives `undefined` (the contract makes most bodies optional; the service decides). Typed
 * `any` because it is handed as it is to a service operation, which checks it against its schema.
 */
export async function readJson(c: HonoContext, limit: number): Promise<any> {
  const text = await readText(c.req.raw, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON: ${(error as Error).message}`, 'malformed_json');
  }
}
