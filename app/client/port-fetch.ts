/**
 * The page's side of one request to the embedded mode's Worker (worker/embedded/protocol.ts): posts the
 * request with a MessagePort and builds the Response from the replies, its body a stream fed chunk by
 * chunk. Aborting the request's signal, or cancelling the body, tells the Worker to stop.
 */
import { FETCH, type FetchAbort, type FetchReply, type FetchRequest } from '../../worker/embedded/protocol.ts';

/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([204, 205, 304]);

export interface PortFetchTarget {
  postMessage(message: FetchRequest, transfer: Transferable[]): void;
}

/**
 * Sends `request` to `target` as a request for `url` (the request's URL moved under the Worker's base).
 * `track` is told how to fail the call (the Worker died) and returns what forgets that once it settles.
 */
export async function fetchOverPort(target: PortFetchTarget, request: Request, url: string, track: (fail: (error: Error) => void) => () => void): Promise<Response> {
  request.signal.throwIfAborted();
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
  const { port1, port2 } = new MessageChannel();
  target.postMessage({ type: FETCH, url, method: request.method, headers: [...request.headers], body }, body ? [port2, body] : [port2]);
  return new Promise<Response>((resolve, reject) => {
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    const stop = () => port1.postMessage({ type: 'abort' } satisfies FetchAbort);
    // Replies already on their way when the call settled are dropped with the port's listener.
    const finish = () => {
      request.signal.removeEventListener('abort', onAbort);
      untrack();
      port1.onmessage = null;
      port1.close();
    };
    const fail = (error: unknown) => {
      finish();
      reject(error);
      stream?.error(error);
    };
    const onAbort = () => {
      stop();
      fail(request.signal.reason);
    };
    const untrack = track(fail);
    request.signal.addEventListener('abort', onAbort, { once: true });
    port1.onmessage = (event: MessageEvent<FetchReply>) => {
      const reply = event.data;
      if (reply.type === 'head') {
        const hasBody = !NULL_BODY.has(reply.status) && request.method !== 'HEAD';
        const body = hasBody
          ? new ReadableStream<Uint8Array>({
              start: (controller) => void (stream = controller),
              cancel: () => {
                stop();
                finish();
              },
            })
          : null;
        resolve(new Response(body, { status: reply.status, statusText: reply.statusText, headers: reply.headers }));
      } else if (reply.type === 'chunk') {
        stream?.enqueue(reply.bytes);
      } else if (reply.type === 'end') {
        finish();
        stream?.close();
      } else {
        fail(new TypeError(`tessera: ${reply.message}`));
      }
    };
  });
}
