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
 * The `/qgpt/stream` requests answering right now in this instance, by conversation, in its memory (they
 * end with it anyway). One per store, so separate apps (tests) do not share them. Other instances of the
 * same library are reached through the host's OtherInstances (endRunning).
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

  /**
   * Ends the target's requests running here and waits until they have finished (stored what they
   * produced, sent their terminal frame). A stop names its socket: it never ends what another socket, in
   * this tab or another, asked for; a reset ends every request of its socket; a delete of the conversation
   * ends its request whoever started it.
   */
  async end(target: RunningTarget, reason: EndReason): Promise<void> {
    const ending = [...this.#byConversation].filter(([conversation, running]) =>
      target.scope === 'socket' ? running.socket === target.socket : conversation === target.conversation && (target.scope === 'conversation' || running.socket === target.socket),
    );
    for (const [, running] of ending) running.abort.abort(reason);
    await Promise.all(ending.map(([, running]) => running.done));
  }
}

/** Which running requests an end is for. */
export type RunningTarget =
  /** The conversation's, whoever started it (a delete of the conversation). */
  | { scope: 'conversation'; conversation: string }
  /** The conversation's when this socket started it (a `{stop}` frame; undefined: the unnamed socket). */
  | { scope: 'stop'; conversation: string; socket: string | undefined }
  /** Every one the socket started (a `{reset}` frame). */
  | { scope: 'socket'; socket: string | undefined };

/**
 * The requests running on other instances of the same library, for a host whose library several
 * processes serve (the Node host on a shared PostgreSQL relays through its database, worker/node/pg/
 * running-relay.ts). A host alone with its library (the browser's one service worker per origin, a Node
 * host on PGlite) has none: NO_OTHER_INSTANCES.
 */
export interface OtherInstances {
  /** Before a request starts here: false when another instance is answering in the conversation. */
  claim(conversation: string, socket: string | undefined): Promise<boolean>;
  /** After a claimed request has ended here (what it produced is stored). */
  release(conversation: string): void;
  /** Ends the target's requests on the other instances; resolves once they have ended. */
  end(target: RunningTarget, reason: EndReason): Promise<void>;
}

export const NO_OTHER_INSTANCES: OtherInstances = {
  claim: async () => true,
  release() {},
  end: async () => {},
};

/** The FAILED frame's message for a question in a conversation that is answering another one (a 409). */
export function busyMessage(conversation: string): string {
  return `Conversation '${conversation}' is answering another request; wait for its last frame or stop it first.`;
}

/** Ends the target's requests here and on the other instances; resolves once every one has ended. */
export async function endRunning(ctx: { store: Store; otherInstances: OtherInstances }, target: RunningTarget, reason: EndReason): Promise<void> {
  await Promise.all([runningRequests(ctx.store).end(target, reason), ctx.otherInstances.end(target, reason)]);
}

const registries = new WeakMap<Store, RunningRequests>();

export function runningRequests(store: Store): RunningRequests {
  let registry = registries.get(store);
  if (!registry) registries.set(store, (registry = new RunningRequests()));
  return registry;
}
