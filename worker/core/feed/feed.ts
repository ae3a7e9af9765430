/**
 * One committed change to one asset. `seq` is allocated inside the write's own transaction, so
 * sequence numbers are gap-free, survive worker restarts and follow commit order.
 */
export interface ChangeEvent {
  seq: number;
  asset: string;
  kind: 'created' | 'updated' | 'deleted';
}

/** Carries change events from the worker that committed them to every listener (other tabs too). */
export interface Feed {
  publish(events: readonly ChangeEvent[]): void;
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

/**
 * Calls every listener with the event. Events are published after their write committed: one listener's
 * error must neither skip the others (the asset cache among them) nor reach the writer as a failure.
 */
export function notify(listeners: Iterable<(event: ChangeEvent) => void>, event: ChangeEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error('feed: a change listener failed', error);
    }
  }
}

/** A Feed inside one JavaScript realm: for tests and single-process hosts. */
export class MemoryFeed implements Feed {
  private listeners = new Set<(event: ChangeEvent) => void>();

  publish(events: readonly ChangeEvent[]): void {
    for (const event of events) notify(this.listeners, event);
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
