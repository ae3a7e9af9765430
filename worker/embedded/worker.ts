/**
 * The embedded mode's entry: Tessera's services in a dedicated Worker that a page starts itself
 * (app/client/embedded.ts `startEmbedded()`), for pages that have no service worker (sandboxed frames,
 * webviews, service workers turned off). Bundled by scripts/worker-bundle.ts into `tessera-embedded.js` (at
 * the build's root, in the package's assets), a classic script like `sw.js`.
 *
 * The same app, IndexedDB store and change feed as the service worker (../browser/service-host.ts), so both
 * modes share data on one origin and may run at once: each publishes its commits on the BroadcastChannel
 * `tessera-changes`, which the other's listeners (search index, vectors, asset cache) and every page's
 * streams receive.
 *
 * - `message` FETCH with a port: the request answered by the app, the response streamed back on the port
 *   (./protocol.ts, ./serve-fetch.ts). The base is `/api` unless the script URL names another (`?base=/tessera`).
 * - `message` RPC_CONNECT with a port: the services on that port (../browser/rpc.ts).
 */
import { basePathsOf, DEFAULT_BASE } from '../core/base-path.ts';
import { RPC_CONNECT } from '../browser/protocol.ts';
import { acceptRpc } from '../browser/rpc.ts';
import { createServiceHost } from '../browser/service-host.ts';
import { FETCH, type FetchRequest } from './protocol.ts';
import { serveFetch } from './serve-fetch.ts';

declare const self: DedicatedWorkerGlobalScope;

const BASE = ((): string => {
  try {
    return basePathsOf(self.location.href).base;
  } catch (error) {
    console.error(error);
    return DEFAULT_BASE;
  }
})();

// The lazy scripts and model files are served beside this script (the build's root, the package's assets).
const host = createServiceHost({ base: BASE, assets: new URL('./', self.location.href) });

self.addEventListener('message', (event: MessageEvent<{ type?: unknown }>) => {
  const port = event.ports[0];
  if (!port) return;
  if (event.data?.type === FETCH) void serveFetch(event.data as FetchRequest, port, host.answer);
  else if (event.data?.type === RPC_CONNECT) void acceptRpc(port, host.app);
});
