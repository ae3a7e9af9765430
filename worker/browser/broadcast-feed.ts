import { notify, type ChangeEvent, type Feed } from '../core/feed/feed.ts';
import { CHANGE_CHANNEL } from './protocol.ts';


/**
 * The Feed across tabs: published events go out on a BroadcastChannel, which reaches pages and
 * other workers of this origin (but not this worker itself, so local listeners are called directly).
 */
export class BroadcastFeed implements Feed {
  private channel = new BroadcastChannel(CHANGE_CHANNEL);
  private listeners = new Set<(event: ChangeEvent) => void>();

  constructor() {
    this.channel.onmessage = (message: MessageEvent<ChangeEvent>) => this.emit(message.data);
  }

  publish(events: readonly ChangeEvent[]): void {
    for (const event of events) {
      try {
        this.channel.postMessage(event);
      } catch (error) {
        // A closed channel: other tabs find the change in the log (design: the message only says "look").
        console.error('feed: broadcasting a change failed', error);
      }
      this.emit(event);
    }
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ChangeEvent): void {
    notify(this.listeners, event);
  }
}
