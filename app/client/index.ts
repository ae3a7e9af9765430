/**
 * The page-side client of Tessera: registers the service worker and tells when the page can talk to it.
 *
 * ```ts
 * import { register, ready } from './client/index.ts';
 * register();            // once, as early as possible (or register({base: '/tessera'}))
 * await ready();         // the worker controls this page and answers under the base
 * const assets = await (await fetch('/api/assets')).json();
 * ```
 *
 * Beside it: `TesseraSocket` and `installWebSocketShim()` (the stream paths as WebSockets, socket.ts and
 * shim.ts), `rpc()` (the operations as typed calls over a MessageChannel, rpc.ts) and `registerFolder()` /
 * `pickFolder()` (folders the user granted, for `/qgpt/relevance` paths, folders.ts), and the wire models'
 * types (`Asset`, `Seed`, …: model.ts).
 */
import { checkAlias, checkBase, DEFAULT_BASE, scriptUrlFor } from '../../worker/core/base-path.ts';
import { clientDefaults } from './defaults.ts';
import { delay } from './delay.ts';
import { waitHealthy } from './health.ts';
import { CLAIM } from '../../worker/browser/protocol.ts';

export { TesseraSocket, type SocketOptions } from './socket.ts';
export { installWebSocketShim, type ShimOptions } from './shim.ts';
export { createRpc, rpc, TesseraRpcError, type RpcOptions, type TesseraRpc } from './rpc.ts';
export { listFolders, pickFolder, registerFolder, removeFolder, type GrantedFolder } from './folders.ts';
export { createApi, TesseraApiError, type TesseraApi, type ApiOptions } from './api.ts';
export { watchAssets, type AssetChanges } from './changes.ts';
export type * from './model.ts';

export interface RegisterOptions {
  /**
   * Path under which the worker answers the API. Default `'/api'`. It reaches the worker as a parameter
   * of its script URL (`/sw.js?base=/tessera`): one base per origin, as there is one worker.
   */
  base?: string;
  /**
   * Also answered as the base: other paths (`['/api']` keeps old URLs working), and origins
   * (`'http://localhost:39300'`, answered at their root path, as the desktop service is).
   */
  aliases?: string[];
  /** URL of the worker script. Default `'/sw.js'`. */
  scriptUrl?: string;
}

interface Registered {
  base: string;
  aliases: string[];
  scriptUrl: string;
  registration: Promise<ServiceWorkerRegistration>;
}

/** How long to wait for an active worker, then for `controllerchange`, before asking again. */
const CLAIM_RETRY_MS = 1000;
/** Claims asked for before `ready()` gives up on a worker that never takes control of the page. */
const CLAIM_ATTEMPTS = 15;

let registered: Registered | undefined;
let announce: () => void = () => {};
const firstRegister = new Promise<void>((resolve) => (announce = resolve));
let readiness: Promise<void> | undefined;
clientDefaults.ready = () => ready();

/**
 * Registers the worker (a classic script, `{scope: '/'}`). Idempotent: later calls return the first
 * registration; calling it again with different options rejects.
 */
export function register(options: RegisterOptions = {}): Promise<void> {
  let base: string;
  let aliases: string[];
  try {
    base = checkBase(options.base ?? DEFAULT_BASE);
    aliases = (options.aliases ?? []).map(checkAlias);
  } catch (error) {
    return Promise.reject(error);
  }
  const scriptUrl = options.scriptUrl ?? '/sw.js';
  if (registered) {
    if (registered.base !== base || registered.scriptUrl !== scriptUrl || registered.aliases.join() !== aliases.join()) {
      return Promise.reject(new Error(`tessera: already registered (${registered.scriptUrl}, base ${registered.base})`));
    }
    return registered.registration.then(() => undefined);
  }
  if (!('serviceWorker' in navigator)) {
    return Promise.reject(new Error('tessera: service workers are not available (a secure context is required)'));
  }
  const registration = navigator.serviceWorker.register(scriptUrlFor(scriptUrl, { base, aliases }, location.href), { scope: '/' });
  const entry: Registered = { base, aliases, scriptUrl, registration };
  registered = entry;
  clientDefaults.base = base;
  clientDefaults.aliases = aliases;
  // A failed registration (offline first visit, script error) may be retried by calling register() again.
  registration.catch(() => {
    if (registered === entry) registered = undefined;
  });
  announce();
  return registration.then(() => undefined);
}

/**
 * Resolves once this page is controlled by the worker AND the worker answers
 * `GET <base>/.well-known/health` with a body starting `ok`; after that, `fetch(base + '/...')` reaches
 * the worker. Works on the first visit (waits for the worker's `clients.claim()`), on a reload, and on a
 * hard reload (Shift+Reload leaves the page uncontrolled though the worker is active: the page asks the
 * worker to claim it).
 *
 * `ready()` never registers by itself: called before `register()`, it waits until `register()` is called,
 * so the options live in one place. It rejects if registration fails or the worker never answers `ok`;
 * a later call (after a new `register()` if registration failed) tries again.
 */
export function ready(): Promise<void> {
  if (!readiness) {
    readiness = firstRegister.then(() => {
      if (!registered) throw new Error('tessera: registration failed; call register() again');
      return becomeReady(registered);
    });
    readiness.catch(() => {
      readiness = undefined;
    });
  }
  return readiness;
}

async function becomeReady({ base, registration }: Registered): Promise<void> {
  await registration;
  await takeControl();
  await waitHealthy(base);
}

/**
 * Waits until a worker controls the page, asking the active one to claim it. Gives up after
 * CLAIM_ATTEMPTS rounds (about 15 s: no worker activates, or none claims the page) with an error.
 */
async function takeControl(): Promise<void> {
  const container = navigator.serviceWorker;
  for (let attempt = 0; !container.controller; attempt++) {
    if (attempt === CLAIM_ATTEMPTS) {
      const active = (await Promise.race([container.ready, delay(0).then(() => undefined)]))?.active;
      throw new Error(
        `tessera: the worker did not take control of this page after ${CLAIM_ATTEMPTS} attempts (${active ? `active worker ${active.scriptURL} does not claim it` : 'no worker became active'}); reload the page`,
      );
    }
    // `ready` resolves once a registration for this page has an active (activating or activated) worker.
    const registration = await Promise.race([container.ready, delay(CLAIM_RETRY_MS).then(() => undefined)]);
    if (container.controller) return;
    if (!registration) continue;
    const changed = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
    // On a first visit the worker claims the page itself on activate; asking again is harmless. After a
    // hard reload nothing else would: the page stays uncontrolled until it asks.
    registration.active?.postMessage({ type: CLAIM });
    await Promise.race([changed, delay(CLAIM_RETRY_MS)]);
  }
}
