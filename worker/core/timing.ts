/**
 * Where the time of one request went, in milliseconds by part (a search's `rank`, a relevance call's
 * `load`): the routes answer it as a `Server-Timing` header, which the benchmark reads.
 */
export type Timing<K extends string> = Partial<Record<K, number>>;

/** `fn`, its time added to `timing[key]` (nothing kept without a `timing`). */
export async function timed<K extends string, T>(timing: Timing<K> | undefined, key: K, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    if (timing) timing[key] = (timing[key] ?? 0) + performance.now() - t0;
  }
}

/** `timed` for a synchronous `fn`. */
export function timedSync<K extends string, T>(timing: Timing<K> | undefined, key: K, fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    if (timing) timing[key] = (timing[key] ?? 0) + performance.now() - t0;
  }
}
