/**
 * Runs async functions one at a time, in call order: an index that loads, catches up and saves from
 * several callers must never interleave two of those, nor the memory store two writes. A failure rejects
 * its own call only.
 */
export function exclusive(): <T>(fn: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  };
}
