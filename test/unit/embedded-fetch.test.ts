/**
 * The embedded mode's request path without a browser: the page's `fetchOverPort` (app/client/port-fetch.ts)
 * to the Worker's `serveFetch` (worker/embedded/serve-fetch.ts) over a real MessageChannel, as
 * `worker.postMessage` carries it, in front of the core app on the test store.
 */
import { describe, expect, it } from 'vitest';
import { fetchOverPort } from '../../app/client/port-fetch.ts';
import { FETCH, type FetchRequest } from '../../worker/embedded/protocol.ts';
import { serveFetch } from '../../worker/embedded/serve-fetch.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';

/** A `fetch` through the port protocol to `answer`, and the calls still tracked (not settled). */
function connect(answer: (request: Request) => Promise<Response>) {
  const worker = new MessageChannel();
  worker.port2.onmessage = (event: MessageEvent<FetchRequest>) => {
    if (event.data.type === FETCH) void serveFetch(event.data, event.ports[0]!, answer);
  };
  const tracked = new Set<(error: Error) => void>();
  const fetchApi = (input: string, init?: RequestInit) => {
    const request = new Request(new URL(input, 'http://localhost'), init);
    return fetchOverPort(worker.port1, request, request.url, (fail) => {
      tracked.add(fail);
      return () => tracked.delete(fail);
    });
  };
  return { fetchApi, tracked, close: () => worker.port1.close() };
}

/** A streamed body: `first`, then `second` once `release()` is called; notes its cancellation. */
function gatedStream() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state = { cancelled: false, release };
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode('first\n'));
      await gate;
      if (state.cancelled) return;
      controller.enqueue(new TextEncoder().encode('second\n'));
      controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe('the embedded request path', () => {
  it('answers what the app answers: a write with its JSON body, then a read', async () => {
    const api = await createTestApi();
    const { fetchApi, tracked, close } = connect(api.fetch);
    const created = await fetchApi('/api/assets/create?transferables=false', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fragmentSeed(PYTHON_SNIPPET)),
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toContain('application/json');
    const id = ((await created.json()) as { id: string }).id;
    const viaPort = await (await fetchApi(`/api/asset/${id}?transferables=false`)).json();
    const direct = (await api.get(`/asset/${id}?transferables=false`)).json();
    expect(viaPort).toEqual(direct);
    const bad = await fetchApi('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { status: number } }).error.status).toBe(400);
    expect(tracked.size).toBe(0);
    close();
  });

  it('streams the body: the first chunk arrives before the rest is produced', async () => {
    const { body, state } = gatedStream();
    const { fetchApi, tracked, close } = connect(async () => new Response(body, { headers: { 'content-type': 'application/x-ndjson' } }));
    const response = await fetchApi('/api/qgpt/stream', { method: 'POST', body: '{}' });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('first\n');
    state.release();
    expect((await reader.read()).value).toBe('second\n');
    expect((await reader.read()).done).toBe(true);
    expect(tracked.size).toBe(0);
    close();
  });

  it('aborting the request mid-body rejects the read and cancels the stream in the Worker', async () => {
    const { body, state } = gatedStream();
    let workerSignal: AbortSignal | undefined;
    const { fetchApi, tracked, close } = connect(async (request) => {
      workerSignal = request.signal;
      return new Response(body);
    });
    const abort = new AbortController();
    const response = await fetchApi('/api/qgpt/stream', { method: 'POST', body: '{}', signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => state.cancelled).toBe(true);
    expect(workerSignal?.aborted).toBe(true);
    expect(tracked.size).toBe(0);
    state.release();
    close();
  });

  it('cancelling the body cancels the stream in the Worker', async () => {
    const { body, state } = gatedStream();
    const { fetchApi, close } = connect(async () => new Response(body));
    const response = await fetchApi('/api/qgpt/stream', { method: 'POST', body: '{}' });
    await response.body!.cancel();
    await expect.poll(() => state.cancelled).toBe(true);
    state.release();
    close();
  });

  it('a 204 and a HEAD have no body; a failure in the Worker rejects the call', async () => {
    const { fetchApi, close } = connect(async (request) => {
      if (request.url.endsWith('/boom')) throw new Error('boom');
      return request.method === 'HEAD' ? new Response(null, { headers: { 'x-probe': '1' } }) : new Response(null, { status: 204 });
    });
    const empty = await fetchApi('/api/nothing', { method: 'POST', body: 'x' });
    expect([empty.status, empty.body]).toEqual([204, null]);
    const head = await fetchApi('/api/thing', { method: 'HEAD' });
    expect([head.status, head.body, head.headers.get('x-probe')]).toEqual([200, null, '1']);
    await expect(fetchApi('/api/boom')).rejects.toThrow('tessera: boom');
    close();
  });
});
