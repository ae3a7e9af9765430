/**
 * Reads a backup file (format.ts) as it streams in and checks all of it before anything is written: the
 * header's format and version, every line's JSON and record schema, then the trailer's counts and SHA-256.
 * Any fault is a 400 that names it; the caller stores nothing. What comes back holds each record once,
 * decoded (the file's text is never held whole: one line at a time).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import * as z from 'zod';
import { badRequest, describeIssues } from '../errors.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import {
  BACKUP_FORMAT,
  BACKUP_STORES,
  BACKUP_VERSION,
  emptyCounts,
  isBackupStore,
  recordSchemaOf,
  type BackupRecords,
  type BackupStore,
  type Counts,
} from './format.ts';

export interface ParsedBackup {
  version: number;
  created: string;
  /** The snippet-vector format of the file's vectors. */
  vectors: number;
  records: { [S in BackupStore]: BackupRecords[S][] };
}

const damaged = (message: string) => badRequest(`The backup is damaged: ${message} Nothing was restored.`, 'damaged_backup');

// Built on first use, as every schema is: the worker's start evaluates this module.
const TrailerSchema = lazySchema(() =>
  z.object({
    counts: z.object(Object.fromEntries(BACKUP_STORES.map((s) => [s, z.number().int().nonnegative()])) as Record<BackupStore, z.ZodNumber>),
    sha256: z.string(),
  }),
);

/** Checks and decodes a whole backup from its bytes (any chunking). */
export async function readBackup(chunks: AsyncIterable<Uint8Array>): Promise<ParsedBackup> {
  const hash = sha256.create();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const counts = emptyCounts();
  const records = Object.fromEntries(BACKUP_STORES.map((s) => [s, []])) as unknown as ParsedBackup['records'];
  let header: Omit<ParsedBackup, 'records'> | undefined;
  let trailer: { counts: Counts; sha256: string } | undefined;
  let number = 0;

  for await (const { bytes, newline } of lines(chunks)) {
    number++;
    if (trailer) throw damaged(`line ${number} follows the trailer.`);
    let text: string;
    let json: unknown;
    try {
      text = decoder.decode(bytes);
      json = JSON.parse(text);
    } catch {
      throw number === 1 ? notABackup() : damaged(`line ${number} is not valid JSON${newline ? '' : ' (the file ends inside it: truncated?)'}.`);
    }
    if (number === 1) {
      header = readHeader(json);
    } else if (isObject(json) && 'trailer' in json) {
      const parsed = TrailerSchema.safeParse(json.trailer);
      if (!parsed.success) throw damaged(`its trailer (line ${number}) is malformed: ${describeIssues(parsed.error)}.`);
      trailer = parsed.data;
      continue;
    } else {
      if (!isObject(json) || !isBackupStore(json.store) || !('record' in json)) {
        throw damaged(`line ${number} is not a {"store", "record"} line of a known store.`);
      }
      const store = json.store;
      const parsed = recordSchemaOf(store).safeParse(json.record);
      if (!parsed.success) throw damaged(`line ${number} (${store}) does not fit the record: ${describeIssues(parsed.error)}.`);
      (records[store] as unknown[]).push(parsed.data);
      counts[store]++;
    }
    hash.update(bytes);
    if (newline) hash.update(NEWLINE);
  }

  if (!header) throw notABackup();
  if (!trailer) throw damaged('it ends without its trailer line (truncated).');
  const digest = bytesToHex(hash.digest());
  if (digest !== trailer.sha256) throw damaged(`its checksum does not match (SHA-256 ${digest}, the trailer says ${trailer.sha256}).`);
  for (const store of BACKUP_STORES) {
    if (counts[store] !== trailer.counts[store]) {
      throw damaged(`it holds ${counts[store]} ${store} records where its trailer says ${trailer.counts[store]}.`);
    }
  }
  return { ...header, records };
}

const NEWLINE = new Uint8Array([0x0a]);

function notABackup() {
  return badRequest(`This is not a Tessera backup: its first line is not {"format": "${BACKUP_FORMAT}", "version": …}.`, 'unknown_backup_format');
}

function readHeader(json: unknown): Omit<ParsedBackup, 'records'> {
  if (!isObject(json) || json.format !== BACKUP_FORMAT) {
    const format = isObject(json) && typeof json.format === 'string' ? ` (its format is '${json.format.slice(0, 60)}')` : '';
    throw badRequest(`This is not a Tessera backup${format}: the format must be '${BACKUP_FORMAT}'.`, 'unknown_backup_format');
  }
  const version = json.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw badRequest(`The backup's format version ${JSON.stringify(version)} is not a version of '${BACKUP_FORMAT}'.`, 'unknown_backup_format');
  }
  if (version > BACKUP_VERSION) {
    throw badRequest(
      `The backup is format version ${version}, newer than this Tessera reads (version ${BACKUP_VERSION} and older): update Tessera to restore it.`,
      'backup_version_unsupported',
    );
  }
  const parsed = z.object({ created: z.string(), vectors: z.number().int() }).safeParse(json);
  if (!parsed.success) throw damaged(`its header is malformed: ${describeIssues(parsed.error)}.`);
  return { version, created: parsed.data.created, vectors: parsed.data.vectors };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The lines of a byte stream, split at `\n` (a byte that never occurs inside a UTF-8 sequence), each
 * with whether a newline ended it (only the last may lack one). A line's pieces are joined once, when
 * it ends, so a long line costs no repeated copying.
 */
async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<{ bytes: Uint8Array; newline: boolean }> {
  let pieces: Uint8Array[] = [];
  let pending = 0;
  const take = (tail: Uint8Array) => {
    const bytes = new Uint8Array(pending + tail.byteLength);
    let offset = 0;
    for (const piece of pieces) {
      bytes.set(piece, offset);
      offset += piece.byteLength;
    }
    bytes.set(tail, offset);
    pieces = [];
    pending = 0;
    return bytes;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end >= 0; end = chunk.indexOf(0x0a, start)) {
      yield { bytes: take(chunk.subarray(start, end)), newline: true };
      start = end + 1;
    }
    if (start < chunk.byteLength) {
      pieces.push(chunk.slice(start));
      pending += chunk.byteLength - start;
    }
  }
  if (pending > 0) yield { bytes: take(new Uint8Array(0)), newline: false };
}
