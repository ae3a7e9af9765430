import { notify, type ChangeEvent, type Feed } from '../core/feed/feed.ts';
import { changeEventsIn } from '../core/streams/stream-sync.ts';
import { CHANGE_CHANNEL } from './protocol.ts';

/**
 * The Feed across tabs: published events go out on a BroadcastChannel, which reaches pages and
 * other workers of this origin (but not this worker itself, so local listeners are called directly).
 * A commit's events go out as one message (changeEventsIn reads it).
 */
export class BroadcastFeed implements Feed {
  private channel = new BroadcastChannel(CHANGE_CHANNEL);
  private listeners = new Set<(event: ChangeEvent) => void>();

  constructor() {
    this.channel.onmessage = (message: MessageEvent<unknown>) => {
      for (const event of changeEventsIn(message.data)) this.emit(event);
    };
  }

  publish(events: readonly ChangeEvent[]): void {
    if (events.length === 0) return;
    try {
      this.channel.postMessage(events);
    } catch (error) {
      // A closed channel: other tabs find the change in the log (design: the message only says "look").
      console.error('feed: broadcasting a change failed', error);
    }
    for (const event of events) this.emit(event);
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops posting and hearing events (a host shutting down, tests). */
  close(): void {
    this.channel.close();
  }

  private emit(event: ChangeEvent): void {
    notify(this.listeners, event);
  }
}
