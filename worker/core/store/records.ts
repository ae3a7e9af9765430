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
 * What the store keeps. Records are compact and normalised (links are id lists on both sides);
 * `model/build.ts` turns them into wire objects. Timestamps are ISO strings.
 * Content lives in `contents`, apart from format metadata, so `transferables=false` never reads it.
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
  tags: string[];
  websites: string[];
  summaries: string[];
  persons: string[];
  annotations: string[];
  activities: string[];
  conversations: string[];
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
  category: TagCategoryEnum;
  created: string;
  updated: string;
  mechanisms: Record<string, MechanismEnum>;
  assets: string[];
}

export interface WebsiteRecord {
  id: string;
  url: string;
  name: string;
  created: string;
  updated: string;
  mechanisms: Record<string, MechanismEnum>;
  assets: string[];
}

export interface SummaryRecord {
  id: string;
  name: string;
  created: string;
  updated: string;
  model: Model;
  mechanism?: MechanismEnum;
  assets: string[];
}

export interface PersonRecord {
  id: string;
  type: PersonType;
  created: string;
  updated: string;
  mechanisms: Record<string, MechanismEnum>;
  assets: string[];
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
 * The durable change log: one entry per committed change event, keyed by its zero-padded sequence
 * number so that key order is commit order. Readers that fell behind (a stream, an index snapshot)
 * catch up from it; only the most recent entries are kept.
 */
export interface ChangeRecord {
  id: string;
  seq: number;
  asset: string;
  kind: 'created' | 'updated' | 'deleted';
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
  changes: ChangeRecord;
  indexes: IndexRecord;
}

export type CollectionName = keyof Collections;

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
];
