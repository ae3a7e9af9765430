/**
 * The backup file, version 1: NDJSON (one JSON value a line, `\n` after each), so it is written and read
 * as a stream, a batch of records at a time.
 *
 *   {"format":"tessera-backup","version":1,"created":ISO,"seq":N,"vectors":V,"counts":{store: n}}
 *   {"store":"assets","record":{…}}                       one line per record, stores in BACKUP_STORES order
 *   …
 *   {"trailer":{"counts":{store: n},"sha256":"<hex>"}}
 *
 * - Records are the store's own records (worker/core/store/records.ts), ids and timestamps as stored, except
 *   that byte arrays are base64 strings: content bytes (`fragment|file.bytes.raw` …) and the 8-bit snippet
 *   vectors, and that links are id arrays on both sides, in the order linked, as the store kept them when
 *   version 1 was made: an asset lists its `tags`, `websites`, `summaries`, `persons` and `conversations`,
 *   and each of those its `assets` (the store's `links` records are not in the file). The `settings` store
 *   holds the chat-model settings without the API key.
 * - `sha256` is the SHA-256 of every byte before the trailer line (so `head -n -1 f | sha256sum` checks
 *   it); the trailer's `counts` are the records in the file, the header's those in the library when the
 *   backup started (for progress only: writes during a backup may change them).
 * - `vectors` is the snippet-vector format (VECTORS_VERSION); vectors of another version are not restored.
 * - `seq` is the change-log seq when the backup started.
 *
 * A later version must keep reading this one: test/fixtures/backup-v1.ndjson is restored by the tests.
 */
import * as z from 'zod';
import { base64ToBytes, bytesToBase64 } from '../assets/content.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import {
  AnnotationTypeEnumSchema,
  ApplicationSchema,
  ByteDescriptorSchema,
  ClassificationSchema,
  EmbeddedModelSchemaSchema,
  FileMetadataSchema,
  FragmentMetadataSchema,
  IdSchema,
  IsoDateSchema,
  MechanismEnumSchema,
  ModelSchema,
  PersonTypeSchema,
  RoleSchema,
  ScoreSchema,
  SeededConnectorTrackingSchema,
  TagCategoryEnumSchema,
  TransferableStringSchema,
  opt,
  type TransferableBytes,
} from '../model/schemas.ts';
import { ChatSettingsSchema, SETTINGS_ID, type ChatSettings } from '../qgpt/answer/chat-settings.ts';
import {
  foldTag,
  type AssetWithLinks,
  type CollectionName,
  type Collections,
  type ContentRecord,
  type LinkedKind,
  type SnippetRecord,
  type WithAssets,
} from '../store/records.ts';

export const BACKUP_FORMAT = 'tessera-backup';
export const BACKUP_VERSION = 1;

/** The chat-model settings as a backup keeps them: never the API key. */
export type BackupSettings = Omit<ChatSettings, 'apiKey'>;
export interface SettingsRecord {
  id: string;
  value: BackupSettings;
}

/** What a backup holds, store by store, in file order: what others link to comes first. */
export const BACKUP_STORES = [
  'settings',
  'tags',
  'websites',
  'summaries',
  'persons',
  'assets',
  'formats',
  'contents',
  'annotations',
  'activities',
  'snippets',
  'conversations',
  'messages',
] as const;
export type BackupStore = (typeof BACKUP_STORES)[number];
/** A line's record: the store's own, its links as id arrays on both sides. */
export type BackupRecords = {
  [S in BackupStore]: S extends 'settings'
    ? SettingsRecord
    : S extends 'assets'
      ? AssetWithLinks
      : S extends LinkedKind
        ? WithAssets<Collections[S]>
        : Collections[S & CollectionName];
};
export type Counts = Record<BackupStore, number>;

export const emptyCounts = (): Counts => Object.fromEntries(BACKUP_STORES.map((s) => [s, 0])) as Counts;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created: string;
  seq: number;
  vectors: number;
  counts: Counts;
}

export interface BackupTrailer {
  counts: Counts;
  sha256: string;
}

// ---------------------------------------------------------------------------------------------------
// Records as written: byte arrays as base64

type Slot = NonNullable<ContentRecord['fragment'] | ContentRecord['file']>;
const BYTE_FIELDS = ['raw', 'base64', 'base64_url', 'data_url'] as const;

function encodeSlot(slot: Slot | undefined): unknown {
  if (!slot?.bytes) return slot;
  const bytes: Record<string, unknown> = { ...slot.bytes };
  for (const field of BYTE_FIELDS) {
    const value = slot.bytes[field];
    if (Array.isArray(value)) bytes[field] = bytesToBase64(value);
  }
  return { ...slot, bytes };
}

/** A record as its backup line carries it (JSON-ready). */
export function encodeRecord<S extends BackupStore>(store: S, record: BackupRecords[S]): unknown {
  if (store === 'contents') {
    const content = record as ContentRecord;
    return { ...content, fragment: encodeSlot(content.fragment), file: encodeSlot(content.file) };
  }
  if (store === 'snippets') {
    const snippets = record as SnippetRecord;
    return {
      ...snippets,
      snippets: snippets.snippets.map((s) => ({ ...s, vector: bytesToBase64(Array.from(new Uint8Array(s.vector.buffer, s.vector.byteOffset, s.vector.length))) })),
    };
  }
  return record;
}

// ---------------------------------------------------------------------------------------------------
// Schemas that check a line and decode it into the store's record

/** A schema whose output is the record type (so a field the type has and the schema lacks is a type error here, not data lost). */
const recordSchema = <T>() => <S extends z.ZodType<T>>(schema: S) => schema;

const Base64Schema = lazySchema(() =>
  z.string().refine((s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0, 'expected base64'),
);
const Ids = lazySchema(() => z.array(IdSchema));
const Mechanisms = lazySchema(() => z.record(z.string(), MechanismEnumSchema));
const Stamp = IsoDateSchema;

const BytesSchema = lazySchema(() =>
  z.object({
    schema: opt(EmbeddedModelSchemaSchema),
    raw: Base64Schema.optional(),
    base64: Base64Schema.optional(),
    base64_url: Base64Schema.optional(),
    data_url: Base64Schema.optional(),
  }),
);
const SlotSchema = lazySchema(() =>
  z
    .object({
      schema: opt(EmbeddedModelSchemaSchema),
      string: opt(TransferableStringSchema),
      bytes: BytesSchema.optional(),
      metadata: opt(z.union([FileMetadataSchema, FragmentMetadataSchema])),
    })
    .transform(({ bytes, ...slot }): Slot => {
      if (!bytes) return slot;
      const { schema, ...encoded } = bytes;
      const decoded: TransferableBytes = schema === undefined ? {} : { schema };
      for (const field of BYTE_FIELDS) {
        const value = encoded[field];
        if (value !== undefined) decoded[field] = Array.from(base64ToBytes(value));
      }
      return { ...slot, bytes: decoded };
    }),
);

const SCHEMAS = {
  settings: lazySchema(() =>
    recordSchema<SettingsRecord>()(
      z.object({
        id: z.literal(SETTINGS_ID),
        // The key is never in a backup; one in a hand-made file is dropped, not stored.
        value: z.looseObject({}).transform((value, ctx) => {
          const parsed = ChatSettingsSchema.safeParse({ ...value, apiKey: undefined });
          if (!parsed.success) {
            ctx.addIssue({ code: 'custom', message: `not chat settings: ${parsed.error.issues[0]?.message}` });
            return z.NEVER;
          }
          const { apiKey: _, ...settings } = parsed.data;
          return settings;
        }),
      }),
    ),
  ),
  tags: lazySchema(() =>
    recordSchema<WithAssets<Collections['tags']>>()(
      z
        .object({ id: IdSchema, text: z.string(), category: TagCategoryEnumSchema, created: Stamp, updated: Stamp, mechanisms: Mechanisms, assets: Ids })
        // The index key is the store's own, made again from the text (files before it had none).
        .transform((t) => ({ ...t, folded: foldTag(t.text) })),
    ),
  ),
  websites: lazySchema(() =>
    recordSchema<WithAssets<Collections['websites']>>()(
      z.object({ id: IdSchema, url: z.string(), name: z.string(), created: Stamp, updated: Stamp, mechanisms: Mechanisms, assets: Ids }),
    ),
  ),
  summaries: lazySchema(() =>
    recordSchema<WithAssets<Collections['summaries']>>()(
      z.object({ id: IdSchema, name: z.string(), created: Stamp, updated: Stamp, model: ModelSchema, mechanism: MechanismEnumSchema.optional(), assets: Ids }),
    ),
  ),
  persons: lazySchema(() =>
    recordSchema<WithAssets<Collections['persons']>>()(
      z.object({ id: IdSchema, type: PersonTypeSchema, created: Stamp, updated: Stamp, mechanisms: Mechanisms, assets: Ids }),
    ),
  ),
  assets: lazySchema(() =>
    recordSchema<AssetWithLinks>()(
      z.object({
        id: IdSchema,
        name: z.string().optional(),
        creator: z.string(),
        created: Stamp,
        updated: Stamp,
        mechanism: MechanismEnumSchema,
        original: IdSchema,
        preview: z.object({ base: IdSchema, overlay: IdSchema.optional() }),
        formats: Ids,
        tags: Ids,
        websites: Ids,
        summaries: Ids,
        persons: Ids,
        annotations: Ids,
        activities: Ids,
        conversations: Ids,
        score: ScoreSchema,
        pseudo: z.boolean(),
        favorited: z.boolean().optional(),
        discovered: z.boolean().optional(),
      }),
    ),
  ),
  formats: lazySchema(() =>
    recordSchema<Collections['formats']>()(
      z.object({
        id: IdSchema,
        asset: IdSchema,
        creator: z.string(),
        created: Stamp,
        updated: Stamp,
        classification: ClassificationSchema,
        role: RoleSchema,
        application: ApplicationSchema,
        bytes: ByteDescriptorSchema,
        kind: z.enum(['fragment', 'file']),
        metadata: z.union([FileMetadataSchema, FragmentMetadataSchema]).optional(),
      }),
    ),
  ),
  contents: lazySchema(() =>
    recordSchema<Collections['contents']>()(
      z
        .object({ id: IdSchema, fragment: SlotSchema.optional(), file: SlotSchema.optional() })
        .refine((c) => c.fragment !== undefined || c.file !== undefined, 'a content record holds a fragment or a file'),
    ),
  ),
  annotations: lazySchema(() =>
    recordSchema<Collections['annotations']>()(
      z.object({ id: IdSchema, asset: IdSchema, type: AnnotationTypeEnumSchema, text: z.string(), created: Stamp, updated: Stamp, mechanism: MechanismEnumSchema }),
    ),
  ),
  activities: lazySchema(() =>
    recordSchema<Collections['activities']>()(
      z.object({
        id: IdSchema,
        asset: IdSchema,
        created: Stamp,
        updated: Stamp,
        event: SeededConnectorTrackingSchema,
        application: ApplicationSchema,
        mechanism: MechanismEnumSchema,
      }),
    ),
  ),
  snippets: lazySchema(() =>
    recordSchema<Collections['snippets']>()(
      z.object({
        id: IdSchema,
        updated: Stamp,
        embedder: z.string().min(1),
        // What the vectors were made from (qgpt/vectors/snippet-vectors.ts contentKey); absent in older records and files.
        key: z.string().optional(),
        snippets: z.array(
          z.object({
            format: IdSchema,
            start: z.number().int().nonnegative(),
            end: z.number().int().nonnegative(),
            vector: Base64Schema.transform((b64) => {
              const bytes = base64ToBytes(b64);
              return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
            }),
            scale: z.number(),
          }),
        ),
      }),
    ),
  ),
  conversations: lazySchema(() =>
    recordSchema<WithAssets<Collections['conversations']>>()(
      z.object({ id: IdSchema, name: z.string().optional(), created: Stamp, updated: Stamp, messages: Ids, assets: Ids }),
    ),
  ),
  messages: lazySchema(() =>
    recordSchema<Collections['messages']>()(
      z.object({
        id: IdSchema,
        conversation: IdSchema,
        created: Stamp,
        updated: Stamp,
        role: z.enum(['USER', 'ASSISTANT', 'SYSTEM', 'UNKNOWN']),
        text: z.string(),
        assets: Ids,
      }),
    ),
  ),
} satisfies { [S in BackupStore]: z.ZodType<BackupRecords[S]> };

export function recordSchemaOf<S extends BackupStore>(store: S): z.ZodType<BackupRecords[S]> {
  return SCHEMAS[store] as unknown as z.ZodType<BackupRecords[S]>;
}

export const isBackupStore = (value: unknown): value is BackupStore => (BACKUP_STORES as readonly unknown[]).includes(value);
