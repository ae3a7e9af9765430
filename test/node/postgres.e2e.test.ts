/**
 * Two Node hosts on one PostgreSQL database (DATABASE_URL; .ci/run starts Debian's postgresql and sets
 * it, and fails when it cannot): what one instance writes, the other reads at once, and the other's
 * streams receive it within a second (NOTIFY, then the change log).
 */
import type { Seed } from '@pieces.app/pieces-os-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from '../../worker/node/pg/database.ts';
import { configureChatEndpoint, startChatServer } from '../support/chat-server.ts';
import { hostCall, openSocket, sdk, startHostProcess, wsUrl, type HostProcess } from '../support/node-host.ts';
import { dropSchemas, postgresUrl, testSchema } from '../support/pg.ts';
import { FrameReader } from '../support/qgpt-frames.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';

/** POSTs one /qgpt/stream input frame to a host, on the socket the `tessera-socket` header names. */
async function post(host: HostProcess, input: unknown, socket: string): Promise<FrameReader> {
  const response = await fetch(`${host.url}/qgpt/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'tessera-socket': socket },
    body: JSON.stringify(input),
  });
  expect(response.status).toBe(200);
  return new FrameReader(response.body!);
}

const inProgress = (reader: FrameReader) => reader.frames.filter((f) => f.status === 'IN-PROGRESS');

/** Reads until the answer has sent `count` deltas in all. */
async function deltas(reader: FrameReader, count: number): Promise<void> {
  while (inProgress(reader).length < count) {
    if (!(await reader.next())) throw new Error(`the answer ended before ${count} deltas: ${JSON.stringify(reader.frames.at(-1))}`);
  }
}

const url = postgresUrl('two Node hosts on one PostgreSQL database');

describe.skipIf(!url)('two Node hosts on one PostgreSQL database', { timeout: 120_000 }, () => {
  const schema = testSchema('e2e');
  let a: HostProcess;
  let b: HostProcess;

  beforeAll(async () => {
    const args = ['--database-url', url!, '--schema', schema];
    // One first, so that the second finds the schema migrated (they would also take turns).
    a = await startHostProcess(args);
    b = await startHostProcess(args);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const db = await PostgresDatabase.open({ url: url! });
    await dropSchemas(db, [schema]);
    await db.close();
  });

  it('a create on A is read on B and reaches a stream on B within a second; an update on A is what B reads next', async () => {
    expect(a.output()).toMatch(/PostgreSQL postgres:\/\/[^ ]*:\*\*\*@/); // the password is not printed
    const onA = sdk(a.url);
    const onB = sdk(b.url);
    const stream = await openSocket(wsUrl(b.url, '/assets/stream/identifiers'));
    const assets = await openSocket(wsUrl(b.url, '/assets/stream'));
    expect(await stream.next()).toEqual({ iterable: [] });
    expect((await assets.next()).iterable).toEqual([]);

    const t0 = performance.now();
    const created = await onA.assets.assetsCreateNewAsset({ seed: fragmentSeed(PYTHON_SNIPPET) as unknown as Seed });
    const acknowledged = performance.now();
    expect(await stream.next(1000)).toEqual({ iterable: [{ asset: { id: created.id } }] });
    const streamed = performance.now();
    expect((await assets.next(1000)).iterable[0].id).toBe(created.id);
    console.log(`PostgreSQL, create on A to the identifiers frame on B: ${(streamed - t0).toFixed(1)} ms (${(streamed - acknowledged).toFixed(1)} ms after A answered)`);

    const read = await onB.asset.assetSnapshot({ asset: created.id });
    expect(read.formats.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
    expect((await onB.assets.searchAssets({ query: 'parse_args' })).iterable[0]!.identifier).toBe(created.id);

    // B has the asset in its cache now (from the read and the search); A renames it; B's next search and
    // read answer the new name at once.
    await onA.asset.assetUpdate({ asset: { ...read, name: 'renamed on A' } });
    expect((await onB.assets.searchAssets({ query: 'parse_args' })).iterable[0]!.asset?.name).toBe('renamed on A');
    expect((await onB.asset.assetSnapshot({ asset: created.id })).name).toBe('renamed on A');
    expect(await stream.next(1000)).toEqual({ iterable: [{ asset: { id: created.id } }] });

    // And the other way round, with a delete.
    const other = await onB.assets.assetsCreateNewAsset({ seed: fragmentSeed(GO_SNIPPET) as unknown as Seed });
    expect((await onA.assets.assetsSnapshot({ transferables: false })).iterable.map((x) => x.id).sort()).toEqual([created.id, other.id].sort());
    await onA.assets.assetsDeleteAsset({ asset: other.id });
    const frames = [await stream.next(1000), await stream.next(1000)];
    expect(frames).toEqual([{ iterable: [{ asset: { id: other.id } }] }, { iterable: [{ asset: { id: other.id }, deleted: true }] }]);
    expect((await fetch(`${b.url}/asset/${other.id}`)).status).toBe(404);
    stream.close();
    assets.close();
  });

  it('relevance on B follows the writes on A: a new asset, its new content, its deletion (B answers what A answers)', async () => {
    const onA = sdk(a.url);
    const onB = sdk(b.url);
    /** The ranked snippets: each one's asset and text. */
    const relevance = async (api: ReturnType<typeof sdk>, query: string) =>
      (await api.qgpt.relevance({ qGPTRelevanceInput: { query, options: { database: true } } })).relevant.iterable.map((r) => [r.asset?.id, r.seed?.asset?.format?.fragment?.string?.raw]);
    const yamlQuery = 'read a yaml configuration file';
    const weatherQuery = 'fetch the weather forecast of a city';
    const weather = 'def fetch_weather_forecast(city):\n    return requests.get(f"https://weather.example/forecast/{city}").json()\n';

    const asset = await onA.assets.assetsCreateNewAsset({ seed: fragmentSeed(YAML_SNIPPET) as unknown as Seed });
    const first = await relevance(onB, yamlQuery);
    expect(first[0]).toEqual([asset.id, expect.stringContaining('yaml')]);
    expect(first).toEqual(await relevance(onA, yamlQuery));

    // Its content becomes a weather client on A: B ranks it by the new content at once.
    const current = await onA.asset.assetSnapshot({ asset: asset.id });
    current.formats.iterable[0]!.fragment!.string!.raw = weather;
    await onA.asset.assetUpdate({ asset: current });
    const after = await relevance(onB, weatherQuery);
    expect(after[0]).toEqual([asset.id, expect.stringContaining('fetch_weather_forecast')]);
    expect(after.flat().join('\n')).not.toContain('yaml');
    expect(after).toEqual(await relevance(onA, weatherQuery));

    await onA.assets.assetsDeleteAsset({ asset: asset.id });
    const gone = await relevance(onB, weatherQuery);
    expect(gone.map(([id]) => id)).not.toContain(asset.id);
    expect(gone).toEqual(await relevance(onA, weatherQuery));
  });

  it('a /qgpt/stream answer running on A is reached from B: a question in its conversation is a 409, a stop from its socket ends it (another socket\'s does not), and so do a reset of its socket and a delete of the conversation', async () => {
    const chat = await startChatServer({ reply: 'token '.repeat(3000), chunkSize: 6, delayMs: 20 });
    try {
      await configureChatEndpoint({ call: hostCall(a.url) }, chat);
      const py = await sdk(a.url).assets.assetsCreateNewAsset({ seed: fragmentSeed(PYTHON_SNIPPET) as unknown as Seed });
      const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py.id } }] };
      const ask = (host: HostProcess, conversation: string, socket: string) =>
        post(host, { question: { query: 'which library parses arguments?', relevant }, conversation, request: `q-${conversation}` }, socket);

      const stopped = await ask(a, 'relay-stop', 'socket-1');
      await deltas(stopped, 2);
      // The conversation is answering on A: a question in it on B is refused as on one instance.
      const busy = await (await post(b, { question: { query: 'again?', relevant }, conversation: 'relay-stop', request: 'busy' }, 'socket-2')).rest();
      expect(busy).toEqual([{ conversation: 'relay-stop', request: 'busy', status: 'FAILED', statusCode: 409, errorMessage: expect.stringMatching(/is answering another request/) }]);
      // A stop from another socket, sent to B, leaves it running: it sends more deltas.
      expect(await (await post(b, { conversation: 'relay-stop', stop: true, request: 'other' }, 'socket-2')).rest()).toEqual([
        { conversation: 'relay-stop', request: 'other', status: 'STOPPED' },
      ]);
      await deltas(stopped, inProgress(stopped).length + 2);
      // The stop from its own socket, sent to B, ends it; B answers once A has stored what it sent.
      expect(await (await post(b, { conversation: 'relay-stop', stop: true, request: 'stop' }, 'socket-1')).rest()).toEqual([
        { conversation: 'relay-stop', request: 'stop', status: 'STOPPED' },
      ]);
      const messages = (await (await fetch(`${b.url}/conversation/relay-stop`)).json()).messages.iterable.map((m: { reference: { role: string; fragment: { string: { raw: string } } } }) => [
        m.reference.role,
        m.reference.fragment.string.raw,
      ]);
      const frames = await stopped.rest();
      expect(frames.at(-1)).toEqual({ conversation: 'relay-stop', request: 'q-relay-stop', status: 'STOPPED' });
      const sent = inProgress(stopped)
        .map((f) => f.question!.answers.iterable[0]!.text)
        .join('');
      expect(sent.length).toBeLessThan(chat.reply.length);
      expect(messages).toEqual([
        ['USER', 'which library parses arguments?'],
        ['ASSISTANT', sent],
      ]);

      // A reset of its socket, sent to B, ends it with RESET.
      const reset = await ask(a, 'relay-reset', 'socket-3');
      await deltas(reset, 2);
      expect(await (await post(b, { reset: true, request: 'r' }, 'socket-3')).rest()).toEqual([{ conversation: '', request: 'r', status: 'RESET' }]);
      expect((await reset.rest()).at(-1)).toEqual({ conversation: 'relay-reset', request: 'q-relay-reset', status: 'RESET' });

      // A delete of the conversation on B ends its answer on A, which is not stored again after it.
      const deleted = await ask(a, 'relay-stop', 'socket-4');
      await deltas(deleted, 2);
      expect((await fetch(`${b.url}/conversations/relay-stop/delete`, { method: 'POST' })).status).toBe(204);
      expect((await deleted.rest()).at(-1)).toEqual({ conversation: 'relay-stop', request: 'q-relay-stop', status: 'STOPPED' });
      expect((await fetch(`${a.url}/conversation/relay-stop`)).status).toBe(404);
      expect((await (await fetch(`${b.url}/conversations`)).json()).iterable.map((c: { id: string }) => c.id)).not.toContain('relay-stop');
    } finally {
      await fetch(`${a.url}/qgpt/settings`, { method: 'DELETE' }).catch(() => undefined);
      await chat.close();
    }
  });
});
