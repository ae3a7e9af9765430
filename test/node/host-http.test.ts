/**
 * The Node host's HTTP edges, on its own composition (createHostApp + listen, as startHost serves it):
 * what Node's parser refuses before the app sees it gets the JSON error body of every error, and a
 * request answered before its body arrived closes its connection, so a client's next request finds a new
 * one instead of a socket closed under it; an idle connection stays open well past what clients are told
 * (so they let it go first); a stop answers the requests under way before it closes their connections.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERTISED_IDLE_S, IDLE_CONNECTION_MS, close, createHostApp, listen, type HostApp } from '../../worker/node/host.ts';
import { LogFeed } from '../../worker/node/log-feed.ts';
import { testClassifier } from '../support/classifier.ts';
import { openPgliteStore } from '../support/pg.ts';
import { checkResponse } from '../support/responses.ts';
import { fragmentSeed } from '../support/seeds.ts';

const LIMIT = 8 * 1024;
let hostApp: HostApp;
let server: Awaited<ReturnType<typeof listen>>;
let origin: string;

beforeAll(async () => {
  const store = await openPgliteStore();
  hostApp = createHostApp({ store, feed: await LogFeed.start(store), shared: false, deps: { classifier: await testClassifier(), maxBodyBytes: LIMIT } });
  server = await listen(hostApp, { port: 0, hostname: '127.0.0.1' });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => close(server, hostApp));

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(text: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the Node host over HTTP', () => {
  it('answers a URL over 16 KiB with 431 and a malformed request with 400, each with the JSON error body', async () => {
    const long = await fetch(`${origin}/assets/${'a'.repeat(20_000)}`);
    expect(long.status).toBe(431);
    checkResponse({ method: 'GET', path: '/assets/x', status: long.status, contentType: long.headers.get('content-type'), body: await long.text() });

    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body).error).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('a request refused before its body arrived (413) closes its connection; the next requests all get their answers', async () => {
    const create = (bytes: number) =>
      fetch(`${origin}/assets/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":'.repeat(bytes / 5) });
    for (const bytes of [20_000, 600_000, 100_000, 20_000]) {
      const refused = await create(bytes);
      expect(refused.status).toBe(413);
      expect(refused.headers.get('connection')).toBe('close');
      expect((await refused.json()).error.code).toBe('body_too_large');
    }
    // A body read to its end keeps the connection.
    const malformed = await create(5_000);
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('connection')).toBe('keep-alive');
    await malformed.text();
    expect((await fetch(`${origin}/assets`)).status).toBe(200);
  });

  it('tells clients 5 s and keeps an idle connection open longer: a request sent on it 6 s later is answered', async () => {
    expect(IDLE_CONNECTION_MS).toBeGreaterThan(6_000);
    expect(ADVERTISED_IDLE_S * 1000).toBeLessThan(IDLE_CONNECTION_MS);
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const answers = () => received.split('HTTP/1.1 200 OK\r\n').length - 1;
    const request = 'GET /.well-known/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n';
    try {
      socket.write(request);
      await expect.poll(answers).toBe(1);
      expect(received).toMatch(new RegExp(`\r\nKeep-Alive: timeout=${ADVERTISED_IDLE_S}\r\n`, 'i'));
      expect(received.match(/keep-alive: timeout=/gi)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 6_000));
      expect(socket.destroyed).toBe(false);
      socket.write(request);
      await expect.poll(answers).toBe(2);
    } finally {
      socket.destroy();
    }
  }, 15_000);

  it('a stop answers a request under way before it closes the connection (the write committed, the client told), and cuts one that outlasts the grace', async () => {
    const store = await openPgliteStore();
    const inner = createHostApp({ store, feed: await LogFeed.start(store), shared: false, deps: { classifier: await testClassifier() } });
    // The request waits inside the app until the stop has begun, so it is surely under way then.
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let begin!: () => void;
    const stopBegun = new Promise<void>((resolve) => (begin = resolve));
    const app: HostApp = { ...inner, fetch: async (request) => (arrived(), await stopBegun, inner.fetch(request)) };
    const stopping = await listen(app, { port: 0, hostname: '127.0.0.1' });
    const url = `http://127.0.0.1:${(stopping.address() as AddressInfo).port}`;
    const created = fetch(`${url}/assets/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fragmentSeed('def under_way(): return 1')) });
    await arrival;
    const stopped = close(stopping, app);
    begin();
    const response = await created;
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };
    await stopped;
    expect((await store.read((tx) => tx.get('assets', id)))?.id).toBe(id);

    // A request whose body never ends is under way for good: cut once the grace is over.
    const hanging = await listen(inner, { port: 0, hostname: '127.0.0.1' });
    const socket = connect((hanging.address() as AddressInfo).port, '127.0.0.1');
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write('POST /assets/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"asset"');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const t0 = performance.now();
    await close(hanging, inner, 300);
    await ended;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
    expect(performance.now() - t0).toBeLessThan(5_000);
  }, 15_000);
});
