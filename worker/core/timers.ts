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
