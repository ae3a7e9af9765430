import type { Store } from '../store/store.ts';

/** Why a running request was ended early; decides its terminal status. */
export type EndReason = 'stop' | 'reset' | 'closed';

export interface Running {
  request: string;
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

  /** Ends every running request and waits until all have finished. */
  async endAll(reason: EndReason): Promise<void> {
    await Promise.all([...this.#byConversation.keys()].map((conversation) => this.end(conversation, reason)));
  }
}

const registries = new WeakMap<Store, RunningRequests>();

export function runningRequests(store: Store): RunningRequests {
  let registry = registries.get(store);
  if (!registry) registries.set(store, (registry = new RunningRequests()));
  return registry;
}
