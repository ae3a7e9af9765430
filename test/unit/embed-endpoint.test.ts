import { afterEach, describe, expect, it } from 'vitest';
import { ConfiguredEmbedder } from '../../worker/core/embed/configured.ts';
import { EMBEDDING_TIMEOUT_MS, EmbeddingEndpointError, EndpointEmbedder } from '../../worker/core/embed/endpoint.ts';
import { embeddingSettingsRecord } from '../../worker/core/embed/endpoint-settings.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { chatServersPerTest, EMBEDDING_DIMENSIONS, startChatServer, type ChatServer, type ChatServerMode } from '../support/chat-server.ts';
import { CSV_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { storedVectorsOf } from '../../worker/core/qgpt/vectors/stored-vectors.ts';

const standIn = chatServersPerTest(afterEach);
const HASHING = new HashingEmbedder().id;
/** The timeout of the silent stand-in's test (the others keep the default: a loaded machine may be slow). */
const SHORT_TIMEOUT_MS = 300;
const RETRY_MS = 60_000;

/** An app whose embedder times out after `timeoutMs` and retries a failed endpoint after RETRY_MS of `clock`. */
async function library(clock = { now: 0 }, timeoutMs = EMBEDDING_TIMEOUT_MS) {
  let api: TestApi | undefined;
  const embedder = new ConfiguredEmbedder(new HashingEmbedder(), {
    readSettings: () => embeddingSettingsRecord.active(api!.store),
    fetch: (input, init) => fetch(input, init),
    timeoutMs,
    retryAfterMs: RETRY_MS,
    now: () => clock.now,
  });
  api = await createTestApi({ embedder });
  const ids = {
    yaml: (await api.create(fragmentSeed(YAML_SNIPPET, undefined, { generic: 'CODE', specific: 'py' }))).id as string,
    retry: (await api.create(fragmentSeed(RETRY_SNIPPET, undefined, { generic: 'CODE', specific: 'js' }))).id as string,
    csv: (await api.create(fragmentSeed(CSV_SNIPPET, undefined, { generic: 'CODE', specific: 'py' }))).id as string,
  };
  return { api, ids, clock };
}

const configure = (api: TestApi, server: Pick<ChatServer, 'url'>, extra: object = {}) => api.call('PUT', '/embeddings/settings', { url: server.url, model: 'code-embed', ...extra });
const relevance = (api: TestApi, query: string) => api.post('/qgpt/relevance', { query, options: { database: true } });
const firstAsset = async (api: TestApi, query: string) => {
  const reply = await relevance(api, query);
  expect(reply.status).toBe(200);
  return reply.json().relevant.iterable[0]?.asset?.id as string | undefined;
};
/** The embedder ids of the snippet vectors a start with the active embedder finds stored, one per asset. */
const storedEmbedders = async (api: TestApi) => [...(await storedVectorsOf(api.store, (await api.get('/embeddings')).json().id)).values()].map((r) => r.embedder);
const embeddingRequests = (server: ChatServer) => server.requests.filter((r) => r.path === '/v1/embeddings');
const endpointId = (server: ChatServer) => `endpoint:code-embed@${server.url}`;

describe('/embeddings/settings', () => {
  it('is configured like the answer endpoint: the key is never answered back, and goes only over https or to this machine', async () => {
    const { api } = await library();
    expect((await api.get('/embeddings/settings')).json()).toEqual({ configured: false });
    expect((await api.call('PUT', '/embeddings/settings', { url: 'http://192.168.1.9:11434/v1', model: 'm', apiKey: 'sk-x' })).status).toBe(422);
    expect((await api.call('PUT', '/embeddings/settings', { url: 'ftp://x/v1', model: 'm' })).status).toBe(422);
    expect((await api.call('PUT', '/embeddings/settings', { url: 'http://localhost:1/v1', model: '' })).status).toBe(422);
    expect((await api.call('PUT', '/embeddings/settings', { url: 'http://localhost:1/v1', model: 'm', extra: 1 })).status).toBe(422);
    expect((await api.call('PUT', '/embeddings/settings', '{')).status).toBe(400);
    // Refused bodies changed nothing.
    expect((await api.get('/embeddings/settings')).json()).toEqual({ configured: false });

    const saved = await api.call('PUT', '/embeddings/settings', { url: 'https://embed.example/v1', model: 'm', apiKey: 'sk-secret' });
    expect(saved.status).toBe(200);
    expect(saved.json()).toEqual({ configured: true, url: 'https://embed.example/v1', model: 'm', enabled: true, hasApiKey: true });
    expect((await api.get('/embeddings/settings')).text).not.toContain('sk-secret');
    expect((await api.call('DELETE', '/embeddings/settings')).json()).toEqual({ configured: false });
    expect((await api.get('/embeddings/settings')).json()).toEqual({ configured: false });
    // The answer endpoint's settings are apart.
    expect((await api.get('/qgpt/settings')).json()).toEqual({ configured: false });
  });

  it('POST /test says whether the endpoint answered, and why not', async () => {
    const { api } = await library();
    expect((await api.post('/embeddings/settings/test')).json()).toEqual({ ok: false, message: 'No embeddings endpoint is set.' });
    const server = await standIn();
    await configure(api, server);
    const ok = (await api.post('/embeddings/settings/test')).json();
    expect(ok.ok).toBe(true);
    expect(ok.message).toMatch(new RegExp(`^Connected: code-embed at .* answered a ${EMBEDDING_DIMENSIONS}-dimension vector in \\d+ ms\\.$`));
    server.mode = 'error500';
    expect((await api.post('/embeddings/settings/test')).json()).toEqual({ ok: false, message: `${server.url} did not answer: it answered HTTP 500` });
  });
});

describe('relevance with an embeddings endpoint', () => {
  it('embeds the library and the query with it, each snippet once, vectors tagged by that embedder, the key as a bearer', async () => {
    const { api, ids } = await library();
    const server = await standIn();
    expect((await configure(api, server, { apiKey: 'sk-local' })).status).toBe(200);
    expect(await firstAsset(api, 'read a yaml config file')).toBe(ids.yaml);

    const requests = embeddingRequests(server);
    // The three assets' snippets (one each), then the query.
    expect(requests.map((r) => r.body.input.length).reduce((a: number, b: number) => a + b, 0)).toBe(4);
    expect(requests.every((r) => r.body.model === 'code-embed' && r.headers.authorization === 'Bearer sk-local')).toBe(true);
    expect(await storedEmbedders(api)).toEqual([endpointId(server), endpointId(server), endpointId(server)]);
    expect((await api.get('/embeddings/library')).json()).toMatchObject({ embedder: endpointId(server), embedded: 3 });
    const info = (await api.get('/embeddings')).json();
    expect(info).toMatchObject({ id: endpointId(server), kind: 'endpoint', dimensions: EMBEDDING_DIMENSIONS, status: 'ready', endpoint: { url: server.url, model: 'code-embed', status: 'active' } });
    const embedded = (await api.post('/embeddings', { texts: ['parse yaml'] })).json();
    expect(embedded.embedder).toBe(endpointId(server));
    expect(embedded.vectors[0]).toHaveLength(EMBEDDING_DIMENSIONS);

    // A second call embeds only the query.
    expect(await firstAsset(api, 'retry with exponential backoff')).toBe(ids.retry);
    expect(embeddingRequests(server).length).toBe(requests.length + 2);
  });

  it('switching embedders re-embeds the library; the stored vectors never mix', async () => {
    const { api, ids } = await library();
    expect(await firstAsset(api, 'write csv rows')).toBe(ids.csv);
    expect(await storedEmbedders(api)).toEqual([HASHING, HASHING, HASHING]);
    const server = await standIn();
    await configure(api, server);
    expect(await firstAsset(api, 'write csv rows')).toBe(ids.csv);
    expect(await storedEmbedders(api)).toEqual([endpointId(server), endpointId(server), endpointId(server)]);
    await configure(api, server, { enabled: false });
    expect(await firstAsset(api, 'write csv rows')).toBe(ids.csv);
    expect(await storedEmbedders(api)).toEqual([HASHING, HASHING, HASHING]);
    await configure(api, server);
    await api.call('DELETE', '/embeddings/settings');
    expect(await firstAsset(api, 'write csv rows')).toBe(ids.csv);
    expect(await storedEmbedders(api)).toEqual([HASHING, HASHING, HASHING]);
    expect((await api.get('/embeddings')).json()).toEqual({ id: HASHING, dimensions: 1024, kind: 'hashing', status: 'ready' });
  });

  const failures: [ChatServerMode | 'down', RegExp][] = [
    ['error500', /^it answered HTTP 500$/],
    ['malformed', /^it answered 0 vectors for 1 texts$|^it answered \d+ vectors for \d+ texts$/],
    ['silent', new RegExp(`^no answer within ${SHORT_TIMEOUT_MS / 1000} s$`)],
    ['close-mid-stream', /^it could not be reached$/],
    ['down', /^it could not be reached$/],
  ];
  for (const [mode, reason] of failures) {
    it(`degrades to the built-in embedder, saying why, when the endpoint ${mode === 'down' ? 'is down' : `answers ${mode}`}; the API never fails`, async () => {
      const { api, ids } = await library(undefined, mode === 'silent' ? SHORT_TIMEOUT_MS : EMBEDDING_TIMEOUT_MS);
      const server = mode === 'down' ? await startChatServer() : await standIn({ mode });
      if (mode === 'down') await server.close();
      await configure(api, server);
      expect(await firstAsset(api, 'read a yaml config file')).toBe(ids.yaml);
      expect(await storedEmbedders(api)).toEqual([HASHING, HASHING, HASHING]);
      const info = (await api.get('/embeddings')).json();
      expect(info).toMatchObject({ id: HASHING, kind: 'hashing', endpoint: { url: server.url, model: 'code-embed', status: 'failed' } });
      expect(info.endpoint.error).toMatch(reason);
      expect(info.reason).toContain(`the embeddings endpoint code-embed at ${server.url} failed`);
      expect((await api.post('/embeddings', { texts: ['x'] })).json().embedder).toBe(HASHING);
      // Left alone meanwhile: the next call does not wait for it again.
      const asked = embeddingRequests(server).length;
      expect(await firstAsset(api, 'write csv rows')).toBe(ids.csv);
      expect(embeddingRequests(server).length).toBe(asked);
    });
  }

  it('an endpoint that fails after it embedded the library: that call is answered by the built-in embedder, and the endpoint is tried again later', async () => {
    const { api, ids, clock } = await library();
    const server = await standIn();
    await configure(api, server);
    expect(await firstAsset(api, 'read a yaml config file')).toBe(ids.yaml);
    expect(await storedEmbedders(api)).toEqual([endpointId(server), endpointId(server), endpointId(server)]);

    server.mode = 'error500';
    expect(await firstAsset(api, 'retry with exponential backoff')).toBe(ids.retry);
    expect(await storedEmbedders(api)).toEqual([HASHING, HASHING, HASHING]);
    expect((await api.get('/embeddings')).json().endpoint).toMatchObject({ status: 'failed', error: 'it answered HTTP 500', retryAt: new Date(RETRY_MS).toISOString() });

    server.mode = 'ok';
    clock.now = RETRY_MS;
    expect(await firstAsset(api, 'write csv rows')).toBe(ids.csv);
    expect(await storedEmbedders(api)).toEqual([endpointId(server), endpointId(server), endpointId(server)]);
    expect((await api.get('/embeddings')).json().endpoint).toEqual({ url: server.url, model: 'code-embed', status: 'active' });
  });
});

describe('EndpointEmbedder', () => {
  it('batches texts, normalises the vectors, answers zero vectors for empty texts without asking', async () => {
    const server = await standIn();
    const embedder = new EndpointEmbedder({ url: server.url, model: 'm' }, fetch);
    const texts = Array.from({ length: 130 }, (_, i) => (i === 5 ? ' ' : `text number ${i}`));
    const vectors = await embedder.embed(texts);
    expect(embeddingRequests(server).map((r) => r.body.input.length)).toEqual([64, 64, 1]);
    expect(vectors).toHaveLength(130);
    expect(embedder.dimensions).toBe(EMBEDDING_DIMENSIONS);
    expect([...vectors[5]!]).toEqual(new Array(EMBEDDING_DIMENSIONS).fill(0));
    const norm = Math.hypot(...vectors[0]!);
    expect(norm).toBeCloseTo(1, 5);
  });

  it('refuses answers that are not vectors of one length', async () => {
    const answers: unknown[] = [
      { data: [{ index: 0, embedding: [1, 'x'] }] },
      { data: [{ index: 0, embedding: [] }] },
      { data: [{ index: 3, embedding: [1, 2] }] },
      { nothing: true },
    ];
    for (const answer of answers) {
      const embedder = new EndpointEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'm' }, async () => Response.json(answer));
      await expect(embedder.embed(['a'])).rejects.toBeInstanceOf(EmbeddingEndpointError);
    }
    let length = 3;
    const changing = new EndpointEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'm' }, async () => Response.json({ data: [{ index: 0, embedding: new Array(length).fill(1) }] }));
    await changing.embed(['a']);
    length = 4;
    await expect(changing.embed(['a'])).rejects.toThrow('its vectors changed length (3 before, 4 now)');
  });
});
