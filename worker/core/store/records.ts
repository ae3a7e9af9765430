import type {
  Application,
  ByteDescriptor,
  Classification,
  FileMetadata,
  FileFormat,
  FragmentFormat,
  FragmentMetadata,
  MechanismEnum,
  Model,
  PersonType,
  Role,
  Score,
  AnnotationTypeEnum,
  TagCategoryEnum,
  SeededConnectorTracking,
} from '../model/schemas.ts';

/**
 * What the store keeps. Records are compact and normalised; `model/build.ts` turns them into wire objects.
 * Timestamps are ISO strings. Content lives in `contents`, apart from format metadata, so
 * `transferables=false` never reads it. The links between an asset and its tags, websites, summaries,
 * persons and conversations are records of their own (`links`), found through indexes from either side:
 * neither side's record lists the other, so no record grows with the number of links.
 */
export interface AssetRecord {
  id: string;
  name?: string;
  creator: string;
  created: string;
  updated: string;
  mechanism: MechanismEnum;
  original: string;
  preview: { base: string; overlay?: string };
  formats: string[];
  annotations: string[];
  activities: string[];
  score: Score;
  pseudo: boolean;
  favorited?: boolean;
  discovered?: boolean;
}

export interface FormatRecord {
  id: string;
  asset: string;
  creator: string;
  created: string;
  updated: string;
  classification: Classification;
  role: Role;
  application: Application;
  bytes: ByteDescriptor;
  /** Which content slot holds the payload; metadata stays with the format so listings show it. */
  kind: 'fragment' | 'file';
  metadata?: FragmentMetadata | FileMetadata;
}

export interface ContentRecord {
  /** The format id. */
  id: string;
  fragment?: FragmentFormat;
  file?: FileFormat;
}

export interface TagRecord {
  id: string;
  text: string;
  /** `foldTag(text)`: the key the `folded` index finds a tag by, whatever the case of the text asked for. */
  folded: string;
  category: TagCategoryEnum;
  created: string;
  updated: string;
  mechanisms: Record<string, MechanismEnum>;
}

export interface WebsiteRecord {
  id: string;
  url: string;
  name: string;
  created: string;
  updated: string;
  mechanisms: Record<string, MechanismEnum>;
}

export interface SummaryRecord {
  id: string;
  name: string;
  created: string;
  updated: string;
  model: Model;
  mechanism?: MechanismEnum;
}

export interface PersonRecord {
  id: string;
  type: PersonType;
  created: string;
  updated: string;
  mechanisms: Record<string, MechanismEnum>;
}

export interface AnnotationRecord {
  id: string;
  asset: string;
  type: AnnotationTypeEnum;
  text: string;
  created: string;
  updated: string;
  mechanism: MechanismEnum;
}

export interface ActivityRecord {
  id: string;
  asset: string;
  created: string;
  updated: string;
  event: SeededConnectorTracking;
  application: Application;
  mechanism: MechanismEnum;
}

/** Small keyed values the service keeps for itself (the change sequence number, settings). */
export interface MetaRecord {
  id: string;
  value: unknown;
}

/**
 * The durable change log: one entry per committed transaction (a write, or the writes sharing one:
 * store/write-batches.ts), keyed by the zero-padded sequence number of its last change so that key order
 * is commit order. `assets[i]` changed as `kinds[i]` at seq `seq - assets.length + 1 + i`. Readers that
 * fell behind (a stream, an index snapshot) catch up from it; only the entries holding the last
 * CHANGE_LOG_SIZE changes are kept (feed/commit.ts).
 */
export interface ChangeRecord {
  id: string;
  seq: number;
  assets: string[];
  kinds: ChangeKind[];
}

export type ChangeKind = 'created' | 'updated' | 'deleted';

/** An entry of one change, as every write logged them before one entry per write (read, never written). */
export interface SingleChangeRecord {
  id: string;
  seq: number;
  asset: string;
  kind: ChangeKind;
}

/**
 * A saved copy of an index derived from the other collections (the search index), with the change-log
 * seq it reflects; a reader restores it and applies the changes after that seq. Written by the index in
 * its own transaction; losing it costs a rebuild, never data.
 */
export interface IndexRecord {
  id: string;
  /** The format version of `data`; a record of another version is rebuilt, not read. */
  version: number;
  seq: number;
  saved: string;
  data: unknown;
}

/**
 * The snippets of one asset's text with their vectors, derived data kept in step by `qgpt/vectors/snippet-vectors.ts`
 * (id = the asset id). Made from the asset as it was at `updated`, by the embedder `embedder`; a
 * record of another embedder or an older `updated` is redone. Losing it costs re-embedding, never data.
 */
export interface SnippetRecord {
  id: string;
  updated: string;
  /** `contentKey` of what the vectors were made from (absent in records written before it existed). */
  key?: string;
  embedder: string;
  snippets: {
    /** The format whose content the snippet is cut from. */
    format: string;
    /** UTF-16 offsets into that content; `end` exclusive. */
    start: number;
    end: number;
    /** The vector quantised to 8 bits: component i is `vector[i] * scale` (a quarter of the bytes to store and load). */
    vector: Int8Array;
    scale: number;
  }[];
}

/**
 * A snippet handed out by `/qgpt/relevance` (its `RelevantQGPTSeed.id`), so a later `/qgpt/question`
 * may name it by id alone. Holds the text as relevance returned it; the most recent ones are kept.
 */
export interface RelevantRecord {
  /** The ring slot (see qgpt/relevant-ring.ts); the id handed out is `<slot>.<nonce>`. */
  id: string;
  nonce: string;
  created: string;
  text: string;
  /** The asset it came from (library snippets). */
  asset?: string;
  /** The file it came from (the `paths` query space). */
  path?: string;
  start: number;
  end: number;
  /** The asset's name or the file's name, to say where an answer comes from. */
  source?: string;
  /** Its relevance score in [0, 1]. */
  score?: number;
}

/** A question-answering conversation (`/qgpt/stream` exchanges); wire Conversation via model/build.ts. */
export interface ConversationRecord {
  id: string;
  name?: string;
  created: string;
  updated: string;
  /** Message ids in order. */
  messages: string[];
}

export interface MessageRecord {
  id: string;
  conversation: string;
  created: string;
  updated: string;
  role: 'USER' | 'ASSISTANT' | 'SYSTEM' | 'UNKNOWN';
  text: string;
  /** Assets the message's answer drew on. */
  assets: string[];
}

/**
 * A folder the user granted with the File System Access API (the `paths` query space); id = its name,
 * the first segment of a path. `handle` is a FileSystemDirectoryHandle (structured-clonable in IndexedDB).
 */
export interface FolderRecord {
  id: string;
  created: string;
  handle: unknown;
}

/**
 * The response a write with an `Idempotency-Key` answered, kept (written in the write's own transaction)
 * so that the same request sent again is answered with it instead of writing again; id = the key.
 * See worker/core/idempotency.ts.
 */
export interface IdempotencyRecord {
  id: string;
  /** What the key was used for: `POST /api/assets/create?…` or `RPC createAsset`. */
  request: string;
  /** Epoch ms. */
  created: number;
  /** Epoch ms; after it the key is forgotten. */
  expires: number;
  /** The response body's length, for the bound on what is kept. */
  size: number;
  response: { status: number; contentType?: string; body: string };
}

/** What an asset links to: each link is one LinkRecord. */
export const LINKED_KINDS = ['tags', 'websites', 'summaries', 'persons', 'conversations'] as const;
export type LinkedKind = (typeof LINKED_KINDS)[number];

/**
 * One link between an asset and a tag, website, workstream summary, person or conversation (whose
 * snippets the conversation used). Each side finds its links through an index, newest first
 * (links/link-records.ts): linking writes this one record, however many links either side has.
 */
export interface LinkRecord {
  /** `linkId(kind, other, asset)`: one record per linked pair. */
  id: string;
  kind: LinkedKind;
  asset: string;
  other: string;
  /** The `asset` index key: the asset's links of this kind, newest first (links/link-records.ts). */
  assetKey: string;
  /** The `other` index key: the assets linked to `other`, newest first. */
  otherKey: string;
}

/** An asset record with the ids of what it links to, each kind in the order linked: as the wire and backups list them. */
export type AssetWithLinks = AssetRecord & { [K in LinkedKind]: string[] };
/** A tag, website, summary, person or conversation record with the ids of its assets, in the order linked. */
export type WithAssets<R> = R & { assets: string[] };

export interface Collections {
  assets: AssetRecord;
  formats: FormatRecord;
  contents: ContentRecord;
  tags: TagRecord;
  websites: WebsiteRecord;
  summaries: SummaryRecord;
  persons: PersonRecord;
  annotations: AnnotationRecord;
  activities: ActivityRecord;
  meta: MetaRecord;
  changes: ChangeRecord | SingleChangeRecord;
  indexes: IndexRecord;
  snippets: SnippetRecord;
  relevant: RelevantRecord;
  conversations: ConversationRecord;
  messages: MessageRecord;
  folders: FolderRecord;
  idempotency: IdempotencyRecord;
  links: LinkRecord;
}

export type CollectionName = keyof Collections;

/** What an index of a collection is keyed by: a string field of its records (records without one are not in it). */
export interface IndexSpec {
  keyPath: string;
}

/**
 * The indexes each collection has, by name (IndexedDB indexes, PostgreSQL expression indexes). Adding one
 * needs a migration in both worker/browser/idb-store.ts and worker/node/pg/migrations.ts.
 * Not unique: a restore may bring a tag or website whose text another one of another id already has.
 */
export const INDEXES = {
  activities: { asset: { keyPath: 'asset' } },
  messages: { conversation: { keyPath: 'conversation' } },
  tags: { folded: { keyPath: 'folded' } },
  websites: { url: { keyPath: 'url' } },
  links: { asset: { keyPath: 'assetKey' }, other: { keyPath: 'otherKey' } },
} as const satisfies { [C in CollectionName]?: Record<string, IndexSpec> };

export type IndexedCollection = keyof typeof INDEXES;
export type IndexName<C extends IndexedCollection> = keyof (typeof INDEXES)[C] & string;

/** A tag's text as the `folded` index keys it: tags of the same text in another case are the same tag. */
export function foldTag(text: string): string {
  return text.toLowerCase();
}

export const COLLECTIONS: readonly CollectionName[] = [
  'assets',
  'formats',
  'contents',
  'tags',
  'websites',
  'summaries',
  'persons',
  'annotations',
  'activities',
  'meta',
  'changes',
  'indexes',
  'snippets',
  'relevant',
  'conversations',
  'messages',
  'folders',
  'idempotency',
  'links',
];
