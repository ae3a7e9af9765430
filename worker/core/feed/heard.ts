/**
 * The change events this context has heard on its feed, and whether one of its own writes is under way.
 *
 * Reading the change log waits, in IndexedDB, behind every write transaction queued before it on the same
 * collections, and every write logs its changes: while this context imports (one write after another for
 * seconds), a search that first read the log to learn what changed waited for the import, about a second
 * at a time. What it needed to learn it had heard already: this context's commits publish their events
 * before they answer. So while one of its writes is under way `changesSince` answers from these events
 * when they follow on from the reader's seq without a gap, and reads the log otherwise.
 *
 * What that answer can lack: a commit of another tab or instance whose event has not arrived yet (it comes
 * a moment later, and the next search has it). A write this context acknowledged is never missed: its
 * events are heard before its answer goes out. With no write of its own under way, the log is read as
 * before, which is then quick.
 */
import type { ChangeEvent, Feed } from './feed.ts';

/** Events kept: enough for a catch-up over the whole change log (commit.ts CHANGE_LOG_SIZE). */
const MAX_EVENTS = 10_000;

export class HeardChanges {
  /** By seq, in the order heard (seq order but for other contexts' events crossing). */
  private events = new Map<number, ChangeEvent>();
  private newest = 0;
  private writes = 0;

  constructor(feed: Feed) {
    feed.subscribe((event) => this.hear(event));
  }

  /** Runs a write of this context; `writing` is true until it settles. */
  async during<T>(write: () => Promise<T>): Promise<T> {
    this.writes++;
    try {
      return await write();
    } finally {
      this.writes--;
    }
  }

  /** Whether a write of this context is under way (a read of the change log would wait for it). */
  get writing(): boolean {
    return this.writes > 0;
  }

  /** The events after `seq` up to the newest heard, in seq order; undefined when one of them was not heard. */
  since(seq: number): ChangeEvent[] | undefined {
    const out: ChangeEvent[] = [];
    for (let next = seq + 1; next <= this.newest; next++) {
      const event = this.events.get(next);
      if (!event) return undefined;
      out.push(event);
    }
    return out;
  }

  /**
   * Every change of a library that began empty in this context's lifetime (assets/half-deleted.ts
   * `beganEmpty`), when each was heard; undefined when one was not or none was.
   */
  fromTheStart(): ChangeEvent[] | undefined {
    const all = this.since(0);
    return all && all.length > 0 ? all : undefined;
  }

  private hear(event: ChangeEvent): void {
    this.events.set(event.seq, event);
    if (event.seq > this.newest) this.newest = event.seq;
    // The oldest heard go first: a gap they leave sends a reader that far behind to the log.
    for (const seq of this.events.keys()) {
      if (this.events.size <= MAX_EVENTS) break;
      this.events.delete(seq);
    }
  }
}
