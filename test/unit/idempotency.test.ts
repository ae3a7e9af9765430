/**
 * Idempotency keys (review H8a): a write sent again with its `Idempotency-Key` (as Chromium does with a
 * fetch its stopped worker never answered) is answered with the stored response and writes nothing; the
 * key and the write are committed in one transaction. Over the memory store, and IndexedDB with
 * TESSERA_TEST_STORE=idb.
 */
import { describe, expect, it } from 'vitest';
import { withDefaults, type ServiceContext } from '../../worker/core/deps.ts';
import { IDEMPOTENCY_TTL_MS, sweepIdempotencyKeys } from '../../worker/core/idempotency.ts';
import { saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { createServices, runKeyedOperation } from '../../worker/core/services.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import type { Store, WriteTx } from '../../worker/core/store/store.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { backupText } from '../support/backup-library.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { testClassifier } from '../support/classifier.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { createApi } from '../../app/client/api.ts';

const key = (k: string) => ({ 'idempotency-key': k });
const MODEL = { id: 'extractive', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' };

const assetCount = (api: TestApi) => api.store.read((tx) => tx.count('assets'));
const keyCount = (api: TestApi) => api.store.read((tx) => tx.count('idempotency'), ['idempotency']);

/** A clock the test moves. */
function clock(start = Date.parse('2026-03-01T10:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function contextOf(api: TestApi, now?: () => Date): Promise<ServiceContext> {
  return withDefaults({ store: api.store, feed: api.feed, classifier: await testClassifier(), ...(now ? { now } : {}) });
}

describe('Idempotency-Key on POST /assets/create', () => {
  it('the same key twice: one asset, the same status, type and body; the second says it was replayed and sends no change event', async () => {
    const api = await createTestApi();
    const seed = fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' });
    const first = await api.call('POST', '/assets/create', seed, key('k-1'));
    const events = api.events.length;
    const second = await api.call('POST', '/assets/create', seed, key('k-1'));
    expect(first.status).toBe(200);
    expect([second.status, second.contentType, second.text]).toEqual([first.status, first.contentType, first.text]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await assetCount(api)).toBe(1);
    expect(api.events.length).toBe(events);
  });

  it('different keys, or no key: each request creates its asset', async () => {
    const api = await createTestApi();
    const seed = fragmentSeed(PYTHON_SNIPPET);
    const a = (await api.call('POST', '/assets/create', seed, key('k-a'))).json().id;
    const b = (await api.call('POST', '/assets/create', seed, key('k-b'))).json().id;
    const c = (await api.post('/assets/create', seed)).json().id;
    expect(new Set([a, b, c]).size).toBe(3);
    expect(await assetCount(api)).toBe(3);
    expect(await keyCount(api)).toBe(2);
  });

  it('two copies at once (a race): one asset, both answered with its body', async () => {
    const api = await createTestApi();
    const seed = fragmentSeed(GO_SNIPPET);
    const [a, b] = await Promise.all([1, 2].map(() => api.call('POST', '/assets/create', seed, key('k-race'))));
    expect(a!.status).toBe(200);
    expect(b!.text).toBe(a!.text);
    expect(await assetCount(api)).toBe(1);
  });

  it('the key and the asset are put in one transaction', async () => {
    const puts: CollectionName[][] = [];
    const inner = new MemoryStore();
    const store: Store = {
      read: (fn, scope) => inner.read(fn, scope),
      write: (fn, scope) =>
        inner.write((tx) => {
          const seen: CollectionName[] = [];
          puts.push(seen);
          const spy: WriteTx = { ...tx, put: (c, record) => (seen.push(c), tx.put(c, record)) };
          return fn(spy);
        }, scope),
      close: () => inner.close(),
      get closed() {
        return inner.closed;
      },
    };
    const api = await createTestApi({ store });
    await api.call('POST', '/assets/create', fragmentSeed(PYTHON_SNIPPET), key('k-tx'));
    const keyed = puts.filter((c) => c.includes('idempotency'));
    expect(keyed).toHaveLength(1);
    expect(keyed[0]).toEqual(expect.arrayContaining(['assets', 'formats', 'contents', 'changes', 'idempotency']));
  });

  it('a request that fails stores no key: sent again, it runs again', async () => {
    const api = await createTestApi();
    const created = await api.create(fragmentSeed(PYTHON_SNIPPET));
    const bad = { id: created.id, formats: { iterable: [{ id: 'not-its-format' }] } };
    const failed = await api.call('POST', '/asset/update', bad, key('k-fail'));
    expect(failed.status).toBe(422);
    expect(await keyCount(api)).toBe(0);
    const fixed = await api.call('POST', '/asset/update', { id: created.id, name: 'renamed' }, key('k-fail'));
    expect([fixed.status, fixed.json().name]).toEqual([200, 'renamed']);
  });

  it('a key sent with another request is a 422 that changes nothing; a bad key is a 400', async () => {
    const api = await createTestApi();
    await api.call('POST', '/assets/create', fragmentSeed(PYTHON_SNIPPET), key('k-used'));
    const other = await api.call('POST', '/tags/create', { text: 'python' }, key('k-used'));
    expect(other.status).toBe(422);
    expect(other.json().error).toMatchObject({ code: 'idempotency_key_reused' });
    // The path as the app serves it: under /api in process, at the root on the Node host.
    expect(other.json().error.message).toContain(`POST ${api.ctx.base}/assets/create`);
    // The same path with another query is another request too.
    expect((await api.call('POST', '/assets/create?transferables=false', fragmentSeed(PYTHON_SNIPPET), key('k-used'))).status).toBe(422);
    expect(await api.store.read((tx) => tx.count('tags'))).toBe(0);
    for (const bad of ['', ' spaced key ', 'x'.repeat(201), 'ключ']) {
      const reply = await api.call('POST', '/assets/create', fragmentSeed(PYTHON_SNIPPET), key(bad)).catch(() => undefined);
      // A header value outside ISO-8859-1 cannot even be sent (Headers refuses it): nothing to answer.
      if (!reply) continue;
      expect([reply.status, reply.json().error.code], JSON.stringify(bad)).toEqual([400, 'invalid_idempotency_key']);
    }
    expect(await assetCount(api)).toBe(1);
  });

  it('a key is kept 10 minutes: after that the same request runs again', async () => {
    const time = clock();
    const api = await createTestApi({ now: time.now });
    const seed = fragmentSeed(PYTHON_SNIPPET);
    const first = (await api.call('POST', '/assets/create', seed, key('k-old'))).json().id;
    time.advance(IDEMPOTENCY_TTL_MS - 1);
    expect((await api.call('POST', '/assets/create', seed, key('k-old'))).json().id).toBe(first);
    time.advance(1);
    expect((await api.call('POST', '/assets/create', seed, key('k-old'))).json().id).not.toBe(first);
    expect(await assetCount(api)).toBe(2);
  });
});

describe('every write route honours the key', () => {
  it('replays each write with the first response and writes nothing the second time', async () => {
    const api = await createTestApi();
    const py = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }));
    const go = await api.create(fragmentSeed(GO_SNIPPET, { name: 'hello' }));
    const tag = (await api.post('/tags/create', { text: 'cli' })).json();
    const ctx = await contextOf(api);
    await saveExchange(ctx, { conversation: 'talk', query: 'how?', answer: 'argparse', assets: [py.id] });
    await saveExchange(ctx, { conversation: 'gone', query: 'why?', answer: 'because', assets: [go.id] });
    await createServices(ctx).registerFolder('notes', { kind: 'directory', name: 'notes' });
    const backup = await backupText(api);

    const writes: [string, string, unknown?][] = [
      ['POST', '/assets/create', fragmentSeed(GO_SNIPPET)],
      ['POST', '/assets/import', { iterable: [fragmentSeed(PYTHON_SNIPPET), fragmentSeed(GO_SNIPPET)] }],
      ['POST', '/asset/update', { id: py.id, name: 'parse the arguments' }],
      ['POST', '/asset/reclassify', { asset: go, ext: 'ts' }],
      ['POST', `/asset/${py.id}/scores/increment`, { asset: { reuse: true } }],
      // A GET, but it records an export activity.
      ['GET', `/asset/${py.id}/export?export_type=MD`],
      ['POST', `/asset/${py.id}/tags/associate/${tag.id}`],
      ['POST', `/asset/${py.id}/tags/disassociate/${tag.id}`],
      ['POST', '/tags/create', { text: 'fresh', asset: go.id }],
      ['POST', '/websites/create', { url: 'https://go.dev/', name: 'Go', asset: go.id }],
      ['POST', '/workstream_summaries/create', { name: 'week', model: MODEL }],
      ['POST', '/conversation/update', { id: 'talk', name: 'Parsing' }],
      ['POST', '/conversations/gone/delete'],
      ['PUT', '/qgpt/settings', { url: 'http://127.0.0.1:9/v1', model: 'test-model' }],
      ['DELETE', '/qgpt/settings'],
      ['DELETE', '/folders/notes'],
      ['POST', '/backup/restore', backup],
      ['POST', `/assets/${go.id}/delete`],
    ];
    for (const [i, [method, path, body]] of writes.entries()) {
      const first = await api.call(method, path, body, key(`route-${i}`));
      expect(first.status, `${method} ${path}: ${first.text}`).toBeLessThan(300);
      const state = await api.store.read(async (tx) => {
        const all = await Promise.all((['assets', 'tags', 'websites', 'summaries', 'activities', 'conversations', 'meta', 'folders', 'changes'] as const).map((c) => tx.getAll(c)));
        return JSON.stringify(all);
      });
      const events = api.events.length;
      const again = await api.call(method, path, body, key(`route-${i}`));
      expect([again.status, again.contentType, again.text], `${method} ${path}`).toEqual([first.status, first.contentType, first.text]);
      expect(again.headers.get('idempotent-replayed'), `${method} ${path}`).toBe('true');
      expect(await api.store.read(async (tx) => {
        const all = await Promise.all((['assets', 'tags', 'websites', 'summaries', 'activities', 'conversations', 'meta', 'folders', 'changes'] as const).map((c) => tx.getAll(c)));
        return JSON.stringify(all);
      }), `${method} ${path} wrote again`).toBe(state);
      expect(api.events.length, `${method} ${path}`).toBe(events);
    }
    // The score was counted once, the export recorded once, the deleted asset answers its id again (not a 404).
    expect((await api.get(`/asset/${py.id}`)).json().score.reuse).toBe(1);
    const exported = (await api.get(`/asset/${py.id}/activities`)).json().iterable.filter((a: any) => a.event.asset.identifier_description_pair.asset_format_downloaded);
    expect(exported).toHaveLength(1);
    expect(await keyCount(api)).toBe(writes.length);
  });

  it('the RPC path: a keyed write runs once; the replay is its result; reads and unkeyed writes are refused there', async () => {
    const api = await createTestApi();
    const ctx = await contextOf(api);
    const seed = fragmentSeed(PYTHON_SNIPPET);
    const first = await runKeyedOperation(ctx, 'rpc-1', 'createAsset', [seed, { transferables: false }]);
    const again = await runKeyedOperation(ctx, 'rpc-1', 'createAsset', [seed, { transferables: false }]);
    expect(again).toEqual(JSON.parse(JSON.stringify(first)));
    expect(await assetCount(api)).toBe(1);
    const id = (first as { id: string }).id;
    await runKeyedOperation(ctx, 'rpc-2', 'incrementScores', [id, { asset: { reuse: true } }]);
    expect(await runKeyedOperation(ctx, 'rpc-2', 'incrementScores', [id, { asset: { reuse: true } }])).toBeUndefined();
    expect((await createServices(ctx).getAsset(id)).score?.reuse).toBe(1);
    // The same key for another operation, a read, a write without key: refused.
    await expect(runKeyedOperation(ctx, 'rpc-1', 'deleteAsset', [id])).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    await expect(runKeyedOperation(ctx, 'rpc-3', 'getAsset', [id])).rejects.toMatchObject({ status: 400 });
    await expect(runKeyedOperation(ctx, 'rpc-3', 'registerFolder', ['x', {}])).rejects.toMatchObject({ status: 400 });
    await expect(runKeyedOperation(ctx, 'rpc-3', 'toString', [])).rejects.toMatchObject({ status: 400 });
    expect(await assetCount(api)).toBe(1);
  });
});

describe('what is kept', () => {
  it('a sweep drops expired keys, then the oldest beyond the count and byte bounds, never the newest', async () => {
    const time = clock();
    const api = await createTestApi({ now: time.now });
    const ctx = await contextOf(api, time.now);
    for (let i = 0; i < 6; i++) {
      await api.call('POST', '/tags/create', { text: `t${i}` }, key(`sweep-${i}`));
      time.advance(60_000);
    }
    expect(await keyCount(api)).toBe(6);
    // 6, 5, 4 … minutes old: with 10 minutes kept, none expired; a bound of 4 keeps the 4 newest.
    expect(await sweepIdempotencyKeys(ctx, { count: 4, bytes: 1 << 20 })).toBe(2);
    const kept = async () => (await api.store.read((tx) => tx.getAll('idempotency'), ['idempotency'])).map((r) => r.id).sort();
    expect(await kept()).toEqual(['sweep-2', 'sweep-3', 'sweep-4', 'sweep-5']);
    time.advance(IDEMPOTENCY_TTL_MS - 4 * 60_000);
    // Now the oldest kept (10 minutes old) expires.
    expect(await sweepIdempotencyKeys(ctx)).toBe(1);
    expect(await kept()).toEqual(['sweep-3', 'sweep-4', 'sweep-5']);
    // A byte bound smaller than any response keeps the newest alone.
    expect(await sweepIdempotencyKeys(ctx, { count: 100, bytes: 1 })).toBe(2);
    expect(await kept()).toEqual(['sweep-5']);
  });
});

describe('the page client (createApi)', () => {
  it('sends a fresh Idempotency-Key with each write and none with a read', async () => {
    const sent: { method: string; url: string; key: string | null }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      sent.push({ method: init.method ?? 'GET', url, key: new Headers(init.headers).get('idempotency-key') });
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    try {
      const api = createApi({ base: '/api' });
      await api.create(fragmentSeed(PYTHON_SNIPPET) as never);
      await api.create(fragmentSeed(PYTHON_SNIPPET) as never);
      await api.addTag('a', 'cli');
      await api.remove('a');
      await api.setAnswerEndpoint({ url: 'http://127.0.0.1:9/v1', model: 'm' });
      await api.clearAnswerEndpoint();
      await api.exportAsset('a', 'MD');
      await api.getAsset('a');
      await api.search('parse');
      await api.draft(fragmentSeed(PYTHON_SNIPPET) as never);
    } finally {
      globalThis.fetch = realFetch;
    }
    // The export is a GET, keyed because it records an activity.
    const writes = sent.slice(0, 7);
    expect(writes[6]!.method).toBe('GET');
    expect(writes.every((s) => /^[0-9a-f-]{36}$/.test(s.key ?? ''))).toBe(true);
    expect(new Set(writes.map((s) => s.key)).size).toBe(7);
    expect(sent.slice(7).map((s) => s.key)).toEqual([null, null, null]);
  });
});
