/**
 * IdbStore on fake-indexeddb: what only IndexedDB does (the contract cases shared with every store are in
 * test/contract/store.test.ts).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDB_VERSION, IdbStore } from '../../worker/browser/idb-store.ts';
import { ApiError } from '../../worker/core/errors.ts';
import { dumpStore } from '../support/dump.ts';
import { fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';
import { SCHEMA_HISTORY, createLegacyDatabase } from '../support/legacy-schema.ts';

let n = 0;
const fresh = () => IdbStore.open(`idb-store-${++n}`);

/**
 * A full disk as the browser reports it: the transaction is aborted with a QuotaExceededError, and each of
 * its pending requests fails with an AbortError. fake-indexeddb enforces no quota, so while `full` is set
 * every put aborts its transaction through fake-indexeddb's own abort steps (`_abort`, the spec's "abort a
 * transaction" with an error), which is what Chromium runs when the quota is exceeded.
 */
let full = false;
const proto = IDBObjectStore.prototype as unknown as { put: (this: IDBObjectStore, ...args: unknown[]) => IDBRequest };
const realPut = proto.put;
proto.put = function (...args) {
  const request = realPut.apply(this, args);
  if (full) (this.transaction as unknown as { _abort(name: string): void })._abort('QuotaExceededError');
  return request;
};
/**
 * With `roomOnDelete`, a delete makes room (full is cleared), as deleting an asset's content does on a real
 * disk. Deletes are never refused: Chromium checks a transaction's quota only for what it adds.
 */
let roomOnDelete = false;
const deleteProto = IDBObjectStore.prototype as unknown as { delete: (this: IDBObjectStore, ...args: unknown[]) => IDBRequest };
const realDelete = deleteProto.delete;
deleteProto.delete = function (...args) {
  if (roomOnDelete) full = false;
  return realDelete.apply(this, args);
};
afterEach(() => {
  full = false;
  roomOnDelete = false;
});

describe('IdbStore, a full disk', () => {
  it('a write aborted for quota rethrows the QuotaExceededError, not the AbortError of its request, and stores nothing', async () => {
    const store = await fresh();
    await store.write((tx) => tx.put('meta', { id: 'kept', value: 1 }));
    full = true;
    const failure = await store.write((tx) => tx.put('meta', { id: 'kept', value: 2 })).catch((error: unknown) => error);
    expect((failure as Error).name).toBe('QuotaExceededError');
    full = false;
    expect((await store.read((tx) => tx.get('meta', 'kept')))?.value).toBe(1);
    store.close();
  });

  it('is a 507 JSON error with a clear message; nothing stored changes, reads work, and writes work again once there is room', async () => {
    const api = await createTestApi({ store: await fresh() });
    const kept = await api.create(fragmentSeed('print("kept")\n'));
    const before = await dumpStore(api.store);
    full = true;
    const reply = await api.post('/assets/create', fragmentSeed('print("one too many")\n'));
    expect(reply.status).toBe(507);
    expect(reply.json().error).toMatchObject({ status: 507, code: 'storage_full' });
    expect(reply.json().error.message).toMatch(/storage is full/i);
    full = false;
    expect(await dumpStore(api.store)).toEqual(before);
    expect((await api.get(`/asset/${kept.id}`)).status).toBe(200);
    expect((await api.post('/assets/create', fragmentSeed('print("room again")\n'))).status).toBe(200);
    api.store.close();
  });
});

describe('IdbStore, a full disk, deletes', () => {
  it('a delete works on a full disk (which refuses any transaction that puts): the asset goes whole, then it is unlinked and the delete logged and published', async () => {
    const api = await createTestApi({ store: await fresh() });
    const doomed = await api.create(fragmentSeed('print("doomed")\n', { tags: [{ text: 'shared' }] }));
    const kept = await api.create(fragmentSeed('print("kept")\n', { tags: [{ text: 'shared' }] }));
    const tag = doomed.tags.iterable[0].id;
    full = true;
    roomOnDelete = true;
    api.events.length = 0;
    expect((await api.post('/assets/create', fragmentSeed('print("no room")\n'))).status).toBe(507);
    full = true;
    const reply = await api.post(`/assets/${doomed.id}/delete`);
    expect(reply.status, reply.text).toBe(200);
    expect(full).toBe(false); // the first step made room
    expect((await api.get(`/asset/${doomed.id}`)).status).toBe(404);
    for (const c of ['formats', 'contents', 'annotations', 'activities'] as const) {
      const records = (await api.store.read((tx) => tx.getAll(c), [c])) as { id: string; asset?: string }[];
      expect(records.filter((r) => r.asset === doomed.id || doomed.formats.iterable.some((f: { id: string }) => f.id === r.id)), c).toEqual([]);
    }
    const tagAfter = (await api.get('/tags')).json().iterable.find((t: { id: string }) => t.id === tag);
    expect(tagAfter.assets.iterable.map((a: { id: string }) => a.id)).toEqual([kept.id]);
    expect(api.events.map((e) => [e.asset, e.kind])).toEqual([[doomed.id, 'deleted']]);
    const since = (await api.get('/assets/stream/identifiers?since=0')).json();
    expect(since.changes.at(-1)).toMatchObject({ asset: doomed.id, kind: 'deleted' });
    expect((await api.get(`/asset/${kept.id}`)).status).toBe(200);
    expect((await api.post('/assets/create', fragmentSeed('print("room again")\n'))).status).toBe(200);
  });

  it('a full-disk delete whose second step finds the disk still full says so (507: the asset is gone, not yet unlinked); the same delete sent again finishes it', async () => {
    const api = await createTestApi({ store: await fresh() });
    const doomed = await api.create(fragmentSeed('print("doomed")\n', { tags: [{ text: 'shared' }] }));
    const kept = await api.create(fragmentSeed('print("kept")\n', { tags: [{ text: 'shared' }] }));
    const tag = doomed.tags.iterable[0].id;
    const tagAssets = async () => (await api.get('/tags')).json().iterable.find((t: { id: string }) => t.id === tag).assets.iterable.map((a: { id: string }) => a.id);
    full = true; // and the delete makes no room
    api.events.length = 0;
    const unfinished = await api.post(`/assets/${doomed.id}/delete`);
    expect(unfinished.status).toBe(507);
    expect(unfinished.json().error).toMatchObject({ code: 'storage_full_delete_unfinished', message: expect.stringMatching(/the asset was deleted.*send this delete again/) });
    expect((await api.get(`/asset/${doomed.id}`)).status).toBe(404);
    // The tag is still linked with it (its unlinking is what is left to do), but no answer says so.
    const tagLinks = await api.store.read((tx) => tx.getAll('links'), ['links']);
    expect(tagLinks.filter((link) => link.other === tag).map((link) => link.asset).sort()).toEqual([doomed.id, kept.id].sort());
    expect(await tagAssets()).toEqual([kept.id]);
    expect(api.events).toEqual([]);
    // Still full: the same answer again, nothing lost.
    expect((await api.post(`/assets/${doomed.id}/delete`)).json().error.code).toBe('storage_full_delete_unfinished');
    full = false;
    const finished = await api.post(`/assets/${doomed.id}/delete`);
    expect(finished.status, finished.text).toBe(200);
    expect(finished.text).toBe(doomed.id);
    expect(await tagAssets()).toEqual([kept.id]);
    expect(api.events.map((e) => [e.asset, e.kind])).toEqual([[doomed.id, 'deleted']]);
    // Done: a further delete of it is an ordinary 404.
    expect((await api.post(`/assets/${doomed.id}/delete`)).status).toBe(404);
  });

  it('a delete that fails for another reason is not retried in two steps', async () => {
    const api = await createTestApi({ store: await fresh() });
    expect((await api.post('/assets/00000000-0000-4000-8000-000000000000/delete')).status).toBe(404);
  });
});

/** A plain connection at `version`, as an older tab or worker holds it: it never closes by itself. */
function openRaw(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

describe('IdbStore, opening next to other connections', () => {
  it('an upgrade blocked by an older connection fails with a 503 instead of hanging, and opens once that connection is gone', async () => {
    const name = `idb-store-${++n}`;
    const previous = SCHEMA_HISTORY.find((v) => v.version === IDB_VERSION - 1)!;
    await createLegacyDatabase({ name, version: previous.version, stores: previous.stores, indexes: previous.indexes, records: {} });
    const old = await openRaw(name, previous.version);
    const failure = await IdbStore.open(name, { blockedTimeoutMs: 50 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).toJSON().error).toMatchObject({ status: 503, code: 'storage_blocked' });
    expect((failure as ApiError).message).toMatch(/another tab or worker/);
    old.close();
    const store = await IdbStore.open(name, { blockedTimeoutMs: 50 });
    // What the last migration adds is there: the links and their indexes.
    expect(await store.read((tx) => tx.getAllFromIndex('links', 'other', {}), ['links'])).toEqual([]);
    store.close();
  });

  it('a database of the version before the indexes opens with its records intact, its tags gain their index key, and lookups by index find them', async () => {
    const name = `idb-store-${++n}`;
    const previous = SCHEMA_HISTORY.find((v) => v.version === 5)!;
    const stamp = '2026-01-01T00:00:00.000Z';
    const tag = { id: 't', text: 'MixedCase', category: 'UNKNOWN', created: stamp, updated: stamp, mechanisms: {}, assets: [] };
    const activity = { id: 'a1', asset: 'x', created: stamp, updated: stamp, event: {}, application: {}, mechanism: 'AUTOMATIC' };
    await createLegacyDatabase({ name, version: previous.version, stores: previous.stores, records: { tags: [tag], activities: [activity], meta: [{ id: 'kept', value: 7 }] } });
    const store = await IdbStore.open(name);
    expect(await store.read((tx) => tx.get('meta', 'kept'))).toEqual({ id: 'kept', value: 7 });
    // Version 7 took the id array off the tag (links are records of their own).
    const { assets: _, ...stored } = tag;
    expect(await store.read((tx) => tx.get('tags', 't'))).toEqual({ ...stored, folded: 'mixedcase' });
    expect((await store.read((tx) => tx.getAllFromIndex('tags', 'folded', 'mixedcase'))).map((t) => t.id)).toEqual(['t']);
    expect(await store.read((tx) => tx.getKeysFromIndex('activities', 'asset', 'x'))).toEqual(['a1']);
    store.close();
  });

  it('a store steps aside for a newer version that upgrades (closing its connection), then answers a 503 asking for a reload', async () => {
    const name = `idb-store-${++n}`;
    const store = await IdbStore.open(name);
    await store.write((tx) => tx.put('meta', { id: 'kept', value: 1 }));
    // Without `blocking` this open would wait for the store's connection forever.
    const newer = await openRaw(name, IDB_VERSION + 1);
    const failure = await store.read((tx) => tx.get('meta', 'kept')).catch((error: unknown) => error);
    expect((failure as ApiError).toJSON().error).toMatchObject({ status: 503, code: 'storage_upgraded' });
    newer.close();
  });

  it('through the app, a store whose database a newer version took answers a 503 JSON error', async () => {
    const name = `idb-store-${++n}`;
    const store = await IdbStore.open(name, { blockedTimeoutMs: 50 });
    const api = await createTestApi({ store });
    const kept = await api.create(fragmentSeed('print("kept")\n'));
    const newer = await openRaw(name, IDB_VERSION + 1);
    newer.close();
    const reply = await api.get(`/asset/${kept.id}`);
    expect(reply.status).toBe(503);
    expect(reply.json().error.code).toBe('storage_upgraded');
    store.close();
  });
});
