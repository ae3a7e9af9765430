/** A timer that does not keep a Node process alive (tests, the bench); a no-op in browsers. */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
