/**
 * The embedded mode's entry: Tessera's services in a dedicated Worker that a page starts itself
 * (app/client/embedded.ts `startEmbedded()`), for pages that have no service worker (sandboxed frames,
 * webviews, service workers turned off). Bundled by vite.config.ts into `/tessera-embedded.js`, a classic
 * script like `/sw.js`.
 *
 * The same app, IndexedDB store and change feed as the service worker (../browser/service-host.ts), so both
 * modes share data on one origin and may run at once: each publishes its commits on the BroadcastChannel
 * `tessera-changes`, which the other's listeners (search index, vectors, asset cache) and every page's
 * streams receive.
 *
 * - `message` FETCH with a port: the request answered by the app, the response streamed back on the port
 *   (./protocol.ts). The base is `/api` unless the script URL names another (`?base=/tessera`).
 * - `message` RPC_CONNECT with a port: the services on that port (../browser/rpc.ts).
 */
import { basePathsOf, DEFAULT_BASE } from '../core/base-path.ts';
import { RPC_CONNECT } from '../browser/protocol.ts';
import { acceptRpc } from '../browser/rpc.ts';
import { createServiceHost } from '../browser/service-host.ts';
import { FETCH, type FetchAbort, type FetchReply, type FetchRequest } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const BASE = ((): string => {
  try {
    return basePathsOf(self.location.href).base;
  } catch (error) {
    console.error(error);
    return DEFAULT_BASE;
  }
})();

const host = createServiceHost(BASE);

self.addEventListener('message', (event: MessageEvent<{ type?: unknown }>) => {
  const port = event.ports[0];
  if (!port) return;
  if (event.data?.type === FETCH) void serve(event.data as FetchRequest, port);
  else if (event.data?.type === RPC_CONNECT) void acceptRpc(port, host.app);
});

async function serve(message: FetchRequest, port: MessagePort): Promise<void> {
  const abort = new AbortController();
  port.onmessage = (event: MessageEvent<FetchAbort>) => {
    if (event.data?.type === 'abort') abort.abort();
  };
  const reply = (data: FetchReply) => port.postMessage(data);
  try {
    const request = new Request(message.url, { method: message.method, headers: message.headers, body: message.body, signal: abort.signal });
    const response = await host.answer(request);
    reply({ type: 'head', status: response.status, statusText: response.statusText, headers: [...response.headers] });
    if (response.body) {
      const reader = response.body.getReader();
      abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
      for (;;) {
        const { done, value } = await reader.read();
        if (done || abort.signal.aborted) break;
        // Copied, not transferred: a chunk may be a view of a buffer the app keeps (a cached asset's bytes).
        reply({ type: 'chunk', bytes: value });
      }
    }
    reply({ type: 'end' });
  } catch (error) {
    if (!abort.signal.aborted) reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  } finally {
    port.close();
  }
}
