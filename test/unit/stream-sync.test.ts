/**
 * The live streams in Node: the worker's stream routes (snapshot with its seq, catch-up from the change
 * log, the qgpt stream) and the page-side StreamSync on top of them, with a channel that can lose,
 * repeat and delay events. Frames are parsed with the official SDK's own FromJSON functions.
 */
import { AssetsFromJSON, QGPTStreamOutputFromJSON, StreamedIdentifiersFromJSON } from '@pieces.app/pieces-os-client';
import { describe, expect, it } from 'vitest';
import { StreamSync, changeEventsIn, isChangeEvent, type SyncTransport } from '../../worker/core/streams/stream-sync.ts';
import { CHANGE_LOG_SIZE } from '../../worker/core/feed/commit.ts';
import type { ChangeEvent } from '../../worker/core/feed/feed.ts';
import { AssetsSchema, QGPTStreamOutputSchema, StreamedIdentifiersSchema, type Asset, type Assets, type StreamedIdentifiers } from '../../worker/core/model/schemas.ts';
import { assetDelta, identifierDelta, identifiersSnapshot } from '../../worker/core/streams/frames.ts';
import { BOTH_INPUTS_ERROR } from '../../worker/core/streams/qgpt.ts';
import { SEQ_HEADER, type StreamCatchUp, type StreamFrame, type StreamKind } from '../../worker/core/streams/protocol.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { createTestApi } from '../support/test-api.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

const PATHS: Record<StreamKind, string> = {
  identifiers: '/assets/stream/identifiers',
  assets: '/assets/stream',
  transferables: '/assets/stream/transferables',
};

async function world() {
  const api = await createTestApi({ store: new MemoryStore() });
  const { store, feed, ctx } = api;
  const request = (method: string, path: string, body?: unknown) => api.call(method, path, body);
  const json = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const reply = await request(method, path, body);
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.json() as T;
  };
  const create = (raw = PYTHON_SNIPPET) => json<Asset>('POST', '/assets/create', fragmentSeed(raw));
  const rename = async (id: string, name: string) => json<Asset>('POST', '/asset/update', { ...(await json<Asset>('GET', `/asset/${id}`)), name });
  const remove = (id: string) => request('POST', `/assets/${id}/delete`);
  const ids = async () => (await json<{ iterable: { id: string }[] }>('GET', '/assets/identifiers?pseudo=true')).iterable.map((r) => r.id);
  return { store, feed, ctx, request, json, create, rename, remove, ids };
}
type World = Awaited<ReturnType<typeof world>>;

/** The transport of app/client/socket.ts, on the test API instead of fetch. */
function transport(w: World, kind: StreamKind, spy?: { snapshots: number; since: number[] }): SyncTransport {
  return {
    async snapshot() {
      if (spy) spy.snapshots++;
      const response = await w.request('GET', PATHS[kind]);
      expect(response.status).toBe(200);
      return { seq: Number(response.headers.get(SEQ_HEADER)), frame: response.json() as StreamFrame };
    },
    async since(seq) {
      spy?.since.push(seq);
      return w.json<StreamCatchUp>('GET', `${PATHS[kind]}?since=${seq}`);
    },
  };
}

/** Applies identifier frames as a real client does (Raycast, the Python wrapper): a snapshot is the truth. */
class IdentifierClient {
  ids = new Set<string>();
  frames: StreamedIdentifiers[] = [];
  apply(frame: StreamFrame, first: boolean) {
    const parsed = StreamedIdentifiersFromJSON(JSON.parse(JSON.stringify(frame)));
    expect(StreamedIdentifiersSchema.safeParse(frame).success).toBe(true);
    this.frames.push(frame as StreamedIdentifiers);
    if (first) this.ids = new Set();
    for (const item of parsed.iterable) {
      if (!item.asset) throw new Error('got an identifier in the assets stream that is not an asset');
      if (item.deleted) this.ids.delete(item.asset.id);
      else this.ids.add(item.asset.id);
    }
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
async function settle(sync: StreamSync) {
  for (let i = 0; i < 50; i++) await flush();
  return sync;
}

/** A channel between the worker's feed and one sync that can drop or repeat events. */
function channel(w: World, sync: () => StreamSync | undefined, filter: (e: ChangeEvent) => ChangeEvent[] = (e) => [e]) {
  return w.feed.subscribe((event) => {
    for (const e of filter(event)) sync()?.onEvent({ ...e });
  });
}

describe('stream routes', () => {
  it('answer the snapshot frame with the seq it reflects, also for an empty library', async () => {
    const w = await world();
    for (const kind of ['identifiers', 'assets', 'transferables'] as const) {
      const response = await w.request('GET', PATHS[kind]);
      expect(response.status).toBe(200);
      expect(response.headers.get(SEQ_HEADER)).toBe('0');
      expect(await response.json()).toMatchObject({ iterable: [] });
    }
    const a = await w.create();
    const b = await w.create(GO_SNIPPET);
    const response = await w.request('GET', PATHS.identifiers);
    expect(response.headers.get(SEQ_HEADER)).toBe('2');
    const frame = await response.json();
    expect(frame).toEqual(identifiersSnapshot([b.id, a.id]));
    const assets = (await w.json<Assets>('GET', PATHS.assets)) as Assets;
    expect(AssetsSchema.safeParse(assets).success).toBe(true);
    expect(assets.iterable.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(assets.iterable[0]!.formats.iterable[0]!.fragment).toBeUndefined();
    const full = (await w.json<Assets>('GET', PATHS.transferables)) as Assets;
    expect(full.iterable[1]!.formats.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
  });

  it('answer the changes after a seq from the change log, with the assets on the asset streams', async () => {
    const w = await world();
    const a = await w.create();
    await w.rename(a.id, 'renamed');
    const b = await w.create(GO_SNIPPET);
    await w.remove(b.id);
    const ids = await w.json<StreamCatchUp>('GET', `${PATHS.identifiers}?since=1`);
    expect(ids).toEqual({
      seq: 4,
      changes: [
        { seq: 2, asset: a.id, kind: 'updated' },
        { seq: 3, asset: b.id, kind: 'created' },
        { seq: 4, asset: b.id, kind: 'deleted' },
      ],
    });
    const assets = await w.json<StreamCatchUp & { changes: { value?: Asset }[] }>('GET', `${PATHS.assets}?since=1`);
    expect(assets.changes.map((c) => c.value?.name ?? null)).toEqual(['renamed', null, null]);
    expect(await w.json('GET', `${PATHS.identifiers}?since=4`)).toEqual({ seq: 4, changes: [] });
  });

  it('answer a fresh snapshot when the reader is ahead of the store (it was reset) or too far behind', async () => {
    const w = await world();
    const a = await w.create();
    expect(await w.json('GET', `${PATHS.identifiers}?since=9`)).toEqual({ seq: 1, snapshot: identifiersSnapshot([a.id]) });
    await w.store.write(async (tx) => tx.put('meta', { id: 'seq', value: CHANGE_LOG_SIZE + 5 }));
    expect(await w.json('GET', `${PATHS.identifiers}?since=1`)).toEqual({ seq: CHANGE_LOG_SIZE + 5, snapshot: identifiersSnapshot([a.id]) });
  });

  it('refuse a since that is not a sequence number', async () => {
    const w = await world();
    for (const bad of ['-1', 'abc', '1.5', '']) {
      const response = await w.request('GET', `${PATHS.identifiers}?since=${bad}`);
      expect([400]).toContain(response.status);
      expect(await response.json()).toMatchObject({ error: { status: 400, code: 'invalid_parameter' } });
    }
  });

  it('/qgpt/stream answers each input with NDJSON frames the SDK parses, echoing request and conversation', async () => {
    const w = await world();
    const both = { question: { query: 'what is this?', relevant: { iterable: [] } }, relevance: { query: 'what is this?' }, request: 'r-1', conversation: 'c-1' };
    const response = await w.request('POST', '/qgpt/stream', both);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = response.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const frame = JSON.parse(lines[0]!);
    expect(QGPTStreamOutputSchema.safeParse(frame).success).toBe(true);
    expect(frame).toEqual({ conversation: 'c-1', request: 'r-1', status: 'FAILED', errorMessage: BOTH_INPUTS_ERROR, statusCode: 422 });
    expect(QGPTStreamOutputFromJSON(frame).status).toBe('FAILED');

    const stopped = JSON.parse((await w.request('POST', '/qgpt/stream', { conversation: 'c-2', stop: true })).text.trim());
    expect(stopped.conversation).toBe('c-2');
    expect(stopped.request).toMatch(/^[0-9a-f-]{36}$/);
    expect(QGPTStreamOutputFromJSON(stopped).status).toBe('STOPPED');
    const failed = JSON.parse((await w.request('POST', '/qgpt/stream', '{nope')).text.trim());
    expect(failed).toMatchObject({ status: 'FAILED', conversation: '', statusCode: 400 });
    expect(failed.errorMessage).toMatch(/not valid JSON/);
  });
});

describe('StreamSync (identifiers)', () => {
  async function open(w: World, filter?: (e: ChangeEvent) => ChangeEvent[], spy?: { snapshots: number; since: number[] }) {
    const client = new IdentifierClient();
    let first = true;
    let sync: StreamSync | undefined;
    sync = new StreamSync({
      kind: 'identifiers',
      transport: transport(w, 'identifiers', spy),
      emit: (frame) => {
        client.apply(frame, first);
        first = false;
      },
      fail: (error) => {
        throw error;
      },
    });
    channel(w, () => sync, filter);
    await sync.start();
    return { sync, client };
  }

  it('sends the snapshot first (also when empty), then one delta per change in commit order, deletions flagged', async () => {
    const w = await world();
    const { sync, client } = await open(w);
    const a = await w.create();
    await w.rename(a.id, 'x');
    const b = await w.create(GO_SNIPPET);
    await w.remove(a.id);
    await settle(sync);
    expect(client.frames).toEqual([
      { iterable: [] },
      identifierDelta({ asset: a.id, kind: 'created' }),
      identifierDelta({ asset: a.id, kind: 'updated' }),
      identifierDelta({ asset: b.id, kind: 'created' }),
      { iterable: [{ asset: { id: a.id }, deleted: true }] },
    ]);
    expect(sync.seq).toBe(4);
    expect([...client.ids]).toEqual(await w.ids());
  });

  it('fills a gap (lost events) from the change log, and drops repeated events', async () => {
    const w = await world();
    const spy = { snapshots: 0, since: [] as number[] };
    let n = 0;
    // lose every third event, repeat every other one
    const { sync, client } = await open(w, (e) => (++n % 3 === 0 ? [] : n % 2 === 0 ? [e, e] : [e]), spy);
    const created: string[] = [];
    for (let i = 0; i < 9; i++) created.push((await w.create(i % 2 ? GO_SNIPPET : PYTHON_SNIPPET)).id);
    for (const id of created.slice(0, 4)) await w.remove(id);
    await settle(sync);
    const deltas = client.frames.slice(1).map((f) => f.iterable[0]!);
    expect(deltas).toHaveLength(13);
    expect(deltas.map((d) => [d.asset!.id, !!d.deleted])).toEqual([
      ...created.map((id) => [id, false]),
      ...created.slice(0, 4).map((id) => [id, true]),
    ]);
    expect(spy.since.length).toBeGreaterThan(0);
    expect(spy.snapshots).toBe(1);
    expect([...client.ids].sort()).toEqual((await w.ids()).sort());
  });

  it('a lost LAST event is found by check() (tab visible again) or a head announcement (worker restarted)', async () => {
    const w = await world();
    let lose = false;
    const { sync, client } = await open(w, (e) => (lose ? [] : [e]));
    await w.create();
    lose = true;
    const b = await w.create(GO_SNIPPET);
    await settle(sync);
    expect(client.ids.has(b.id)).toBe(false);
    sync.onHead(1); // the worker says 1, we have 1: nothing to do
    await settle(sync);
    expect(client.ids.has(b.id)).toBe(false);
    sync.onHead(2);
    await settle(sync);
    expect(client.ids.has(b.id)).toBe(true);
    const c = await w.create();
    sync.check();
    await settle(sync);
    expect(client.ids.has(c.id)).toBe(true);
    expect(client.frames).toHaveLength(4);
  });

  it('events committed while the snapshot is read are neither lost nor doubled', async () => {
    const w = await world();
    const before = await w.create();
    const client = new IdentifierClient();
    let first = true;
    let written: Asset | undefined;
    const base = transport(w, 'identifiers');
    const sync: StreamSync = new StreamSync({
      kind: 'identifiers',
      transport: {
        // a write commits (and its event arrives) while the snapshot request is under way, before its read
        snapshot: async () => {
          written = await w.create(GO_SNIPPET);
          return base.snapshot();
        },
        since: base.since,
      },
      emit: (frame) => {
        client.apply(frame, first);
        first = false;
      },
      fail: (error) => {
        throw error;
      },
    });
    channel(w, () => sync);
    await sync.start();
    const after = await w.create();
    await settle(sync);
    expect(client.frames[0]!.iterable.map((i) => i.asset!.id).sort()).toEqual([before.id, written!.id].sort());
    expect(client.frames.slice(1)).toEqual([identifierDelta({ asset: after.id, kind: 'created' })]);
  });

  it('sends a fresh snapshot, with deletions for the ids gone, when the change log no longer reaches back', async () => {
    const w = await world();
    let lose = false;
    const { sync, client } = await open(w, (e) => (lose ? [] : [e]));
    const a = await w.create();
    lose = true;
    await w.store.write(async (tx) => tx.put('meta', { id: 'seq', value: CHANGE_LOG_SIZE + 10 }));
    const b = await w.create(GO_SNIPPET);
    lose = false;
    await w.remove(a.id); // seq CHANGE_LOG_SIZE + 12: a gap the log cannot fill
    await settle(sync);
    // read as a delta (as clients read every frame after the first), it still leaves the right ids
    expect(client.frames.at(-1)).toEqual({ iterable: [{ asset: { id: b.id } }, { asset: { id: a.id }, deleted: true }] });
    expect(sync.seq).toBe(CHANGE_LOG_SIZE + 12);
    expect([...client.ids]).toEqual([b.id]);
  });

  it('retries a failed catch-up, and gives up (fail) after its retries', async () => {
    const w = await world();
    const base = transport(w, 'identifiers');
    let failures = 2;
    const failed: unknown[] = [];
    const frames: StreamFrame[] = [];
    const sync: StreamSync = new StreamSync({
      kind: 'identifiers',
      transport: {
        snapshot: base.snapshot,
        since: async (seq) => {
          if (failures-- > 0) throw new Error('worker unreachable');
          return base.since(seq);
        },
      },
      emit: (frame) => frames.push(frame),
      fail: (error) => failed.push(error),
      retryDelays: [1, 1],
      sleep: () => Promise.resolve(),
    });
    await sync.start();
    const a = await w.create();
    sync.check();
    await settle(sync);
    expect(frames).toEqual([{ iterable: [] }, identifierDelta({ asset: a.id, kind: 'created' })]);
    expect(failed).toEqual([]);
    failures = 10;
    await w.create();
    sync.check();
    await settle(sync);
    expect(failed).toHaveLength(1);
    expect(frames).toHaveLength(2);
  });

  it('starts again from a snapshot when a catch-up reply has a hole', async () => {
    const w = await world();
    const base = transport(w, 'identifiers');
    const frames: StreamFrame[] = [];
    const sync = new StreamSync({
      kind: 'identifiers',
      transport: {
        snapshot: base.snapshot,
        since: async (seq) => {
          const reply = await base.since(seq);
          return 'changes' in reply ? { ...reply, changes: reply.changes.slice(1) } : reply;
        },
      },
      emit: (frame) => frames.push(frame),
      fail: (error) => {
        throw error;
      },
    });
    await sync.start();
    const a = await w.create();
    const b = await w.create();
    sync.check();
    await settle(sync);
    expect(frames).toEqual([{ iterable: [] }, identifiersSnapshot([b.id, a.id])]);
    expect(sync.seq).toBe(2);
  });
});

describe('StreamSync (asset streams)', () => {
  for (const kind of ['assets', 'transferables'] as const) {
    it(`${kind}: snapshot of Assets, then the changed asset per change, deletions as the last known asset with deleted set`, async () => {
      const w = await world();
      const existing = await w.create(GO_SNIPPET);
      const frames: Assets[] = [];
      const sync: StreamSync = new StreamSync({
        kind,
        transport: transport(w, kind),
        emit: (frame) => {
          expect(AssetsSchema.safeParse(frame).success).toBe(true);
          frames.push(AssetsFromJSON(JSON.parse(JSON.stringify(frame))) as unknown as Assets);
        },
        fail: (error) => {
          throw error;
        },
        now: () => new Date('2026-01-02T03:04:05.000Z'),
      });
      channel(w, () => sync);
      await sync.start();
      const a = await w.create();
      await settle(sync);
      await w.rename(a.id, 'renamed');
      await settle(sync);
      await w.remove(existing.id);
      await settle(sync);
      expect(frames.map((f) => f.iterable.map((x) => [x.id, x.name ?? null, !!x.deleted]))).toEqual([
        [[existing.id, existing.name ?? null, false]],
        [[a.id, a.name ?? null, false]],
        [[a.id, 'renamed', false]],
        [[existing.id, existing.name ?? null, true]],
      ]);
      const deleted = frames[3]!.iterable[0]!;
      expect((deleted.deleted!.value as unknown as Date).toISOString()).toBe('2026-01-02T03:04:05.000Z');
      const content = frames[1]!.iterable[0]!.formats.iterable[0]!.fragment;
      if (kind === 'transferables') expect(content?.string?.raw).toBe(PYTHON_SNIPPET);
      else expect(content).toBeUndefined();
    });
  }

  it('a change to an asset deleted before it could be read yields no frame of its own; its deletion follows', async () => {
    const w = await world();
    const frames: Assets[] = [];
    let hold = true;
    const held: ChangeEvent[] = [];
    const sync: StreamSync = new StreamSync({ kind: 'assets', transport: transport(w, 'assets'), emit: (f) => frames.push(f as Assets), fail: (e) => { throw e; } });
    channel(w, () => sync, (e) => (hold ? (held.push(e), []) : [e]));
    await sync.start();
    const a = await w.create();
    await settle(sync);
    hold = false;
    for (const e of held) sync.onEvent(e);
    await settle(sync);
    hold = true;
    held.length = 0;
    await w.rename(a.id, 'gone soon');
    await w.remove(a.id);
    hold = false;
    for (const e of held) sync.onEvent(e);
    await settle(sync);
    expect(frames.map((f) => f.iterable.map((x) => [x.id, x.name ?? null, !!x.deleted]))).toEqual([
      [],
      [[a.id, a.name ?? null, false]],
      [[a.id, a.name ?? null, true]],
    ]);
  });
});

describe('frames and events', () => {
  it('assetDelta keeps the last known state and skips what it cannot state truly', () => {
    const known = new Map<string, Asset>();
    const asset = { id: 'a' } as Asset;
    expect(assetDelta({ seq: 1, asset: 'a', kind: 'created', value: asset }, known)).toEqual({ iterable: [asset], indices: { a: 0 } });
    expect(known.get('a')).toBe(asset);
    expect(assetDelta({ seq: 2, asset: 'b', kind: 'updated' }, known)).toBeUndefined();
    expect(assetDelta({ seq: 3, asset: 'b', kind: 'deleted' }, known)).toBeUndefined();
    const now = () => new Date('2026-01-01T00:00:00Z');
    expect(assetDelta({ seq: 4, asset: 'a', kind: 'deleted' }, known, now)?.iterable[0]).toMatchObject({ id: 'a', deleted: { value: '2026-01-01T00:00:00.000Z' } });
    expect(known.size).toBe(0);
  });

  it('isChangeEvent accepts only what the worker publishes', () => {
    expect(isChangeEvent({ seq: 1, asset: 'a', kind: 'created' })).toBe(true);
    for (const bad of [null, 'x', { seq: 0, asset: 'a', kind: 'created' }, { seq: 1.5, asset: 'a', kind: 'created' }, { seq: 1, kind: 'created' }, { seq: 1, asset: 'a', kind: 'moved' }, { type: 'head', seq: 3 }]) {
      expect(isChangeEvent(bad)).toBe(false);
    }
  });

  it('changeEventsIn reads a message of the change channel: a commit\'s events, or one event alone', () => {
    const a = { seq: 1, asset: 'a', kind: 'created' };
    const b = { seq: 2, asset: 'b', kind: 'deleted' };
    expect(changeEventsIn([a, b])).toEqual([a, b]);
    expect(changeEventsIn(a)).toEqual([a]);
    expect(changeEventsIn([a, { type: 'head', seq: 3 }, null])).toEqual([a]);
    expect(changeEventsIn({ type: 'head', seq: 3 })).toEqual([]);
    expect(changeEventsIn(undefined)).toEqual([]);
  });
});
