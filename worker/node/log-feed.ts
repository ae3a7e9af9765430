/**
 * The Feed of a Node host: change events in seq order, with no gap the change log can fill, from the
 * change log itself (design: the log is the source of truth; a message only says "look at the log").
 *
 * - `publish` (this process's commits, after each one): the event is delivered at once when it is the next
 *   seq; otherwise (a gap: another instance's commit not yet seen) the log is read from the last delivered
 *   seq, which delivers the missing ones and this one in order.
 * - `poke()` (a NOTIFY from another instance on PostgreSQL, a reconnect, the safety poll): reads the log.
 * - A reader further behind than the log reaches (CHANGE_LOG_SIZE) gets what the log still holds: the
 *   jump in seq tells a stream to take a fresh snapshot (stream-sync.ts), the indexes catch up by
 *   themselves (they read the log, or rebuild).
 *
 * One instance on PGlite has no other writer: the log is read only if an event ever arrives out of order.
 */
import { changeKey, loggedChanges, readSeq } from '../core/feed/commit.ts';
import { notify, type ChangeEvent, type Feed } from '../core/feed/feed.ts';
import type { Store } from '../core/store/store.ts';

/** Log entries read per transaction while catching up. */
const PAGE = 1000;

export class LogFeed implements Feed {
  private listeners = new Set<(event: ChangeEvent) => void>();
  private pulling = false;
  private again = false;
  private closed = false;
  private idle: Promise<void> = Promise.resolve();
  private settle: (() => void) | undefined;

  private constructor(
    private readonly store: Store,
    /** The seq of the last event delivered. */
    private cursor: number,
  ) {}

  /** A feed that delivers the changes committed from now on. */
  static async start(store: Store): Promise<LogFeed> {
    return new LogFeed(store, await store.read(readSeq, ['meta']));
  }

  /** The seq of the last event delivered to the listeners. */
  get seq(): number {
    return this.cursor;
  }

  publish(events: readonly ChangeEvent[]): void {
    for (const event of events) {
      if (event.seq <= this.cursor) continue;
      if (event.seq === this.cursor + 1 && !this.pulling) {
        this.cursor = event.seq;
        notify(this.listeners, event);
      } else this.poke();
    }
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Something may have been committed elsewhere: read the log after the last delivered seq. */
  poke(): void {
    if (this.closed) return;
    if (this.pulling) {
      this.again = true;
      return;
    }
    this.pulling = true;
    this.idle = new Promise((resolve) => (this.settle = resolve));
    void this.pull();
  }

  /** Resolves when no read of the log is under way (tests). */
  settled(): Promise<void> {
    return this.idle;
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
  }

  private async pull(): Promise<void> {
    try {
      do {
        this.again = false;
        for (;;) {
          const after = this.cursor;
          const { head, entries } = await this.store.read(
            async (tx) => {
              const head = await readSeq(tx);
              const entries = head > after ? await tx.getRange('changes', changeKey(after), PAGE) : [];
              return { head, entries };
            },
            ['meta', 'changes'],
          );
          if (this.closed) return;
          // The library was reset under us (its seq went back): go on from where it is now.
          if (head < this.cursor) this.cursor = head;
          for (const { seq, asset, kind } of loggedChanges(entries)) {
            if (seq <= this.cursor) continue;
            this.cursor = seq;
            notify(this.listeners, { seq, asset, kind });
          }
          if (entries.length < PAGE || this.cursor >= head) {
            // Entries the log no longer holds (too far behind): skip to the head; the jump says so.
            if (this.cursor < head && entries.length === 0) this.cursor = head;
            break;
          }
        }
      } while (this.again && !this.closed);
    } catch (error) {
      if (!this.closed) console.error('feed: reading the change log failed', error);
    } finally {
      this.pulling = false;
      this.settle?.();
    }
  }
}
