/**
 * Turns a function that reports text chunks through a callback while it works (the answerers' `onDelta`)
 * into an async generator: it yields the chunks as they are produced (those that pile up while the
 * consumer is busy come as one joined chunk) and returns the function's result, or throws its error.
 */
export async function* deltasOf<T>(run: (emit: (chunk: string) => void) => Promise<T>): AsyncGenerator<string, T> {
  let pending: string[] = [];
  let wake: (() => void) | undefined;
  let settled: { value: T } | { error: unknown } | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  run((chunk) => {
    if (settled || chunk === '') return;
    pending.push(chunk);
    notify();
  }).then(
    (value) => ((settled = { value }), notify()),
    (error: unknown) => ((settled = { error }), notify()),
  );
  for (;;) {
    if (pending.length === 0 && !settled) await new Promise<void>((resolve) => (wake = resolve));
    if (pending.length > 0) {
      const chunk = pending.join('');
      pending = [];
      yield chunk;
      continue;
    }
    if (settled && 'error' in settled) throw settled.error;
    if (settled) return settled.value;
  }
}
