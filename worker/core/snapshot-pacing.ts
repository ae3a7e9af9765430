/**
 * When an index's snapshot (the search index's, the vectors') may next be written. A snapshot only speeds
 * up a worker's start; the change log covers whatever came after it. So it is written a quiet moment after
 * the last change, and no sooner after the previous save than SAVE_COST_FACTOR times what that save took:
 * a big library's snapshot (45 MB of vectors at 100,000 assets) is not written after every small edit, and
 * saving takes at most about 5% of the time. Once many changes are unsaved (an import), EAGER_SAVE_COST_FACTOR
 * times: replaying them would make the next start slow.
 */

/** A save's cost and when it ended (`performance.now()`); `NEVER_SAVED` before the first. */
export interface LastSave {
  ms: number;
  end: number;
}

export const NEVER_SAVED: LastSave = { ms: 0, end: -Infinity };

/** A snapshot is written at most once every this many times what writing the last one took (at most 5% of the time)... */
const SAVE_COST_FACTOR = 20;
/** ...or this many times, once many changes are unsaved (at most 20%). */
const EAGER_SAVE_COST_FACTOR = 4;

/** How long to wait from `now` before writing: at least `quietMs`, and the spacing after `last`. */
export function snapshotWait(quietMs: number, last: LastSave, eager: boolean, now = performance.now()): number {
  return Math.max(quietMs, (eager ? EAGER_SAVE_COST_FACTOR : SAVE_COST_FACTOR) * last.ms - (now - last.end));
}
