/**
 * Files POST /backup/restore refuses, each with a 400 JSON error that says why, and nothing stored or
 * published: damaged (truncated, bad checksum, a line that is not JSON or not a record, counts that do not
 * match), of an unknown format, of a newer version; a body over the restore limit is a 413. A dry run
 * answers what a restore would do and stores nothing. Over the memory store and IndexedDB.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { backupText, buildLibrary, openLibrary, type Library } from '../support/backup-library.ts';
import { dumpStore } from '../support/dump.ts';
import { STORES } from '../support/stores.ts';
import { createTestApi } from '../support/test-api.ts';

/** Re-signs lines (header, records) with a correct trailer: a file that is damaged only where a test says. */
function signed(lines: string[], counts: Record<string, number>): string {
  const body = lines.map((l) => `${l}\n`).join('');
  const sha256 = createHash('sha256').update(body).digest('hex');
  return `${body}${JSON.stringify({ trailer: { counts, sha256 } })}\n`;
}

const split = (file: string) => {
  const lines = file.trimEnd().split('\n');
  const trailer = JSON.parse(lines.pop()!).trailer as { counts: Record<string, number>; sha256: string };
  return { lines, trailer };
};

for (const [engine, open] of Object.entries(STORES)) {
  describe(`backup restore refuses: ${engine}`, () => {
    /** A non-empty library (the target) and a good backup of another library. */
    async function setup() {
      const source = await buildLibrary(await open());
      const file = await backupText(source.api);
      const target: Library = await buildLibrary(await open());
      return { file, target };
    }

    async function refused(target: Library, body: string, code: string, message: RegExp) {
      const before = await dumpStore(target.api.store);
      const events = target.api.events.length;
      const reply = await target.api.post('/backup/restore', body);
      expect(reply.status, reply.text).toBe(400);
      const error = reply.json().error;
      expect(error).toMatchObject({ status: 400, code });
      expect(error.message).toMatch(message);
      expect(await dumpStore(target.api.store)).toEqual(before);
      expect(target.api.events.length).toBe(events);
    }

    it('damaged files: truncated (inside a line, or before the trailer), a changed byte, a line that is not JSON or not a record, wrong counts', async () => {
      const { file, target } = await setup();
      const { lines, trailer } = split(file);
      await refused(target, file.slice(0, Math.floor(file.length / 2)), 'damaged_backup', /truncated/);
      await refused(target, lines.join('\n') + '\n', 'damaged_backup', /without its trailer line \(truncated\)/);
      await refused(target, file.replace('"name":"hello"', '"name":"hellO"'), 'damaged_backup', /checksum does not match/);
      const notJson = [...lines];
      notJson[3] = notJson[3]!.slice(0, -5);
      await refused(target, signed(notJson, trailer.counts), 'damaged_backup', /line 4 is not valid JSON/);
      const notARecord = [...lines];
      notARecord[2] = JSON.stringify({ store: 'tags', record: { id: 'x', text: 42 } });
      await refused(target, signed(notARecord, trailer.counts), 'damaged_backup', /line 3 \(tags\) does not fit the record: text/);
      const unknownStore = [...lines, JSON.stringify({ store: 'secrets', record: {} })];
      await refused(target, signed(unknownStore, trailer.counts), 'damaged_backup', /not a \{"store", "record"\} line of a known store/);
      const oneLess = lines.filter((l) => !l.startsWith('{"store":"messages"')).concat(lines.filter((l) => l.startsWith('{"store":"messages"')).slice(1));
      await refused(target, signed(oneLess, trailer.counts), 'damaged_backup', /holds 5 messages records where its trailer says 6/);
      await refused(target, file + file.split('\n')[1] + '\n', 'damaged_backup', /follows the trailer/);
      const badBase64 = lines.map((l) => (l.startsWith('{"store":"snippets"') ? l.replace(/"vector":"[^"]*"/, '"vector":"not base64!"') : l));
      await refused(target, signed(badBase64, trailer.counts), 'damaged_backup', /snippets\) does not fit the record: .*base64/);
    });

    it('an unknown format, a file that is not JSON at all, and an empty body', async () => {
      const { file, target } = await setup();
      const { lines, trailer } = split(file);
      const other = [JSON.stringify({ format: 'pieces-backup', version: 1 }), ...lines.slice(1)];
      await refused(target, signed(other, trailer.counts), 'unknown_backup_format', /not a Tessera backup \(its format is 'pieces-backup'\)/);
      await refused(target, '\u0089PNG\r\n\u001a\nbinary', 'unknown_backup_format', /not a Tessera backup/);
      await refused(target, '', 'unknown_backup_format', /not a Tessera backup/);
      const version0 = [lines[0]!.replace('"version":1', '"version":0'), ...lines.slice(1)];
      await refused(target, signed(version0, trailer.counts), 'unknown_backup_format', /version 0 is not a version/);
    });

    it('a newer format version: 400 that says to update Tessera', async () => {
      const { file, target } = await setup();
      const { lines, trailer } = split(file);
      const newer = [lines[0]!.replace('"version":1', '"version":2'), ...lines.slice(1)];
      await refused(target, signed(newer, trailer.counts), 'backup_version_unsupported', /format version 2, newer than this Tessera reads \(version 1 and older\): update Tessera/);
    });

    it('a dry run answers what a restore would do and stores nothing; the restore then does just that', async () => {
      const { file, target } = await setup();
      const before = await dumpStore(target.api.store);
      const events = target.api.events.length;
      const dry = await target.api.post('/backup/restore?dry_run=true', file);
      expect(dry.status).toBe(200);
      expect(dry.json().applied).toBe(false);
      expect(await dumpStore(target.api.store)).toEqual(before);
      expect(target.api.events.length).toBe(events);
      const real = (await target.api.post('/backup/restore', file)).json();
      expect(real).toEqual({ ...dry.json(), applied: true });
      expect(real.stores.assets.added).toBe(5);
      expect((await target.api.post('/backup/restore?dry_run=maybe', file)).json().error).toMatchObject({ status: 400, code: 'invalid_parameter' });
    });
  });
}

describe('backup restore limit', () => {
  it('a body over maxRestoreBytes is a 413 and changes nothing', async () => {
    const source = await openLibrary(new MemoryStore());
    await source.api.create({ asset: { application: { id: 'a', name: 'VS_CODE', version: '1', platform: 'LINUX', onboarded: true, privacy: 'OPEN' }, format: { fragment: { string: { raw: 'x = 1' } } } } });
    const file = await backupText(source.api);
    const store = new MemoryStore();
    const api = await createTestApi({ store, maxRestoreBytes: 200 });
    const before = await dumpStore(store);
    const response = await api.post('/backup/restore', file);
    expect(response.status).toBe(413);
    expect(response.json().error).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(await dumpStore(store)).toEqual(before);
  });
});
