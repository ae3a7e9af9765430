import type { z } from 'zod';
import { badRequest, describeIssues, invalid } from './errors.ts';
import { IdSchema } from './model/schemas.ts';

/**
 * The one place service inputs are checked (services.ts), whoever calls: a route hands over what it
 * parsed from HTTP, the RPC path what the page sent. Any JSON-like value may come in; a bad one is a
 * 400 (a parameter) or a 422 (a body that does not fit its contract schema), and nothing runs.
 */

/** A body the operation needs, checked against its contract schema. */
export function check<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  if (value === undefined || value === null) throw invalid(`The request needs a ${what} body.`, 'missing_body');
  return parse(schema, value);
}

/** Like `check` for bodies the contract makes optional: absent stays absent. */
export function checkOptional<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> | undefined {
  if (value === undefined || value === null) return undefined;
  return parse(schema, value);
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  let parsed: z.ZodSafeParseResult<z.infer<S>>;
  try {
    parsed = schema.safeParse(value);
  } catch (error) {
    // A recursive schema (a filter's operations) fed a value that refers to itself recurses until the
    // stack ends (primitives.ts: no cycle support), as it would for one nested past the stack's depth.
    if (error instanceof RangeError) throw invalid('The body is nested too deeply, or refers to itself.', 'invalid_body');
    throw error;
  }
  if (!parsed.success) throw invalid(describeIssues(parsed.error), 'invalid_body');
  return parsed.data;
}

export function id(value: unknown, what = 'asset'): string {
  const parsed = IdSchema.safeParse(value);
  if (!parsed.success) throw badRequest(`The ${what} id must be a non-empty string.`, 'invalid_parameter');
  return parsed.data;
}

export function idList(value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest('ids must be a list of asset ids.', 'invalid_parameter');
  return value.map((v) => id(v));
}

/** A boolean option, `fallback` when absent. */
export function flag(options: object | undefined, name: string, fallback: boolean): boolean {
  const value = (options as Record<string, unknown> | undefined)?.[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw badRequest(`Option '${name}' must be true or false.`, 'invalid_parameter');
  return value;
}

/** A whole number in min..max. */
export function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`'${name}' must be a whole number from ${min} to ${max}; got '${String(value)}'.`, 'invalid_parameter');
  }
  return value;
}

/** A whole-number option in min..max, undefined when absent. */
export function count(options: object | undefined, name: string, min: number, max: number): number | undefined {
  const value = (options as Record<string, unknown> | undefined)?.[name];
  return value === undefined || value === null ? undefined : wholeNumber(value, name, min, max);
}

/** An optional string option. */
export function optionalText(options: object | undefined, name: string): string | undefined {
  const value = (options as Record<string, unknown> | undefined)?.[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`Option '${name}' must be a string.`, 'invalid_parameter');
  return value;
}
