/**
 * Half-deleted assets (worker/core/assets/half-deleted.ts): what a full-disk delete leaves when its second
 * step never ran (a worker stopped between the two steps, or a disk that stayed full): the asset's records
 * gone, but tags, websites and conversations still naming it, the change log without its delete, and the
 * marker that says no delete is half done missing. The state is made directly in the store, then a new
 * worker (a new app on the same records) opens it:
 *
 * - no answer names the asset (labels, the other assets, conversations, library rows, search, relevance,
 *   identifiers, streams), whether or not the state could be repaired yet;
 * - with room on the disk, the worker's first operation repairs it: the links go, the delete is logged and
 *   published, the marker is back;
 * - on a disk still full, the records stay as they are until the next write finds room; the delete of the
 *   asset sent again answers its id once it is done.
 *
 * Over the memory store, and IndexedDB with TESSERA_TEST_STORE=idb.
 */
import { describe, expect, it } from 'vitest';
import { WHOLE_ID } from '../../worker/core/assets/half-deleted.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { loggedChanges } from '../../worker/core/feed/commit.ts';
import { saveExchange } from '../../worker/core/qgpt/conversations.ts';
import type { Store, WriteTx } from '../../worker/core/store/store.ts';
import { testClassifier } from '../support/classifier.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';

/** The same records under a new Store object: what a restarted worker opens (per-store state starts empty). */
function reopened(store: Store, disk: { full: boolean } = { full: false }): Store {
  const quota = () => Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
  return {
    read: (fn, scope) => store.read(fn, scope),
    // A full disk as the browser has it: a transaction that puts anything fails whole; deletes alone pass.
    write: (fn, scope) =>
      store.write((tx) => {
        const refusing: WriteTx = { ...tx, put: (c, record) => (disk.full ? Promise.reject(quota()) : tx.put(c, record)) };
        return fn(refusing);
      }, scope),
    close: () => store.close(),
    get closed() {
      return store.closed;
    },
  };
}

/** A library with one asset, `doomed`, linked everywhere (a tag and a website it shares, a conversation). */
async function library() {
  const api = await createTestApi();
  const doomed = await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args', tags: [{ text: 'shared' }], websites: [{ url: 'https://docs.python.org/3/', name: 'docs' }] }));
  const kept = await api.create(fragmentSeed(GO_SNIPPET, { name: 'hello', tags: [{ text: 'shared' }], websites: [{ url: 'https://docs.python.org/3/', name: 'docs' }] }));
  const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: await testClassifier() });
  await saveExchange(ctx, { conversation: 'talk', query: 'how are arguments parsed?', answer: 'With argparse.', assets: [doomed.id, kept.id] });
  // The search index and the vectors have seen it.
  expect((await api.get('/assets/search?query=parse_args')).json().iterable.map((r: { identifier: string }) => r.identifier)).toContain(doomed.id);
  expect((await api.post('/qgpt/relevance', { query: 'parse command line arguments', options: { database: true } })).status).toBe(200);
  return { api, doomed: doomed.id as string, kept: kept.id as string, tag: doomed.tags.iterable[0].id as string };
}

/** What the first step of a full-disk delete leaves when the second never runs: the asset's own records and the marker gone. */
async function halfDelete(store: Store, id: string): Promise<void> {
  await store.write(async (tx) => {
    const asset = (await tx.get('assets', id))!;
    for (const format of asset.formats) await Promise.all([tx.delete('formats', format), tx.delete('contents', format)]);
    for (const annotation of asset.annotations) await tx.delete('annotations', annotation);
    for (const activity of await tx.getKeysFromIndex('activities', 'asset', id)) await tx.delete('activities', activity);
    await tx.delete('assets', id);
    await tx.delete('meta', WHOLE_ID);
  });
}

/** Every answer that could name an asset: none may name `id`. */
async function expectNeverAnswered(api: TestApi, id: string, kept: string): Promise<void> {
  const reads = [
    '/tags',
    '/websites',
    `/asset/${kept}`,
    `/assets/${kept}`,
    '/assets',
    '/assets?transferables=false',
    '/assets/identifiers',
    '/conversations',
    '/conversation/talk',
    `/asset/${kept}/conversations`,
    '/library',
    '/assets/search?query=parse_args',
    '/assets/search?searchable_tags=shared',
    '/assets/stream/transferables',
    '/assets/related',
  ];
  for (const path of reads) {
    const reply = await api.get(path);
    expect(reply.status, `${path}: ${reply.text.slice(0, 200)}`).toBe(200);
    expect(reply.text, path).not.toContain(id);
  }
  const relevance = await api.post('/qgpt/relevance', { query: 'parse command line arguments', options: { database: true } });
  expect(relevance.text).not.toContain(id);
  // The other asset is answered in full, its label still listing it.
  expect((await api.get('/tags')).json().iterable.find((t: { text: string }) => t.text === 'shared').assets.iterable.map((a: { id: string }) => a.id)).toEqual([kept]);
}

/** What the store itself holds of `id`: the labels and conversations linked with it, its last logged change, the marker. */
async function stored(store: Store, id: string) {
  return store.read(async (tx) => {
    const [links, changes, marker] = await Promise.all([tx.getAll('links'), tx.getAll('changes'), tx.get('meta', WHOLE_ID)]);
    const naming = links.filter((link) => link.asset === id).map((link) => link.other);
    return { naming, lastChange: loggedChanges(changes).filter((c) => c.asset === id).at(-1)?.kind, marker: marker !== undefined };
  });
}

describe('a delete left half done', () => {
  it('is repaired by the next worker before its first answer: links gone, the delete logged and published, the marker back; no answer names the asset', async () => {
    const { api, doomed, kept } = await library();
    expect(await stored(api.store, doomed)).toMatchObject({ lastChange: 'updated' });
    await halfDelete(api.store, doomed);
    expect(await stored(api.store, doomed)).toMatchObject({ naming: expect.arrayContaining([expect.any(String)]), lastChange: 'updated', marker: false });

    const next = await createTestApi({ store: reopened(api.store) });
    await expectNeverAnswered(next, doomed, kept);
    expect(await stored(api.store, doomed)).toEqual({ naming: [], lastChange: 'deleted', marker: true });
    expect(next.events.filter((e) => e.asset === doomed).map((e) => e.kind)).toEqual(['deleted']);
    // The stream catch-up a client makes from before the delete ends with it.
    expect((await next.get('/assets/stream/identifiers?since=0')).json().changes.at(-1)).toMatchObject({ asset: doomed, kind: 'deleted' });
    // Repaired once: a worker after that finds nothing to do, and logs nothing more.
    const after = await createTestApi({ store: reopened(api.store) });
    expect((await after.get('/tags')).status).toBe(200);
    expect(after.events).toEqual([]);
  });

  it('on a disk still full: nothing can be repaired, yet no answer names the asset; the next write with room repairs it, and its delete sent again answers its id', async () => {
    const { api, doomed, kept } = await library();
    await halfDelete(api.store, doomed);
    const disk = { full: true };
    const next = await createTestApi({ store: reopened(api.store, disk) });
    await expectNeverAnswered(next, doomed, kept);
    expect((await next.post('/tags/create', { text: 'more' })).status).toBe(507);
    // Still as the first step left it; the answers above left the asset out.
    expect(await stored(api.store, doomed)).toMatchObject({ lastChange: 'updated', marker: false });
    expect((await stored(api.store, doomed)).naming.length).toBeGreaterThan(0);
    expect((await next.post(`/assets/${doomed}/delete`)).json().error).toMatchObject({ status: 507, code: 'storage_full_delete_unfinished' });

    disk.full = false;
    const again = await next.post(`/assets/${doomed}/delete`);
    expect([again.status, again.text]).toEqual([200, doomed]);
    expect(await stored(api.store, doomed)).toEqual({ naming: [], lastChange: 'deleted', marker: true });
    expect(next.events.filter((e) => e.asset === doomed).map((e) => e.kind)).toEqual(['deleted']);
    await expectNeverAnswered(next, doomed, kept);
    // Done: a further delete of it is an ordinary 404.
    expect((await next.post(`/assets/${doomed}/delete`)).status).toBe(404);
  });

  it('a delete on a full disk tries its second step again while the browser gives the space back: room within the wait answers 200, whole; none, a 507', async () => {
    const { api, doomed, kept } = await library();
    const disk = { full: true };
    const next = await createTestApi({ store: reopened(api.store, disk) });
    // The first step's space comes back a moment after it (Chromium frees it in the background).
    setTimeout(() => (disk.full = false), 120);
    const reply = await next.post(`/assets/${doomed}/delete`);
    expect([reply.status, reply.text]).toEqual([200, doomed]);
    expect(await stored(api.store, doomed)).toEqual({ naming: [], lastChange: 'deleted', marker: true });

    disk.full = true;
    const started = Date.now();
    const refused = await next.post(`/assets/${kept}/delete`);
    expect(refused.json().error).toMatchObject({ status: 507, code: 'storage_full_delete_unfinished' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(await stored(api.store, kept)).toMatchObject({ lastChange: 'updated', marker: false });
  });

  it('any write with room finishes it, not only its own delete', async () => {
    const { api, doomed } = await library();
    await halfDelete(api.store, doomed);
    const disk = { full: true };
    const next = await createTestApi({ store: reopened(api.store, disk) });
    expect((await next.get('/websites')).text).not.toContain(doomed);
    disk.full = false;
    expect((await next.post('/tags/create', { text: 'room again' })).status).toBe(200);
    expect(await stored(api.store, doomed)).toEqual({ naming: [], lastChange: 'deleted', marker: true });
  });

  it('the marker: none for an empty store (nothing to repair, a refused first request stores nothing); put by its first write that succeeds, and by the first worker on a store with assets but no marker; a worker finding it reads nothing else', async () => {
    const api = await createTestApi();
    expect((await api.post('/tags/create', { text: 7 })).status).toBe(422);
    expect(await api.store.read((tx) => tx.get('meta', WHOLE_ID))).toBeUndefined();
    await api.create(fragmentSeed(PYTHON_SNIPPET));
    // Put by the write itself: the next worker need not read every asset, link and change to look for a half-done delete.
    expect(await api.store.read((tx) => tx.get('meta', WHOLE_ID))).toEqual({ id: WHOLE_ID, value: true });
    // A store with assets but no marker (written by an earlier version): the next worker looks, then puts it.
    await api.store.write((tx) => tx.delete('meta', WHOLE_ID), ['meta']);
    const second = await createTestApi({ store: reopened(api.store) });
    expect((await second.get('/tags')).status).toBe(200);
    expect(await api.store.read((tx) => tx.get('meta', WHOLE_ID))).toEqual({ id: WHOLE_ID, value: true });
    const reads: string[] = [];
    const inner = api.store;
    const spied: Store = {
      read: (fn, scope) => (reads.push((scope ?? ['all']).join(',')), inner.read(fn, scope)),
      write: (fn, scope) => inner.write(fn, scope),
      close: () => inner.close(),
      get closed() {
        return inner.closed;
      },
    };
    const third = await createTestApi({ store: spied });
    // The request's reads only: over HTTP the host's LogFeed read its starting seq (meta) as it started.
    reads.length = 0;
    expect((await third.post('/tags/create', { text: 'x' })).status).toBe(200);
    expect(reads).toEqual(['meta']);
  });
});
