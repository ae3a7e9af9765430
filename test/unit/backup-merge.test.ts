/**
 * POST /backup/restore into a library that is not empty: merged by id, the newer `updated` wins (a tie
 * keeps the library's), an asset with its formats, contents, annotations and activities, a conversation
 * with its messages; links put back in step on both sides; the answer counts what happened per store.
 * The v1 fixture file restores. Over the memory store and IndexedDB.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { vectorIndexFor } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import { backupText, buildLibrary, listings, openLibrary, steppingClock } from '../support/backup-library.ts';
import { dumpStore } from '../support/dump.ts';
import { STORES } from '../support/stores.ts';

/** A clock the test can move: each call one second later than the last. */
function movableClock(start: string) {
  const clock = { t: Date.parse(start), now: () => new Date((clock.t += 1000)), set: (iso: string) => (clock.t = Date.parse(iso)) };
  return clock;
}

const names = async (api: Awaited<ReturnType<typeof openLibrary>>['api']) =>
  Object.fromEntries((await api.get('/assets?transferables=false')).json().iterable.map((a: { id: string; name: string }) => [a.id, a.name]));

for (const [engine, open] of Object.entries(STORES)) {
  describe(`backup merge: ${engine}`, () => {
    it('restoring a backup into the library it came from keeps everything: nothing changes, no change event', async () => {
      const library = await buildLibrary(await open());
      const file = await backupText(library.api);
      const before = await dumpStore(library.api.store);
      const events = library.api.events.length;
      const summary = (await library.api.post('/backup/restore', file)).json();
      expect(summary.stores.assets).toEqual({ added: 0, replaced: 0, kept: 5, removed: 0, skipped: 0 });
      expect(summary.stores.messages).toEqual({ added: 0, replaced: 0, kept: 6, removed: 0, skipped: 0 });
      expect(summary.stores.settings.kept).toBe(1);
      expect(summary.relinked).toBe(0);
      expect(await dumpStore(library.api.store)).toEqual(before);
      expect(library.api.events.length).toBe(events);
    });

    it('newer records in the file replace older ones with their children; older ones are kept; deleted ones come back', async () => {
      const sourceClock = movableClock('2026-03-01T10:00:00.000Z');
      const source = await buildLibrary(await open(), sourceClock.now);
      const first = await backupText(source.api);

      // The target starts as the first backup; then it renames one asset itself (later than anything in the source so far).
      const targetClock = movableClock('2026-03-01T11:00:00.000Z');
      const target = await openLibrary(await open(), targetClock.now);
      await target.api.post('/backup/restore', first);
      await target.api.post('/asset/update', { id: source.ids.go, name: 'hello-target' });
      await target.api.post(`/assets/${source.ids.bytes}/delete`);

      // The source moves on, later still: a rename, an annotation dropped, a new conversation turn.
      sourceClock.set('2026-03-01T12:00:00.000Z');
      await source.api.post('/asset/update', { id: source.ids.py, name: 'parse_cli', annotations: { iterable: [] } });
      await source.api.post('/asset/update', { id: source.ids.go, name: 'hello-source-older' });
      sourceClock.set('2026-03-01T10:59:00.000Z'); // this rename is older than the target's
      await source.api.post('/asset/update', { id: source.ids.go, name: 'hello-source-older' });
      await vectorIndexFor(source.ctx).current(); // the source's vectors follow its rename before the backup
      const second = await backupText(source.api);
      await vectorIndexFor(target.ctx).current();
      const embedded = target.embedder.texts;

      const events = target.api.events.length;
      const reply = await target.api.post('/backup/restore', second);
      expect(reply.status).toBe(200);
      const { stores, relinked } = reply.json();
      expect(stores.assets).toEqual({ added: 1, replaced: 1, kept: 3, removed: 0, skipped: 0 });
      // py's annotation is no longer listed by the newer py: removed with it.
      expect(stores.annotations).toMatchObject({ added: 0, replaced: 0, removed: 1 });
      expect(stores.formats).toMatchObject({ added: 1, replaced: 1, kept: 3 });
      expect(relinked).toBe(0);
      expect(await names(target.api)).toMatchObject({ [source.ids.py]: 'parse_cli', [source.ids.go]: 'hello-target', [source.ids.bytes]: 'blob.bin' });
      expect(Object.keys(await names(target.api))).toContain(source.ids.bytes);
      expect((await target.api.get(`/asset/${source.ids.py}`)).json().annotations?.iterable ?? []).toEqual([]);
      expect(await target.api.store.read((tx) => tx.getAll('annotations'))).toEqual([]);
      expect(target.api.events.slice(events).map((e) => [e.asset, e.kind]).sort()).toEqual(
        [[source.ids.bytes, 'created'], [source.ids.py, 'updated']].sort(),
      );
      // Search and vectors follow the restored assets: the new name is found; bytes' vectors came with it,
      // py's newer version brought its own (made from the same text, by the same embedder).
      await vectorIndexFor(target.ctx).current();
      expect(target.embedder.texts).toBe(embedded);
      expect(vectorIndexFor(target.ctx).progress.embedded).toBe(5);
      const found = (await target.api.get('/assets/search?query=parse_cli&transferables=false')).json().iterable.map((r: any) => r.asset.id);
      expect(found[0]).toBe(source.ids.py);
    });

    it('links are put back in step: a link only one side knows is kept when that side is newer, dropped when it is older', async () => {
      const sourceClock = movableClock('2026-03-01T10:00:00.000Z');
      const source = await buildLibrary(await open(), sourceClock.now);
      const first = await backupText(source.api);
      const targetClock = movableClock('2026-03-01T11:00:00.000Z');
      const target = await openLibrary(await open(), targetClock.now);
      await target.api.post('/backup/restore', first);
      // In the target, at 11:00: a tag of its own on py and on go.
      const local = (await target.api.post('/tags/create', { text: 'local' })).json().id;
      await target.api.post(`/asset/${source.ids.py}/tags/associate/${local}`);
      await target.api.post(`/asset/${source.ids.go}/tags/associate/${local}`);
      // In the source: py renamed at 12:00 (newer than the target's tag), go at 10:30 (older).
      sourceClock.set('2026-03-01T12:00:00.000Z');
      await source.api.post('/asset/update', { id: source.ids.py, name: 'parse_cli' });
      const second = await backupText(source.api);
      targetClock.set('2026-03-01T11:30:00.000Z');
      // The tag changes once more after py's association (so it is newer than go, older than py).
      await target.api.post(`/asset/${source.ids.yaml}/tags/associate/${local}`);
      await target.api.post(`/asset/${source.ids.yaml}/tags/disassociate/${local}`);

      const { stores, relinked } = (await target.api.post('/backup/restore', second)).json();
      expect(stores.assets).toMatchObject({ replaced: 1, kept: 4 });
      // py's newer record (without the tag) wins over the tag; go keeps the tag (go is the target's, unchanged).
      expect(relinked).toBe(1);
      const tag = (await target.api.get('/tags')).json().iterable.find((t: { text: string }) => t.text === 'local');
      expect(tag.assets.iterable.map((a: { id: string }) => a.id)).toEqual([source.ids.go]);
      const py = (await target.api.get(`/asset/${source.ids.py}`)).json();
      expect(py.tags.iterable.map((t: { text: string }) => t.text)).not.toContain('local');
      const go = (await target.api.get(`/asset/${source.ids.go}`)).json();
      expect(go.tags.iterable.map((t: { text: string }) => t.text)).toContain('local');
    });

    it('conversations merge with their messages; a newer one in the file replaces the library\'s turns', async () => {
      const source = await buildLibrary(await open());
      const first = await backupText(source.api);
      const target = await openLibrary(await open(), steppingClock('2026-03-01T09:00:00.000Z'));
      await target.api.post('/backup/restore', first);
      // The source deletes conv-2 and continues conv-1 (a new turn, so conv-1 is newer there).
      await source.api.post('/conversations/conv-2/delete');
      const { saveExchange } = await import('../../worker/core/qgpt/conversations.ts');
      await saveExchange(source.ctx, { conversation: 'conv-1', query: 'one more?', answer: 'Yes.', assets: [source.ids.py] });
      const second = await backupText(source.api);
      const { stores } = (await target.api.post('/backup/restore', second)).json();
      expect(stores.conversations).toEqual({ added: 0, replaced: 1, kept: 0, removed: 0, skipped: 0 });
      expect(stores.messages).toMatchObject({ added: 2, replaced: 4 });
      const conversations = (await target.api.get(`/asset/${source.ids.py}/conversations`)).json().iterable;
      expect(conversations.find((c: { id: string }) => c.id === 'conv-1').messages.iterable).toHaveLength(6);
      // A merge keeps what the file does not mention: conv-2 stays in the target.
      expect((await target.api.get(`/asset/${source.ids.yaml}/conversations`)).json().iterable.map((c: { id: string }) => c.id)).toEqual(['conv-2']);
    });

    it('the version 1 fixture (test/fixtures/backup-v1.ndjson) restores into an empty library', async () => {
      const file = readFileSync(new URL('../fixtures/backup-v1.ndjson', import.meta.url), 'utf8');
      const target = await openLibrary(await open());
      const reply = await target.api.post('/backup/restore', file);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.json().stores.assets.added).toBe(5);
      const all = await listings(target.api, target.ctx);
      expect(all.assets.iterable.map((a: { name: string }) => a.name).sort()).toEqual(['Image (png)', 'blob.bin', 'hello', 'load_config_file', 'parse_args'].sort());
      const png = all.assets.iterable.find((a: { id: string }) => a.id === '778601db-6476-4bf6-86bd-d4ab31844a7a');
      expect(png.original.reference.file.bytes.raw.slice(0, 8)).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
      expect(all.tags.iterable.map((t: { text: string }) => t.text).sort()).toEqual(['argparse', 'cli', 'go']);
      expect(all.websites.iterable).toHaveLength(2);
      expect(all.summaries.iterable).toHaveLength(1);
      expect(all.vectors.embedded).toBe(5);
      const py = all.perAsset['6f913b9b-0c1e-434c-9a35-372c895496fb'] as { conversations: { iterable: { id: string; messages: { iterable: unknown[] } }[] } };
      expect(py.conversations.iterable.map((c) => [c.id, c.messages.iterable.length])).toEqual([['conv-1', 4]]);
      expect((await target.api.request('/qgpt/settings')).status).toBe(200);
    });
  });
}
