import { type FetchAbort, type FetchReply, type FetchRequest } from './protocol.ts';

/**
 * The Worker's side of one request (./protocol.ts): answers `message` with `answer` and streams the
 * response back on `port`, chunk by chunk as it is produced; a FetchAbort from the page aborts the
 * request's signal and cancels the body.
 */
export async function serveFetch(message: FetchRequest, port: MessagePort, answer: (request: Request) => Promise<Response>): Promise<void> {
  const abort = new AbortController();
  port.onmessage = (event: MessageEvent<FetchAbort>) => {
    if (event.data?.type === 'abort') abort.abort();
  };
  const reply = (data: FetchReply) => port.postMessage(data);
  try {
    const request = new Request(message.url, { method: message.method, headers: message.headers, body: message.body, signal: abort.signal });
    const response = await answer(request);
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
