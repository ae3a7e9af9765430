import type { z } from 'zod';

/** An error with its HTTP status; the app turns it into `{"error": {status, code, message}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 413 | 422 | 500 | 501 | 503 | 507,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toJSON() {
    return { error: { status: this.status, code: this.code, message: this.message } };
  }
}

export const badRequest = (message: string, code = 'bad_request') => new ApiError(400, code, message);
export const invalid = (message: string, code = 'invalid_content') => new ApiError(422, code, message);
export const notFound = (kind: string, id: string) =>
  new ApiError(404, `${kind.replace(/ /g, '_')}_not_found`, `No ${kind} with id '${id}'.`);

/** Whether `error` is the browser refusing a write for a full disk (a QuotaExceededError, or its message). */
export function isQuotaExceeded(error: unknown): boolean {
  return error instanceof Error && (error.name === 'QuotaExceededError' || /quota/i.test(error.message));
}

/**
 * Any error as the ApiError the API answers: the one mapping behind the app's error handler, the RPC
 * path and the worker's last-resort catch. An ApiError as it is; a full disk 507; anything else 500.
 */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isQuotaExceeded(error)) {
    return new ApiError(
      507,
      'storage_full',
      "Storage is full: the browser refused to store more data (this site's storage quota is used up). Nothing was changed; delete assets or free disk space, then try again.",
    );
  }
  return new ApiError(500, 'internal_error', error instanceof Error ? error.message : String(error));
}

/** A schema's complaints about an input, the first five, as one message. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}
