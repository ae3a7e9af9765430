import { beforeEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import type { Embedder } from '../../worker/core/embed/embedder.ts';
import { MemoryFeed } from '../../worker/core/feed/feed.ts';
import { unreadablePath, type FileSource } from '../../worker/core/qgpt/files/files.ts';
import { readRelevant, RING_SIZE, storeRelevant } from '../../worker/core/qgpt/relevant-ring.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { testClassifier } from '../support/classifier.ts';
import { dumpStore } from '../support/dump.ts';
import { CSV_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { storedVectorsOf } from '../../worker/core/qgpt/vectors/stored-vectors.ts';

const NOTES = 'Deployment notes: roll back with the previous image tag when the health check fails.';

const ROLLBACK = `Rollback: when a deployment goes wrong, redeploy the previous image tag. ${'Check the dashboards before and after. '.repeat(8)}`.trim();
const MONITORING = `Monitoring: alerts go to the on-call channel. ${'Acknowledge within five minutes. '.repeat(8)}`.trim();

const relevance = (api: TestApi, body: unknown, query = '') => api.post(`/qgpt/relevance${query}`, body);
type Output = { relevant: { iterable: any[] }; answer?: { answers: { iterable: { score: number; text: string }[] } } };

let api: TestApi;
let ids: Record<'yaml' | 'retry' | 'csv' | 'notes', string>;

const create = async (seed: unknown) => (await api.create(seed)).id as string;

beforeEach(async () => {
  api = await createTestApi();
  ids = {
    yaml: await create(fragmentSeed(YAML_SNIPPET, undefined, { generic: 'CODE', specific: 'py' })),
    retry: await create(fragmentSeed(RETRY_SNIPPET, undefined, { generic: 'CODE', specific: 'js' })),
    csv: await create(fragmentSeed(CSV_SNIPPET, undefined, { generic: 'CODE', specific: 'py' })),
    notes: await create(fragmentSeed(NOTES, { name: 'Deploy notes' }, { generic: 'TEXT', specific: 'txt' })),
  };
});

describe('POST /qgpt/relevance', () => {
  it('database: ranks the library and answers snippets as fragment seeds with their asset and location', async () => {
    const reply = await relevance(api, { query: 'read a yaml config file', options: { database: true } });
    expect(reply.status).toBe(200);
    const out = reply.json<Output>();
    const first = out.relevant.iterable[0];
    expect(first.asset.id).toBe(ids.yaml);
    expect(first.seed.asset.format.fragment.string.raw).toBe(YAML_SNIPPET.trim());
    expect(first.location).toEqual({ text: YAML_SNIPPET.trim(), start: 0, end: YAML_SNIPPET.trim().length });
    expect(first.seed.asset.format.classification.specific).toBe('py');
    expect(typeof first.id).toBe('string');
    // Scores order the answer; every asset appears at most once here (each has one snippet).
    expect(new Set(out.relevant.iterable.map((r) => r.asset.id)).size).toBe(out.relevant.iterable.length);
    const retry = await relevance(api, { query: 'retry a failing task with exponential backoff', options: { database: true } });
    expect(retry.json<Output>().relevant.iterable[0].asset.id).toBe(ids.retry);
  });

  it('reports where the time went in Server-Timing: loading, ranking, reading the texts, storing the snippets', async () => {
    const parts = (reply: { headers: Headers }) =>
      Object.fromEntries((reply.headers.get('server-timing') ?? '').split(', ').map((p) => p.split(';dur=')).map(([name, ms]) => [name, Number(ms)]));
    const library = parts(await relevance(api, { query: 'read a yaml config file', options: { database: true } }));
    expect(Object.keys(library)).toEqual(['load', 'rank', 'texts', 'store']);
    for (const ms of Object.values(library)) expect(ms).toBeGreaterThanOrEqual(0);
    // Over given texts, no library is loaded or read: only what was stored is timed.
    const given = parts(await relevance(api, { query: 'yaml', seeds: { iterable: [fragmentSeed(YAML_SNIPPET)] } }));
    expect(Object.keys(given)).toEqual(['store']);
  });

  it('finds by meaning the words do not spell exactly (vector side): parts of identifiers, other word forms', async () => {
    const reply = await relevance(api, { query: 'writer of csv rows', options: { database: true } });
    expect(reply.json<Output>().relevant.iterable[0].asset.id).toBe(ids.csv);
  });

  it('never misses a committed write: created, updated and deleted assets are reflected at once', async () => {
    const fresh = await create(fragmentSeed('def compute_checksum(data):\n    return hashlib.sha256(data).hexdigest()\n', undefined, { generic: 'CODE', specific: 'py' }));
    const found = await relevance(api, { query: 'sha256 checksum', options: { database: true } });
    expect(found.json<Output>().relevant.iterable[0].asset.id).toBe(fresh);

    const asset = (await api.get(`/asset/${fresh}`)).json();
    asset.formats.iterable[0].fragment.string.raw = 'def ping_host(name):\n    return subprocess.call(["ping", name])\n';
    expect((await api.post('/asset/update', asset)).status).toBe(200);
    const after = (await relevance(api, { query: 'ping a host', options: { database: true } })).json<Output>();
    expect(after.relevant.iterable[0].asset.id).toBe(fresh);
    expect(after.relevant.iterable[0].seed.asset.format.fragment.string.raw).toContain('ping_host');

    expect((await api.post(`/assets/${fresh}/delete`)).status).toBe(200);
    const gone = (await relevance(api, { query: 'ping a host', options: { database: true } })).json<Output>();
    expect(gone.relevant.iterable.map((r) => r.asset.id)).not.toContain(fresh);
  });

  it('database leaves pseudo assets out; assets limits the space to the given ids', async () => {
    const seed = fragmentSeed('def yaml_pseudo_loader(path):\n    return yaml.safe_load(open(path))\n', undefined, { generic: 'CODE', specific: 'py' });
    const pseudo = await create({ asset: { ...seed.asset, pseudo: true } });
    const all = (await relevance(api, { query: 'yaml load', options: { database: true } })).json<Output>();
    expect(all.relevant.iterable.map((r) => r.asset.id)).not.toContain(pseudo);

    const only = (await relevance(api, { query: 'yaml config', assets: { iterable: [{ id: ids.csv }, { id: pseudo }] } })).json<Output>();
    expect(new Set(only.relevant.iterable.map((r) => r.asset.id))).toEqual(new Set([pseudo, ids.csv]));
    expect(only.relevant.iterable[0].asset.id).toBe(pseudo);
  });

  it('seeds: only fragment strings count; snippets carry no asset', async () => {
    const reply = await relevance(api, {
      query: 'how do I roll back a deployment',
      seeds: {
        iterable: [
          fragmentSeed(`${ROLLBACK}\n\n${MONITORING}`, undefined, { generic: 'TEXT', specific: 'txt' }),
          { type: 'SEEDED_ASSET', asset: { application: fragmentSeed('x').asset.application, format: { file: { string: { raw: 'files do not count' } } } } },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const out = reply.json<Output>();
    expect(out.relevant.iterable.map((r) => r.seed.asset.format.fragment.string.raw)).toEqual([ROLLBACK, MONITORING]);
    expect(out.relevant.iterable.every((r) => r.asset === undefined)).toBe(true);
    expect(out.relevant.iterable.some((r) => r.seed.asset.format.fragment.string.raw.includes('files do not count'))).toBe(false);
  });

  it('paths: ranks the files a FileSource gives, with the path on each snippet; an unreadable path is a 4xx naming it', async () => {
    const files: FileSource = {
      async read(path) {
        if (path === '/opfs/src') {
          return [
            { path: '/opfs/src/net.py', text: 'def fetch_json(url):\n    return requests.get(url).json()\n' },
            { path: '/opfs/src/math.py', text: 'def mean(values):\n    return sum(values) / len(values)\n' },
          ];
        }
        throw unreadablePath(path, 'no such file or folder');
      },
    };
    const withFiles = await createTestApi({ files });
    const reply = await relevance(withFiles, { query: 'average of values', paths: ['/opfs/src'] });
    expect(reply.status).toBe(200);
    const first = reply.json<Output>().relevant.iterable[0];
    expect(first.path).toBe('/opfs/src/math.py');
    expect(first.asset).toBeUndefined();
    const missing = await relevance(withFiles, { query: 'x', paths: ['/opfs/nope.txt'] });
    expect(missing.status).toBe(404);
    expect(missing.json().error.message).toContain('/opfs/nope.txt');
  });

  it('refuses zero or several query spaces, empty spaces, unknown assets, an empty query and a bad limit; stores nothing then', async () => {
    const before = await dumpStore(api.store);
    const cases: [unknown, number, string?][] = [
      [{ query: 'yaml' }, 422],
      [{ query: 'yaml', options: { database: false } }, 422],
      [{ query: 'yaml', options: { database: true }, assets: { iterable: [{ id: ids.yaml }] } }, 422],
      [{ query: 'yaml', seeds: { iterable: [] }, paths: ['/opfs/x'] }, 422],
      [{ query: 'yaml', assets: { iterable: [] } }, 422],
      [{ query: 'yaml', paths: [] }, 422],
      [{ query: 'yaml', seeds: { iterable: [{ type: 'SEEDED_ASSET' }] } }, 422],
      [{ query: '   ', options: { database: true } }, 422],
      [{ query: 'yaml', assets: { iterable: [{ id: '00000000-0000-4000-8000-000000000000' }] } }, 404],
      [{ options: { database: true } }, 422],
      [{ query: 'yaml', options: { database: 'yes' } }, 422],
      [{ query: 'yaml', options: { database: true } }, 400, '?limit=0'],
      [{ query: 'yaml', options: { database: true } }, 400, '?limit=101'],
      [{ query: 'yaml', options: { database: true } }, 400, '?limit=ten'],
    ];
    for (const [body, status, query] of cases) {
      const reply = await relevance(api, body, query);
      expect(reply.status, JSON.stringify(body) + (query ?? '')).toBe(status);
      expect(reply.json().error.message.length).toBeGreaterThan(0);
    }
    expect((await relevance(api, '{not json')).status).toBe(400);
    const after = await dumpStore(api.store);
    expect(after.relevant).toEqual(before.relevant);
    expect(after.assets).toEqual(before.assets);
  });

  it('answers `limit` snippets, at most three of one asset, best first', async () => {
    const many = Array.from({ length: 6 }, (_, i) => `def handler_${i}(event):\n    """Handle event number ${i} of the queue."""\n    ${'log(event)\n    '.repeat(60)}return ${i}\n`).join('\n\n');
    const big = await create(fragmentSeed(many, undefined, { generic: 'CODE', specific: 'py' }));
    const out = (await relevance(api, { query: 'handle queue event', options: { database: true } }, '?limit=5')).json<Output>();
    expect(out.relevant.iterable.length).toBeLessThanOrEqual(5);
    expect(out.relevant.iterable.filter((r) => r.asset.id === big).length).toBeLessThanOrEqual(3);
    expect(out.relevant.iterable[0].asset.id).toBe(big);
    for (const r of out.relevant.iterable.filter((r) => r.asset.id === big)) {
      expect(many.slice(r.location.start, r.location.end)).toBe(r.location.text);
    }
  });

  it('keeps what it answered so a question can name a snippet by id alone', async () => {
    const out = (await relevance(api, { query: 'csv rows', options: { database: true } })).json<Output>();
    const [record] = await readRelevant(withDefaults({ store: api.store, feed: api.feed, classifier: await testClassifier() }), [out.relevant.iterable[0].id]);
    expect(record).toMatchObject({ text: CSV_SNIPPET.trim(), asset: ids.csv, start: 0 });
  });
});

describe('relevant snippet ids', () => {
  it('resolve to nothing once their ring slot is reused, or when malformed', async () => {
    const ctx = withDefaults({ store: new MemoryStore(), feed: new MemoryFeed(), classifier: await testClassifier() });
    const [first] = await storeRelevant(ctx, [{ text: 'one', start: 0, end: 3 }]);
    expect((await readRelevant(ctx, [first!]))[0]?.text).toBe('one');
    await storeRelevant(ctx, Array.from({ length: RING_SIZE }, (_, i) => ({ text: `t${i}`, start: 0, end: 2 })));
    expect(await readRelevant(ctx, [first!, 'nonsense', '0.'])).toEqual([undefined, undefined, undefined]);
    expect((await ctx.store.read((tx) => tx.getAll('relevant'))).length).toBe(RING_SIZE);
  });
});

describe('snippet vectors', () => {
  it('re-embed the whole library when the embedder changes, with progress visible, also what was written meanwhile by another worker', async () => {
    const store = new MemoryStore();
    const first = await createTestApi({ store });
    const ids: string[] = [];
    for (const text of [YAML_SNIPPET, RETRY_SNIPPET, CSV_SNIPPET]) ids.push((await first.create(fragmentSeed(text))).id);
    expect((await relevance(first, { query: 'yaml', options: { database: true } })).status).toBe(200);
    const progress = (await first.get('/embeddings/library')).json();
    expect(progress).toMatchObject({ embedder: 'hashing-v3-1024', embedded: 3, pending: 0, running: false });
    expect(progress.snippets).toBeGreaterThanOrEqual(3);

    // Another embedder (another id): everything is embedded again, by it.
    const calls: number[] = [];
    const other: Embedder = {
      id: 'other-256',
      dimensions: 256,
      embed: async (texts) => {
        calls.push(texts.length);
        return new HashingEmbedder({ dimensions: 256 }).embed(texts);
      },
    };
    // A second worker on the same store, with a feed of its own.
    const second = await createTestApi({ store, embedder: other });
    // A write this worker never heard of (made by the first, whose feed is not this one's).
    const checksum = (await first.create(fragmentSeed('def checksum(data):\n    return crc32(data)\n'))).id as string;
    const reply = await relevance(second, { query: 'crc32 checksum', options: { database: true } });
    expect(reply.status).toBe(200);
    // Each of the 4 assets is one snippet, each embedded once, and the query: nothing twice.
    expect(calls.reduce((a, b) => a + b, 0)).toBe(4 + 1);
    const records = [...(await storedVectorsOf(store, 'other-256')).values()];
    expect(records.map((r) => r.embedder)).toEqual(Array(4).fill('other-256'));
    expect(records.every((r) => r.snippets.every((s) => s.vector.length === 256))).toBe(true);
    expect((await second.get('/embeddings/library')).json().embedded).toBe(4);
    // The new vectors rank: the asset written meanwhile answers its own words first, the others after it.
    const ranked = reply.json<Output>().relevant.iterable.map((r) => r.asset.id);
    expect(ranked[0]).toBe(checksum);
    expect(new Set(ranked).size).toBe(ranked.length);
    expect(ranked.every((id) => [checksum, ...ids].includes(id))).toBe(true);
    // And by meaning through the new embedder too: the YAML loader for a question about config files.
    const yaml = (await relevance(second, { query: 'load the yaml configuration file', options: { database: true } })).json<Output>();
    expect(yaml.relevant.iterable[0].asset.id).toBe(ids[0]);
  });

  it('are made again only when what is embedded changes: not for a score increment, an export or a tag link', async () => {
    const embedded: string[] = [];
    const hashing = new HashingEmbedder();
    const counting: Embedder = { id: hashing.id, dimensions: hashing.dimensions, embed: async (texts) => (embedded.push(...texts), hashing.embed(texts)) };
    const local = await createTestApi({ embedder: counting });
    const csv = (await local.create(fragmentSeed(CSV_SNIPPET, undefined, { generic: 'CODE', specific: 'py' }))).id as string;
    await local.create(fragmentSeed(YAML_SNIPPET, undefined, { generic: 'CODE', specific: 'py' }));
    const ask = async (query: string) => (await local.post('/qgpt/relevance', { query, options: { database: true } })).json<Output>();
    await ask('csv rows');
    embedded.length = 0;

    expect((await local.post(`/asset/${csv}/scores/increment`, { asset: { reuse: true } })).status).toBe(204);
    expect((await local.get(`/asset/${csv}/export?export_type=MD`)).status).toBe(200);
    const tag = (await local.post('/tags/create', { text: 'spreadsheets' })).json();
    expect((await local.post(`/asset/${csv}/tags/associate/${tag.id}`)).status).toBe(204);
    const after = await ask('write csv rows');
    expect(embedded).toEqual(['write csv rows']);
    // Its vectors still point into its text, so it is still answered.
    expect(after.relevant.iterable[0].asset.id).toBe(csv);

    embedded.length = 0;
    const asset = (await local.get(`/asset/${csv}`)).json();
    asset.formats.iterable[0].fragment.string.raw = 'def ping_host(name):\n    return subprocess.call(["ping", name])\n';
    expect((await local.post('/asset/update', asset)).status).toBe(200);
    const changed = await ask('ping a host');
    expect(embedded.filter((t) => t.includes('ping_host')).length).toBeGreaterThan(0);
    expect(embedded.filter((t) => t.includes('yaml')).length).toBe(0);
    expect(changed.relevant.iterable[0].asset.id).toBe(csv);
  });

  it('redo records of an older format, and drop stale records of assets deleted since', async () => {
    const api = await createTestApi();
    const kept = (await api.create(fragmentSeed(CSV_SNIPPET))).id as string;
    const old = { format: 'f', start: 0, end: 3, vector: new Float32Array(1024).fill(0.03) };
    // Up to date but for its format: only the version tells it must be redone.
    const { updated } = (await api.store.read((tx) => tx.get('assets', kept)))!;
    await api.store.write(async (tx) => {
      await tx.put('snippets', { id: kept, updated, embedder: 'hashing-v3-1024', snippets: [old] } as never);
      await tx.put('snippets', { id: 'deleted-long-ago', updated: 'x', embedder: 'other', snippets: [old] } as never);
      await tx.put('indexes', { id: 'vectors', version: 1, seq: 99, saved: '', data: { embedder: 'hashing-v3-1024' } });
    });
    const reply = await api.post('/qgpt/relevance', { query: 'write csv rows', options: { database: true } });
    expect(reply.json().relevant.iterable[0].asset.id).toBe(kept);
    // Both old records are gone from the collection; the vectors made anew are stored in a chunk.
    expect(await api.store.read((tx) => tx.getAll('snippets'))).toEqual([]);
    const records = [...(await storedVectorsOf(api.store, 'hashing-v3-1024')).values()];
    expect(records.map((r) => r.id)).toEqual([kept]);
    expect(records[0]!.snippets[0]!.vector).toBeInstanceOf(Int8Array);
    expect(records[0]!.snippets[0]!.scale).toBeGreaterThan(0);
  });
});
