/** An error with its HTTP status; the app turns it into `{"error": {status, code, message}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 404 | 413 | 422 | 500 | 501 | 503 | 507,
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

/** A path the API defines whose feature arrives with later work: a clear 501, not a 404. */
export const notYet = (feature: string) => () => {
  throw new ApiError(501, 'not_implemented', `${feature} is not implemented yet.`);
};

/** Whether `error` is the browser refusing a write for a full disk (a QuotaExceededError, or its message). */
export function isQuotaExceeded(error: unknown): boolean {
  return error instanceof Error && (error.name === 'QuotaExceededError' || /quota/i.test(error.message));
}
