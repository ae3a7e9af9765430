/**
 * `GET /backup`: the whole library as one backup file (format.ts), produced as the reader pulls it.
 * Each collection is read in bounded batches (`getRange`, one read transaction a batch), so a large
 * library is never in memory at once: one batch of records and its lines at a time. Each record of a
 * batch gets its links as the file lists them (id arrays), read through the `links` indexes in the
 * batch's transaction. The vectors are the vector index's, one record per asset as the file has them:
 * they are stored in chunks (qgpt/vectors/vector-chunks.ts), not a record each.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { ServiceContext } from '../deps.ts';
import { readSeq } from '../feed/commit.ts';
import { SETTINGS_ID } from '../qgpt/answer/chat-settings.ts';
import { vectorIndexFor } from '../qgpt/vectors/snippet-vectors.ts';
import { VECTORS_VERSION } from '../qgpt/vectors/stored-vectors.ts';
import { withAssets, withLinks } from '../links/link-records.ts';
import { LINKED_KINDS, type AssetRecord, type CollectionName, type Collections, type LinkedKind, type SnippetRecord } from '../store/records.ts';
import type { ReadTx } from '../store/store.ts';
import { utf8Bytes } from '../utf8.ts';
import {
  BACKUP_FORMAT,
  BACKUP_STORES,
  BACKUP_VERSION,
  emptyCounts,
  encodeRecord,
  recordSchemaOf,
  type BackupHeader,
  type BackupRecords,
  type BackupStore,
  type BackupTrailer,
} from './format.ts';

/** Records read per transaction: small for contents (a format's content may be megabytes), larger for the rest. */
const BATCH: Partial<Record<BackupStore, number>> & { default: number } = { contents: 32, snippets: 128, default: 256 };

/** The file name a backup is offered under: `tessera-backup-YYYY-MM-DD.ndjson` (UTC date). */
export function backupFilename(now: Date): string {
  return `tessera-backup-${now.toISOString().slice(0, 10)}.ndjson`;
}

/** The backup as a byte stream; nothing is read until the stream is pulled. */
export function backupStream(ctx: ServiceContext): ReadableStream<Uint8Array> {
  const chunks = backupChunks(ctx);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    // One chunk (a batch of lines) ahead of the reader, no more.
    { highWaterMark: 1 },
  );
}

/** The file's bytes, in chunks of whole lines (the header, one chunk per batch, the trailer). */
export async function* backupChunks(ctx: ServiceContext): AsyncGenerator<Uint8Array, void, undefined> {
  const hash = sha256.create();
  const counts = emptyCounts();
  /** Encoded once: the same bytes are hashed and sent. */
  const hashed = (text: string) => {
    const bytes = utf8Bytes(text);
    hash.update(bytes);
    return bytes;
  };

  // Every committed asset embedded (the records are replaced, never changed, so the list stays as taken).
  const vectors = [...(await vectorIndexFor(ctx).current()).entries.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  yield hashed(`${JSON.stringify(await header(ctx, vectors))}\n`);
  for (const store of BACKUP_STORES) {
    if (store === 'snippets') {
      const size = BATCH.snippets!;
      for (let i = 0; i < vectors.length; i += size) {
        const batch = vectors.slice(i, i + size);
        counts.snippets += batch.length;
        yield hashed(batch.map((record) => line('snippets', record)).join(''));
      }
      continue;
    }
    if (store === 'settings') {
      const settings = await readSettings(ctx);
      if (settings) {
        counts.settings++;
        yield hashed(line('settings', settings));
      }
      continue;
    }
    const size = BATCH[store] ?? BATCH.default;
    let after: string | undefined;
    for (;;) {
      const batch = await ctx.store.read(async (tx) => withFileLinks(tx, store, await tx.getRange(store, after, size)), [store, 'links']);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.id;
      counts[store] += batch.length;
      yield hashed(batch.map((record) => line(store, record as BackupRecords[typeof store])).join(''));
      if (batch.length < size) break;
    }
  }
  const trailer: BackupTrailer = { counts, sha256: bytesToHex(hash.digest()) };
  yield utf8Bytes(`${JSON.stringify({ trailer })}\n`);
}

/** The records of a batch as the file has them: with their links as id arrays (all of them). */
async function withFileLinks(tx: ReadTx, store: Exclude<BackupStore, 'settings'>, records: Collections[typeof store][]): Promise<{ id: string }[]> {
  if (store === 'assets') return Promise.all((records as AssetRecord[]).map((asset) => withLinks(tx, asset)));
  if ((LINKED_KINDS as readonly string[]).includes(store)) return withAssets(tx, store as LinkedKind, records);
  return records;
}

function line<S extends BackupStore>(store: S, record: BackupRecords[S]): string {
  return `${JSON.stringify({ store, record: encodeRecord(store, record) })}\n`;
}

async function header(ctx: ServiceContext, vectors: readonly SnippetRecord[]): Promise<BackupHeader> {
  const collections = BACKUP_STORES.filter((s) => s !== 'settings' && s !== 'snippets') as CollectionName[];
  const { seq, sizes, settings } = await ctx.store.read(
    async (tx) => ({
      seq: await readSeq(tx),
      sizes: await Promise.all(collections.map((c) => tx.count(c))),
      settings: await tx.get('meta', SETTINGS_ID),
    }),
    [...collections, 'meta'],
  );
  const counts = emptyCounts();
  collections.forEach((c, i) => (counts[c as BackupStore] = sizes[i]!));
  counts.settings = settings ? 1 : 0;
  counts.snippets = vectors.length;
  return { format: BACKUP_FORMAT, version: BACKUP_VERSION, created: ctx.now().toISOString(), seq, vectors: VECTORS_VERSION, counts };
}

/** The chat-model settings without the API key, or undefined when none (or none valid) are set. */
async function readSettings(ctx: ServiceContext): Promise<BackupRecords['settings'] | undefined> {
  const record = await ctx.store.read((tx) => tx.get('meta', SETTINGS_ID), ['meta']);
  if (!record) return undefined;
  const parsed = recordSchemaOf('settings').safeParse(record);
  return parsed.success ? parsed.data : undefined;
}
