/**
 * The Node host end to end: `node bin/tessera.mjs serve` (what `npm run start:node` runs) as a child
 * process on a free port with a temporary data folder (PGlite), driven with the official SDK from Node
 * (every response checked against the contract) and real WebSockets (`ws`).
 */
import { join } from 'node:path';
import { FlattenedAssetsFromJSON, type Asset, type Seed } from '@pieces.app/pieces-os-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION, GO_SNIPPET, PYTHON_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { configureChatEndpoint, startChatServer } from '../support/chat-server.ts';
import { hostCall, openSocket, sdk, startHostProcess, wsUrl, type HostProcess } from '../support/node-host.ts';
import { preparedDataDir } from '../support/pg.ts';
import { readSeq } from '../../worker/core/feed/commit.ts';
import { SNAPSHOT_ID, type SearchSnapshot } from '../../worker/core/search/search-index.ts';
import { PgliteDatabase } from '../../worker/node/pg/database.ts';
import { PgStore } from '../../worker/node/pg/pg-store.ts';

const seed = (raw: string) => fragmentSeed(raw) as unknown as Seed;

describe('Node host on PGlite, through the official SDK', { timeout: 180_000 }, () => {
  let data: Awaited<ReturnType<typeof preparedDataDir>>;
  let dir: string;
  let host: HostProcess;
  let api: ReturnType<typeof sdk>;

  beforeAll(async () => {
    // A folder with PGlite initialised already: the host skips initdb, which a first start runs (seconds).
    data = await preparedDataDir();
    dir = data.dir;
    host = await startHostProcess(['--data', dir]);
    api = sdk(host.url);
  }, 180_000);

  afterAll(async () => {
    await host?.stop();
    await data?.remove();
  });

  it('serves the API at the root path on 127.0.0.1, as the desktop service', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}`);
    expect(await (await fetch(`${host.url}/.well-known/health`)).text()).toBe('ok');
    expect(await api.wellKnown.getWellKnownVersion()).toMatch(/^12\./);
    const missing = await fetch(`${host.url}/api/assets`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('route_not_found');
  });

  let python: Asset;
  let go: Asset;

  it('creates, reads, updates, searches, ranks for relevance and deletes', async () => {
    python = await api.assets.assetsCreateNewAsset({ seed: seed(PYTHON_SNIPPET) });
    expect(python.formats.iterable[0]!.classification).toMatchObject({ generic: 'CODE', specific: 'py' });
    go = await api.assets.assetsCreateNewAsset({ seed: seed(GO_SNIPPET) });
    expect(go.formats.iterable[0]!.classification.specific).toBe('go');
    const yaml = await api.assets.assetsCreateNewAsset({ seed: seed(YAML_SNIPPET) });
    const retry = await api.assets.assetsCreateNewAsset({ seed: seed(RETRY_SNIPPET) });

    const read = await api.asset.assetSnapshot({ asset: python.id });
    expect(read.formats.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);

    const renamed = await api.asset.assetUpdate({ asset: { ...read, name: 'argument parser' } });
    expect(renamed.name).toBe('argument parser');
    expect((await api.asset.assetSnapshot({ asset: python.id })).name).toBe('argument parser');

    const found = await api.assets.searchAssets({ query: 'parse_args' });
    expect(found.iterable[0]!.identifier).toBe(python.id);
    const byName = await api.assets.searchAssets({ query: 'argument parser', transferables: false });
    expect(byName.iterable.map((x) => x.identifier)).toContain(python.id);

    const relevant = await api.qgpt.relevance({ qGPTRelevanceInput: { query: 'read a yaml configuration file', options: { database: true } } });
    expect(relevant.relevant.iterable[0]!.asset?.id).toBe(yaml.id);
    // The host ranks with the code vectors this repository ships, read from worker/models/.
    const embedder = (await (await fetch(`${host.url}/embeddings`)).json()) as { id: string; kind: string; reason: string };
    expect(embedder).toMatchObject({ kind: 'code-vectors', id: expect.stringMatching(/^hashing-v3-1024\+code-vectors-/) });
    expect(embedder.reason).toMatch(/worker[/\\]models[/\\]code-vectors[/\\]python\.tcv/);

    await api.assets.assetsDeleteAsset({ asset: retry.id });
    const ids = (await api.assets.assetsSnapshot({ transferables: false })).iterable.map((a) => a.id);
    expect(ids).toHaveLength(3);
    expect(ids).not.toContain(retry.id);
    const gone = await fetch(`${host.url}/asset/${retry.id}`);
    expect(gone.status).toBe(404);
  });

  it('streams over real WebSockets: the snapshot first, then a delta per change; /qgpt/stream and health', async () => {
    const identifiers = await openSocket(wsUrl(host.url, '/assets/stream/identifiers'));
    const assets = await openSocket(wsUrl(host.url, '/assets/stream'));
    const transferables = await openSocket(wsUrl(host.url, '/assets/stream/transferables'));
    const snapshot = await identifiers.next();
    expect(snapshot.iterable.map((x: { asset: { id: string } }) => x.asset.id).sort()).toEqual(
      (await api.assets.assetsSnapshot({ transferables: false })).iterable.map((a) => a.id).sort(),
    );
    const assetsSnapshot = await assets.next();
    expect(assetsSnapshot.iterable).toHaveLength(3);
    // /assets/stream/transferables: the same snapshot, each format with its content.
    const full = (await transferables.next()).iterable as Asset[];
    expect(full.map((a) => a.id).sort()).toEqual(assetsSnapshot.iterable.map((a: Asset) => a.id).sort());
    expect(full.find((a) => a.id === python.id)!.formats.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);

    const t0 = performance.now();
    const sql = 'SELECT id, name FROM users WHERE active = 1;';
    const created = await api.assets.assetsCreateNewAsset({ seed: seed(sql) });
    expect(await identifiers.next()).toEqual({ iterable: [{ asset: { id: created.id } }] });
    const delta = await assets.next();
    expect(delta.iterable.map((a: { id: string }) => a.id)).toEqual([created.id]);
    expect(delta.iterable[0].formats.iterable[0].fragment).toBeUndefined(); // no transferables on /assets/stream
    const fullDelta = await transferables.next();
    expect(fullDelta.iterable.map((a: Asset) => a.id)).toEqual([created.id]);
    expect(fullDelta.iterable[0].formats.iterable[0].fragment.string.raw).toBe(sql);
    const ms = performance.now() - t0;
    await api.assets.assetsDeleteAsset({ asset: created.id });
    expect(await identifiers.next()).toEqual({ iterable: [{ asset: { id: created.id }, deleted: true }] });
    expect((await assets.next()).iterable[0].deleted).toBeDefined();
    // An asset's removal on the Assets streams: its last state with its `deleted` time.
    expect((await transferables.next()).iterable.map((a: Asset) => [a.id, a.deleted !== undefined])).toEqual([[created.id, true]]);
    console.log(`create to the three stream deltas: ${ms.toFixed(1)} ms`);
    identifiers.close();
    assets.close();
    transferables.close();

    const health = await openSocket(wsUrl(host.url, '/.well-known/stream/health'));
    expect(await health.next(5000, true)).toBe('ok');
    health.close();

    const qgpt = await openSocket(wsUrl(host.url, '/qgpt/stream'));
    qgpt.ws.send(JSON.stringify({ request: 'r1', relevance: { query: 'parse command line arguments', options: { question: true, database: true } } }));
    const statuses: string[] = [];
    for (;;) {
      const frame = await qgpt.next(20_000);
      expect(frame.request).toBe('r1');
      statuses.push(frame.status);
      if (!['INITIALIZED', 'IN-PROGRESS'].includes(frame.status)) break;
    }
    expect(statuses[0]).toBe('INITIALIZED');
    expect(statuses.at(-1)).toBe('COMPLETED');
    qgpt.close();

    await expect(openSocket(wsUrl(host.url, '/assets/stream/nope'))).rejects.toThrow(/404/);
  });

  it('reclassifies, imports, lists formats and activities, and exports, through the SDK', async () => {
    const current = await api.asset.assetSnapshot({ asset: go.id });
    const reclassified = await api.asset.assetReclassify({ assetReclassification: { ext: 'ts', asset: current } });
    expect(reclassified.formats.iterable[0]!.classification).toMatchObject({ generic: 'CODE', specific: 'ts' });
    expect(reclassified.formats.iterable[0]!.fragment?.string?.raw).toBe(GO_SNIPPET);
    expect((await api.asset.assetSnapshot({ asset: go.id })).formats.iterable[0]!.classification.specific).toBe('ts');
    await api.asset.assetReclassify({ assetReclassification: { ext: 'go', asset: reclassified } });

    // POST /assets/import is Tessera's own (many seeds in one transaction); its answer is the SDK's FlattenedAssets.
    const response = await fetch(`${host.url}/assets/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ iterable: [seed('fn imported_one() {}'), seed('def imported_two(): pass')] }),
    });
    expect(response.status).toBe(200);
    const imported = FlattenedAssetsFromJSON(await response.json()).iterable!.map((a) => a.id);
    expect(imported).toHaveLength(2);
    expect((await api.asset.assetSnapshot({ asset: imported[1]! })).formats.iterable[0]!.fragment?.string?.raw).toBe('def imported_two(): pass');
    expect((await api.assets.searchAssets({ query: 'imported_one' })).iterable[0]!.identifier).toBe(imported[0]);

    const formats = await api.asset.assetFormats({ asset: python.id });
    expect(formats.iterable.map((f) => f.id)).toEqual(python.formats.iterable.map((f) => f.id));
    expect(formats.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
    expect((await api.asset.assetFormats({ asset: python.id, transferables: false })).iterable[0]!.fragment?.string).toBeUndefined();
    expect((await api.assets.assetsSpecificAssetFormatsSnapshot({ asset: python.id })).iterable.map((f) => f.id)).toEqual(formats.iterable.map((f) => f.id));

    const md = await api.asset.assetSpecificAssetExport({ asset: python.id, exportType: 'MD' });
    expect(md.name).toBe('argument parser');
    expect(md.raw.string!.raw).toMatch(/^# argument parser\n/);
    expect(md.raw.string!.raw).toContain('```python\n' + PYTHON_SNIPPET + '\n```');
    const html = await api.asset.assetSpecificAssetExport({ asset: python.id, exportType: 'HTML' });
    expect(html.raw.string!.raw).toMatch(/^<!DOCTYPE html>/);
    expect(html.raw.string!.raw).toContain('<title>argument parser</title>');

    const eventsOf = async (asset: string) =>
      (await api.asset.assetSpecificAssetActivities({ asset })).iterable.map((a) => {
        expect(a.asset?.id).toBe(asset);
        return Object.entries(a.event.asset?.identifierDescriptionPair ?? {}).filter(([, v]) => v !== undefined).map(([k]) => k);
      });
    expect(await eventsOf(python.id)).toEqual([['assetCreated'], ['assetNameUpdated'], ['assetUpdated'], ['assetFormatDownloaded'], ['assetFormatDownloaded']]);
    expect(await eventsOf(go.id)).toEqual([['assetCreated'], ['assetFormatSpecificClassificationUpdated'], ['assetFormatSpecificClassificationUpdated']]);
  });

  it('/qgpt/stream: a reset or a stop on one WebSocket leaves another WebSocket\'s answer running to COMPLETED', async () => {
    const chat = await startChatServer({ reply: 'token '.repeat(60), chunkSize: 6, delayMs: 15 });
    try {
      await configureChatEndpoint({ call: hostCall(host.url) }, chat);
      const [a, b] = [await openSocket(wsUrl(host.url, '/qgpt/stream')), await openSocket(wsUrl(host.url, '/qgpt/stream'))];
      const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: seed(PYTHON_SNIPPET).asset }, asset: { id: python.id } }] };
      a.ws.send(JSON.stringify({ question: { query: 'which library parses arguments?', relevant }, conversation: 'on-a', request: 'qa' }));
      const frames: { status: string }[] = [];
      while (frames.filter((f) => f.status === 'IN-PROGRESS').length < 2) frames.push(await a.next(20_000));
      b.ws.send(JSON.stringify({ reset: true, request: 'rb' }));
      expect((await b.next(20_000)).status).toBe('RESET');
      b.ws.send(JSON.stringify({ conversation: 'on-a', stop: true, request: 'sb' }));
      expect((await b.next(20_000)).status).toBe('STOPPED');
      for (;;) {
        const frame = await a.next(20_000);
        frames.push(frame);
        if (!['INITIALIZED', 'IN-PROGRESS'].includes(frame.status)) break;
      }
      expect(frames.at(-1)!.status).toBe('COMPLETED');
      a.close();
      b.close();
    } finally {
      await fetch(`${host.url}/qgpt/settings`, { method: 'DELETE' }).catch(() => undefined);
      await chat.close();
    }
  });

  it('a restart on the same data folder keeps everything; the stop saved the search index with every write in it', async () => {
    // A write the index has not caught up with yet (it would, 300 ms on, and save 1.5 s after that).
    expect((await api.assets.searchAssets({ query: 'fmt.Println' })).iterable[0]!.identifier).toBe(go.id);
    const late = await api.assets.assetsCreateNewAsset({ seed: seed('def stopped_soon_after(): return "saved at the stop"') });
    const before = (await api.assets.assetsSnapshot({ transferables: true })).iterable;
    expect(await host.stop('SIGTERM')).toBe(0);
    const db = await PgliteDatabase.open({ dataDir: join(dir, 'pglite') });
    try {
      const store = await PgStore.open(db);
      const [snapshot, seq] = await store.read(async (tx) => [(await tx.get('indexes', SNAPSHOT_ID)) as SearchSnapshot | undefined, await readSeq(tx)] as const);
      store.close();
      expect(snapshot?.seq).toBe(seq);
    } finally {
      await db.close();
    }
    host = await startHostProcess(['--data', dir]);
    api = sdk(host.url);
    const after = (await api.assets.assetsSnapshot({ transferables: true })).iterable;
    const strip = (list: Asset[]) => JSON.stringify([...list].sort((a, b) => a.id.localeCompare(b.id)));
    expect(strip(after)).toBe(strip(before));
    expect((await api.asset.assetSnapshot({ asset: python.id })).name).toBe('argument parser');
    expect((await api.assets.searchAssets({ query: 'fmt.Println' })).iterable[0]!.identifier).toBe(go.id);
    expect((await api.assets.searchAssets({ query: 'stopped_soon_after' })).iterable[0]!.identifier).toBe(late.id);
    const stream = await openSocket(wsUrl(host.url, '/assets/stream/identifiers'));
    expect((await stream.next()).iterable).toHaveLength(before.length);
    stream.close();
  });

  it('SIGKILL during a write burst of 8 clients loses no acknowledged write', async () => {
    const acknowledged: string[] = [];
    const latencies: number[] = [];
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const t = performance.now();
        try {
          const body = { asset: { application: APPLICATION, format: { fragment: { string: { raw: `const client${n}_${i} = ${i}; // burst` } } } } };
          const response = await fetch(`${host.url}/assets/create?transferables=false`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (response.status !== 200) throw new Error(`create answered ${response.status}`);
          const { id } = (await response.json()) as { id: string };
          acknowledged.push(id);
          latencies.push(performance.now() - t);
        } catch {
          return; // the host is gone
        }
      }
    };
    const started = performance.now();
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    while (acknowledged.length < 150 && performance.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = (performance.now() - started) / 1000;
    const rate = acknowledged.length / seconds;
    expect(await host.stop('SIGKILL')).toBe('SIGKILL');
    stop = true;
    await Promise.all(clients);
    latencies.sort((a, b) => a - b);
    console.log(
      `PGlite, 8 clients: ${acknowledged.length} creates acknowledged in ${seconds.toFixed(1)} s (${rate.toFixed(0)} assets/s), p50 ${latencies[latencies.length >> 1]!.toFixed(1)} ms`,
    );
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    host = await startHostProcess(['--data', dir]);
    api = sdk(host.url);
    const stored = new Set((await api.assets.assetsSnapshot({ transferables: false })).iterable.map((a) => a.id));
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    // And the library works on: a create after the crash, found by search.
    const after = await api.assets.assetsCreateNewAsset({ seed: seed('fn after_crash() -> u32 { 42 }') });
    expect((await api.assets.searchAssets({ query: 'after_crash' })).iterable[0]!.identifier).toBe(after.id);
  });

  it('refuses a second host on the same data folder', async () => {
    await expect(startHostProcess(['--data', dir])).rejects.toThrow(/in use by another Tessera/);
  });
});
