/**
 * The messages between a page and the embedded mode's dedicated Worker (worker.ts; the page's side is
 * app/client/embedded.ts): HTTP requests and their streamed responses over MessagePorts, since a
 * dedicated Worker receives no `fetch` events. Nothing here runs.
 *
 * Page -> worker (`worker.postMessage(request, [port])`): a FetchRequest and a port for its reply. On that
 * port the worker sends one FetchHead, then FetchChunk messages as the body is produced, then FetchEnd (or
 * FetchFailed); the page sends FetchAbort on it when the caller aborts or cancels the body.
 *
 * The RPC handshake is the service worker's (worker/browser/protocol.ts RPC_CONNECT), posted to the Worker.
 */

export const FETCH = 'tessera:fetch';

export interface FetchRequest {
  type: typeof FETCH;
  /** The request's URL, already under the worker's base (the page maps aliases to it). */
  url: string;
  method: string;
  headers: [string, string][];
  /** The whole body (transferred); null for GET and HEAD and bodiless requests. */
  body: ArrayBuffer | null;
}

export type FetchReply =
  | { type: 'head'; status: number; statusText: string; headers: [string, string][] }
  | { type: 'chunk'; bytes: Uint8Array }
  | { type: 'end' }
  | { type: 'failed'; message: string };

export interface FetchAbort {
  type: 'abort';
}
