import type { ServiceContext } from '../../worker/core/deps.ts';

/** A write of this context under way until the returned function is called (a change-log read would wait for it in IndexedDB). */
export function writeUnderWay(ctx: ServiceContext): () => void {
  let end!: () => void;
  void ctx.heard.during(() => new Promise<void>((resolve) => (end = resolve)));
  return end;
}
