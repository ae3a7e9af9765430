import type { Store } from '../store/store.ts';

/** Why a running request was ended early; decides its terminal status. */
export type EndReason = 'stop' | 'reset' | 'closed';

export interface Running {
  request: string;
  /** The socket whose frame started it (the `tessera-socket` header); undefined for a POST without one. */
  socket?: string | undefined;
  abort: AbortController;
  /** Settles once the request has stored what it produced and sent its terminal frame. */
  done: Promise<void>;
}

/**
 * The `/qgpt/stream` requests answering right now, by conversation, in the worker's memory (they end
 * with the worker anyway). One per store, so separate apps (tests) do not share them.
 */
export class RunningRequests {
  readonly #byConversation = new Map<string, Running>();

  get(conversation: string): Running | undefined {
    return this.#byConversation.get(conversation);
  }

  /** Registers a request; its entry goes away when `done` settles. */
  add(conversation: string, running: Running): void {
    this.#byConversation.set(conversation, running);
    void running.done.finally(() => {
      if (this.#byConversation.get(conversation) === running) this.#byConversation.delete(conversation);
    });
  }

  /** Ends the conversation's request, if one runs, and waits until it has finished. */
  async end(conversation: string, reason: EndReason): Promise<void> {
    const running = this.#byConversation.get(conversation);
    if (!running) return;
    running.abort.abort(reason);
    await running.done;
  }

  /**
   * Ends the conversation's request only when `socket` started it (a `{stop}` frame): a stop on one socket
   * never ends what another socket, in this tab or another, asked for.
   */
  async endOn(conversation: string, reason: EndReason, socket: string | undefined): Promise<void> {
    if (this.#byConversation.get(conversation)?.socket !== socket) return;
    await this.end(conversation, reason);
  }

  /**
   * Ends every request the socket started (those started without a socket id when `socket` is undefined)
   * and waits until they have finished. Other sockets' requests, in this tab or another, run on.
   */
  async endAll(reason: EndReason, socket: string | undefined): Promise<void> {
    const mine = [...this.#byConversation].filter(([, running]) => running.socket === socket).map(([conversation]) => conversation);
    await Promise.all(mine.map((conversation) => this.end(conversation, reason)));
  }
}

const registries = new WeakMap<Store, RunningRequests>();

export function runningRequests(store: Store): RunningRequests {
  let registry = registries.get(store);
  if (!registry) registries.set(store, (registry = new RunningRequests()));
  return registry;
}
