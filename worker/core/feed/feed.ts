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

/** A Feed inside one JavaScript realm: for tests and single-process hosts. */
export class MemoryFeed implements Feed {
  private listeners = new Set<(event: ChangeEvent) => void>();

  publish(events: readonly ChangeEvent[]): void {
    for (const event of events) for (const listener of this.listeners) listener(event);
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
