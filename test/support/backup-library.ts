/**
 * A library with every kind of record a backup carries, and the API's view of a library, for the backup
 * tests: assets (text, a file of bytes, an image) with formats and content, tags, websites, persons,
 * annotations, workstream summaries, activities, scores, conversations with messages, chat settings with a
 * key, and snippet vectors.
 */
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import type { Embedder } from '../../worker/core/embed/embedder.ts';
import { withDefaults, type ServiceContext } from '../../worker/core/deps.ts';
import { saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import type { Store } from '../../worker/core/store/store.ts';
import { GO_SNIPPET, PNG_BYTES, PYTHON_SNIPPET, YAML_SNIPPET, fileSeed, fragmentSeed } from './seeds.ts';
import { createTestApi, type TestApi } from './test-api.ts';

export const API_KEY = 'sk-secret-do-not-back-up';

/** The hashing embedder, counting the texts it embeds (a restore must not re-embed). */
export class CountingEmbedder implements Embedder {
  readonly inner = new HashingEmbedder();
  texts = 0;
  get id() {
    return this.inner.id;
  }
  get dimensions() {
    return this.inner.dimensions;
  }
  embed(texts: string[]) {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
}

export interface Library {
  api: TestApi;
  ctx: ServiceContext;
  embedder: CountingEmbedder;
  ids: { py: string; go: string; png: string; bytes: string; yaml: string };
}

/** A clock that moves one second a call from `start`, so every timestamp differs and ordering is stable. */
export function steppingClock(start = '2026-03-01T10:00:00.000Z') {
  let t = Date.parse(start);
  return () => new Date((t += 1000));
}

/** The test API over `store` with a counting embedder, and a ServiceContext that reaches the same vector index. */
export async function openLibrary(store: Store, now = steppingClock()): Promise<Omit<Library, 'ids'>> {
  const embedder = new CountingEmbedder();
  const api = await createTestApi({ store, embedder, now });
  const ctx = withDefaults({ store, feed: api.feed, classifier: undefined as never, embedder, now });
  return { api, ctx, embedder };
}

async function ok<R extends { status: number; text: string }>(reply: R, what: string): Promise<R> {
  if (reply.status >= 300) throw new Error(`${what} answered ${reply.status}: ${reply.text.slice(0, 200)}`);
  return reply;
}

export async function buildLibrary(store: Store, now = steppingClock()): Promise<Library> {
  const { api, ctx, embedder } = await openLibrary(store, now);
  const py = (
    await api.create(
      fragmentSeed(PYTHON_SNIPPET, {
        name: 'parse_args',
        tags: [{ text: 'cli' }, { text: 'argparse' }],
        websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse docs' }],
        persons: [{ type: { basic: { name: 'Ada', email: 'ada@example.com' } } }],
        annotations: [{ type: 'DESCRIPTION', text: 'Parses CLI flags.' }],
      }),
    )
  ).id as string;
  const go = (await api.create(fragmentSeed(GO_SNIPPET, { name: 'hello' }))).id as string;
  const png = (await api.create(fileSeed({ bytes: { raw: PNG_BYTES } }))).id as string;
  // Bytes that are not UTF-8 text nor an image: kept as bytes.
  const bytes = (await api.create(fileSeed({ bytes: { raw: [0, 255, 128, 10, 13, 0, 200, 7] }, metadata: { name: 'blob.bin' } }))).id as string;
  const yaml = (await api.create(fragmentSeed(YAML_SNIPPET, { name: 'load_config' }))).id as string;

  const tag = (await ok(await api.post('/tags/create', { text: 'go' }), 'tag')).json().id;
  await ok(await api.post(`/asset/${go}/tags/associate/${tag}`), 'associate tag');
  const site = (await ok(await api.post('/websites/create', { url: 'https://go.dev/', name: 'Go' }), 'website')).json().id;
  await ok(await api.post(`/asset/${go}/websites/associate/${site}`), 'associate website');
  const model = { id: 'm', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' };
  const summary = (await ok(await api.post('/workstream_summaries/create', { name: 'Monday', model }), 'summary')).json().id;
  await ok(await api.post(`/asset/${py}/workstream_summaries/associate/${summary}`), 'associate summary');
  await ok(await api.post(`/asset/${go}/scores/increment`, { asset: { reuse: true, searched: true } }), 'scores');
  await ok(await api.post('/asset/update', { id: yaml, name: 'load_config_file', favorited: true }), 'rename');
  await ok(await api.get(`/asset/${py}/export?export_type=MD`), 'export');

  await saveExchange(ctx, { conversation: 'conv-1', query: 'how are arguments parsed?', answer: 'With argparse [1].', assets: [py] });
  await saveExchange(ctx, { conversation: 'conv-1', query: 'and in Go?', answer: 'fmt.Println.', assets: [go, py] });
  await saveExchange(ctx, { conversation: 'conv-2', query: 'where is the config read?', answer: 'load_config.', assets: [yaml] });

  await ok(await api.call('PUT', '/qgpt/settings', { url: 'http://localhost:11434/v1', model: 'llama3', apiKey: API_KEY }), 'settings');
  await vectorIndexFor(ctx).current();
  // Written now, not by its timer in the middle of a test that compares the store before and after a request.
  await vectorIndexFor(ctx).saveSnapshot();
  return { api, ctx, embedder, ids: { py, go, png, bytes, yaml } };
}

/** Every listing of the API that shows what a library holds. */
export async function listings(api: TestApi, ctx: ServiceContext) {
  const json = async (path: string) => {
    const reply = await api.get(path);
    if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${reply.text}`);
    return reply.json();
  };
  const assets = await json('/assets?transferables=true&pseudo=true');
  const perAsset: Record<string, unknown> = {};
  for (const asset of assets.iterable as { id: string }[]) {
    perAsset[asset.id] = {
      asset: await json(`/asset/${asset.id}`),
      formats: await json(`/asset/${asset.id}/formats`),
      activities: await json(`/asset/${asset.id}/activities`),
      conversations: await json(`/asset/${asset.id}/conversations`),
    };
  }
  const { embedder, embedded, snippets } = (await vectorIndexFor(ctx).current(), vectorIndexFor(ctx).progress);
  const search = (await json('/assets/search?query=parse%20arguments&transferables=false')).iterable.map((r: { asset: { id: string } }) => r.asset.id);
  const relevance = await api.post('/qgpt/relevance', { query: 'read the config file', options: { database: true } });
  return {
    assets,
    identifiers: await json('/assets/identifiers?pseudo=true'),
    perAsset,
    tags: await json('/tags'),
    websites: await json('/websites'),
    summaries: await json('/workstream_summaries'),
    vectors: { embedder, embedded, snippets },
    search,
    relevance: relevance.json().relevant.iterable.map((r: { asset?: { id: string }; seed?: unknown }) => [r.asset?.id, r.seed]),
  };
}

export async function publicSettings(api: TestApi) {
  return (await api.get('/qgpt/settings')).json();
}

/** GET /backup's text. */
export async function backupText(api: TestApi): Promise<string> {
  const reply = await api.get('/backup');
  if (reply.status !== 200) throw new Error(`GET /backup answered ${reply.status}: ${reply.text}`);
  return reply.text;
}

export { createTestApi };
