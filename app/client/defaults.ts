/**
 * What the socket, shim and RPC clients use when not told otherwise: the base given to `register()` and
 * `ready()` (index.ts fills these in; kept apart so that those modules need not import index.ts).
 */
export const clientDefaults: { base: string; aliases: string[]; ready: () => Promise<void> } = {
  base: '/api',
  aliases: [],
  ready: () => Promise.resolve(),
};

/** Resolves when the worker controls this page: at once if it does, else through `ready()`. */
export function whenControlled(): Promise<void> {
  return typeof navigator !== 'undefined' && navigator.serviceWorker?.controller ? Promise.resolve() : clientDefaults.ready();
}
