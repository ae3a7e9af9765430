/**
 * GET /backup and POST /backup/restore over the memory store and IndexedDB (fake-indexeddb): the file's
 * format (header, one line per record, trailer with counts and SHA-256, no API key), and a round trip of a
 * library with every kind of record into a fresh store that gives identical API listings without
 * embedding anything again.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../worker/core/app.ts';
import { BACKUP_STORES } from '../../worker/core/backup/format.ts';
import { vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import { storedVectorsOf } from '../../worker/core/qgpt/vectors/stored-vectors.ts';
import { API_KEY, backupText, buildLibrary, listings, openLibrary, publicSettings } from '../support/backup-library.ts';
import type { ReadTx, Store } from '../../worker/core/store/store.ts';
import { STORES } from '../support/stores.ts';

/** The store, recording each read call (`getRange <collection> <limit>`, `getAll <collection>`, …). */
function spyOn(store: Store, calls: string[]): Store {
  const wrap = (tx: ReadTx): ReadTx => ({
    get: (c, id) => (calls.push(`get ${c}`), tx.get(c, id)),
    getMany: (c, ids) => (calls.push(`getMany ${c}`), tx.getMany(c, ids)),
    getAll: (c) => (calls.push(`getAll ${c}`), tx.getAll(c)),
    getRange: (c, after, limit) => (calls.push(`getRange ${c} ${limit}`), tx.getRange(c, after, limit)),
    count: (c) => (calls.push(`count ${c}`), tx.count(c)),
    getAllFromIndex: (c, index, query, limit) => (calls.push(`getAllFromIndex ${c}`), tx.getAllFromIndex(c, index, query, limit)),
    getKeysFromIndex: (c, index, query, limit) => (calls.push(`getKeysFromIndex ${c}`), tx.getKeysFromIndex(c, index, query, limit)),
    countFromIndex: (c, index, query) => (calls.push(`countFromIndex ${c}`), tx.countFromIndex(c, index, query)),
  });
  return {
    read: (fn, scope) => (calls.push('read'), store.read((tx) => fn(wrap(tx)), scope)),
    write: (fn) => store.write(fn),
    close: () => store.close(),
    get closed() {
      return store.closed;
    },
  };
}

const parseLines = (text: string) => text.trimEnd().split('\n').map((l) => JSON.parse(l));

for (const [engine, open] of Object.entries(STORES)) {
  describe(`backup: ${engine}`, () => {
    it('is NDJSON: a versioned header, one line per record, a trailer whose counts and SHA-256 match; dated attachment; no API key', async () => {
      const { api, ids } = await buildLibrary(await open());
      const response = await api.get('/backup');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="tessera-backup-2026-03-01.ndjson"');
      const text = response.text;
      expect(text.endsWith('\n')).toBe(true);
      const lines = parseLines(text);
      const [header, ...rest] = lines;
      const trailer = rest.pop();
      expect(header).toMatchObject({ format: 'tessera-backup', version: 1, created: expect.any(String), vectors: expect.any(Number), seq: expect.any(Number) });
      expect(Object.keys(header.counts)).toEqual([...BACKUP_STORES]);

      const counted = Object.fromEntries(BACKUP_STORES.map((s) => [s, rest.filter((l) => l.store === s).length]));
      expect(trailer.trailer.counts).toEqual(counted);
      expect(header.counts).toEqual(counted);
      expect(counted).toMatchObject({ settings: 1, assets: 5, formats: 5, contents: 5, tags: 3, websites: 2, summaries: 1, persons: 1, annotations: 1, conversations: 2, messages: 6, snippets: 5 });
      expect(counted.activities).toBeGreaterThanOrEqual(8);
      // Stores come in their order, each in id order.
      const order = rest.map((l) => BACKUP_STORES.indexOf(l.store));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // The checksum is a plain SHA-256 of every byte before the trailer line.
      const body = text.slice(0, text.lastIndexOf('{"trailer"'));
      expect(trailer.trailer.sha256).toBe(createHash('sha256').update(body).digest('hex'));

      expect(text).not.toContain(API_KEY);
      expect(rest.find((l) => l.store === 'settings').record).toEqual({ id: 'qgpt.settings', value: { url: 'http://localhost:11434/v1', model: 'llama3' } });
      // Bytes travel as base64: the PNG's content and the 8-bit vectors.
      const pngFormat = rest.find((l) => l.store === 'formats' && l.record.asset === ids.png).record.id;
      const content = rest.find((l) => l.store === 'contents' && l.record.id === pngFormat).record;
      expect(typeof content.file.bytes.raw).toBe('string');
      const snippet = rest.find((l) => l.store === 'snippets' && l.record.id === ids.py).record;
      expect(snippet.embedder).toMatch(/^hashing/);
      expect(typeof snippet.snippets[0].vector).toBe('string');
    });

    it('round trip into a fresh, empty store: every listing identical, same ids and timestamps, nothing embedded again; the key stays behind', async () => {
      const source = await buildLibrary(await open());
      const before = await listings(source.api, source.ctx);
      const file = await backupText(source.api);

      const target = await openLibrary(await open());
      const reply = await target.api.post('/backup/restore', file);
      expect(reply.status).toBe(200);
      const summary = reply.json();
      expect(summary.applied).toBe(true);
      expect(summary.relinked).toBe(0);
      for (const store of BACKUP_STORES) {
        const outcome = summary.stores[store];
        expect(outcome, store).toMatchObject({ replaced: 0, kept: 0, removed: 0, skipped: 0 });
      }
      expect(summary.stores.assets.added).toBe(5);
      expect(summary.stores.snippets.added).toBe(5);
      // Every restored asset is a change event (streams, the search index and the vectors follow them).
      expect(target.api.events.map((e) => e.kind)).toEqual(Array(5).fill('created'));

      // The file's vectors are taken as they are: bringing the vectors up to date embeds nothing.
      expect((await vectorIndexFor(target.ctx).current()).entries.size).toBe(5);
      expect(target.embedder.texts).toBe(0);
      // Taken into a chunk of the vectors, the restored per-asset records go.
      expect(await target.api.store.read((tx) => tx.count('snippets'))).toBe(0);
      expect((await storedVectorsOf(target.api.store, (await target.api.get('/embeddings')).json().id)).size).toBe(5);
      const after = await listings(target.api, target.ctx);
      expect(after).toEqual(before);
      expect(after.vectors.embedded).toBe(5);
      expect(await publicSettings(target.api)).toEqual({ configured: true, url: 'http://localhost:11434/v1', model: 'llama3', enabled: true, hasApiKey: false });

      // A backup of the restored library is the same file but for its creation time.
      const again = await backupText(target.api);
      const strip = (text: string) => parseLines(text).slice(1, -1);
      expect(strip(again)).toEqual(strip(file));
    });

    it('reads the store in bounded batches as the reader pulls: no getAll, and a reader that stops early stops the reads', async () => {
      const { api } = await buildLibrary(await open());
      const calls: string[] = [];
      const spy = spyOn(api.store, calls);
      const library = await openLibrary(spy);
      // The vectors come from the vector index, loaded here so that the count below is the backup's own.
      await vectorIndexFor(library.ctx).current();
      calls.length = 0;
      // The core's stream, in process: its reads follow the reader's pulls. (Over HTTP the server pulls as
      // fast as the socket's buffers take the bytes, whatever the client reads.) The whole answer goes
      // through the checked call below.
      const response = await createApp(library.ctx).request('/api/backup');
      const reader = response.body!.getReader();
      await reader.read(); // the header
      const early = calls.filter((c) => c === 'read').length;
      await reader.cancel();
      // The vector index's look at the change log, the header's transaction, and at most two ahead (the
      // stream keeps one chunk buffered).
      expect(early).toBeLessThanOrEqual(4);
      expect(calls.filter((c) => c === 'read').length).toBe(early);
      const whole = (await library.api.get('/backup')).text;
      expect(whole.split('\n').length).toBeGreaterThan(40);
      // No collection read whole (each record's links come from an index range of its own).
      expect(calls.filter((c) => c.startsWith('getAll '))).toEqual([]);
      expect(calls.filter((c) => c.startsWith('getRange')).every((c) => Number(c.split(' ')[2]) <= 256)).toBe(true);
    });

    it('vectors of another snippet-vector version are not restored (skipped) and are made again from the restored text', async () => {
      const source = await buildLibrary(await open());
      const lines = (await backupText(source.api)).trimEnd().split('\n');
      const trailer = JSON.parse(lines.pop()!).trailer;
      lines[0] = lines[0]!.replace(/"vectors":\d+/, '"vectors":1');
      const body = lines.map((l) => `${l}\n`).join('');
      const file = `${body}${JSON.stringify({ trailer: { ...trailer, sha256: createHash('sha256').update(body).digest('hex') } })}\n`;
      const target = await openLibrary(await open());
      const summary = (await target.api.post('/backup/restore', file)).json();
      expect(summary.stores.snippets).toEqual({ added: 0, replaced: 0, kept: 0, removed: 0, skipped: 5 });
      expect(await target.api.store.read((tx) => tx.count('snippets'))).toBe(0);
      await vectorIndexFor(target.ctx).current();
      expect(target.embedder.texts).toBeGreaterThan(0);
      expect(vectorIndexFor(target.ctx).progress.embedded).toBe(5);
    });

    it('an empty library backs up to a header and a trailer, and restores to nothing', async () => {
      const { api } = await openLibrary(await open());
      const file = await backupText(api);
      const lines = parseLines(file);
      expect(lines).toHaveLength(2);
      expect(lines[1].trailer.counts.assets).toBe(0);
      const summary = (await api.post('/backup/restore', file)).json();
      expect(summary.stores.assets).toEqual({ added: 0, replaced: 0, kept: 0, removed: 0, skipped: 0 });
    });
  });
}
