/** A timer that does not keep a Node process alive (tests, the bench); a no-op in browsers. */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** Node's check-phase tasks (setImmediate), which can run before a 0 ms timer; absent in browsers. */
export const nodeImmediate = (() => {
  const g = globalThis as { setImmediate?: (fn: () => void) => unknown; clearImmediate?: (handle: unknown) => void };
  return g.setImmediate && g.clearImmediate ? { set: g.setImmediate, clear: g.clearImmediate } : undefined;
})();

/**
 * Resolves on the next macrotask, so requests queued meanwhile get their turn (used between batches).
 * Measured in a Chromium service worker busy in 20 ms slices for 1.5 s: with `setTimeout(0)` pings
 * waited p50 17 ms, max 70-90 ms; a MessageChannel or `scheduler.postTask` did about as well; but
 * `scheduler.yield()` resumes before pending fetch events, so a ping waited the whole 1.5 s.
 */
export function yieldToEventLoop(): Promise<void> {
  return sleep(0);
}

/** Resolves after `ms` (a wait before trying again). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A loop that must not hold the thread long runs in slices of about `budgetMs`: `due()` says the slice has
 * run its time, `next()` yields to the event loop (requests queued meanwhile get their turn) and starts the
 * next slice.
 */
export function timeSlices(budgetMs: number) {
  let start = performance.now();
  return {
    due: () => performance.now() - start > budgetMs,
    async next(): Promise<void> {
      await yieldToEventLoop();
      start = performance.now();
    },
  };
}

/**
 * How long background work (a catch-up that follows writes, a snapshot, the vectors' matrix) holds the
 * thread before it lets other work in. A catch-up had applied a whole import request's 1,000 documents at
 * once (about 50 ms at 20,000 assets), and the import's transaction waited behind it with the database idle.
 */
export const BACKGROUND_SLICE_MS = 5;

/**
 * Work that can pause: a generator that yields where it may stop for a while and returns its result.
 * `finish` runs it to the end at once; `finishInSlices` lets the event loop in every `budgetMs` or so.
 */
export type Steps<T> = Generator<void, T, void>;

export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function finishInSlices<T>(steps: Steps<T>, budgetMs: number): Promise<T> {
  const slices = timeSlices(budgetMs);
  for (;;) {
    if (slices.due()) await slices.next();
    const step = steps.next();
    if (step.done) return step.value;
  }
}
