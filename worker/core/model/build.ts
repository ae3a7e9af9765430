import type {
  Activity,
  Annotation,
  Asset,
  Conversation,
  FlattenedAsset,
  FlattenedFormat,
  Format,
  GroupedTimestamp,
  Person,
  Tag,
  Website,
  WorkstreamSummary,
} from './schemas.ts';
import type {
  ActivityRecord,
  AnnotationRecord,
  AssetWithLinks,
  ContentRecord,
  ConversationRecord,
  FormatRecord,
  MessageRecord,
  PersonRecord,
  SummaryRecord,
  TagRecord,
  WebsiteRecord,
  WithAssets,
} from '../store/records.ts';

/**
 * Builders of wire objects from stored records. Pure functions: no storage access. Records come with the
 * ids of what they link to, as the reader found them through the `links` indexes (links/link-records.ts).
 */

export function timestamp(iso: string): GroupedTimestamp {
  return { value: iso, readable: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` };
}

/** A Flattened<X>s: references by id, with `indices` (id -> position), which real clients read. */
export function references(ids: readonly string[]) {
  return {
    iterable: ids.map((id) => ({ id })),
    indices: Object.fromEntries(ids.map((id, i) => [id, i])),
  };
}

export function flattenedAsset(a: AssetWithLinks): FlattenedAsset {
  return {
    id: a.id,
    name: a.name,
    creator: a.creator,
    created: timestamp(a.created),
    updated: timestamp(a.updated),
    mechanism: a.mechanism,
    formats: references(a.formats),
    preview: { ...a.preview },
    original: a.original,
    score: { ...a.score },
    pseudo: a.pseudo,
    favorited: a.favorited,
    discovered: a.discovered,
    tags: references(a.tags),
    websites: references(a.websites),
    persons: references(a.persons),
    annotations: references(a.annotations),
    summaries: references(a.summaries),
    activities: references(a.activities),
    conversations: references(a.conversations),
  };
}

/** The content slot of a format; without `content` (transferables=false) only its metadata. */
function payload(f: FormatRecord, content: ContentRecord | undefined) {
  if (content) return { fragment: content.fragment, file: content.file };
  if (!f.metadata) return {};
  return f.kind === 'fragment' ? { fragment: { metadata: f.metadata } } : { file: { metadata: f.metadata } };
}

function formatBase(f: FormatRecord) {
  return {
    id: f.id,
    creator: f.creator,
    classification: { ...f.classification },
    role: f.role,
    application: { ...f.application },
    bytes: { ...f.bytes },
    created: timestamp(f.created),
    updated: timestamp(f.updated),
  };
}

export function flattenedFormat(f: FormatRecord, content?: ContentRecord): FlattenedFormat {
  return { ...formatBase(f), asset: f.asset, ...payload(f, content) } as FlattenedFormat;
}

export function format(f: FormatRecord, asset: AssetWithLinks, content?: ContentRecord): Format {
  return { ...formatBase(f), asset: flattenedAsset(asset), ...payload(f, content) } as Format;
}

export function tag(t: WithAssets<TagRecord>): Tag {
  return {
    id: t.id,
    text: t.text,
    category: t.category,
    created: timestamp(t.created),
    updated: timestamp(t.updated),
    mechanisms: { ...t.mechanisms },
    assets: references(t.assets),
  };
}

export function website(w: WithAssets<WebsiteRecord>): Website {
  return {
    id: w.id,
    url: w.url,
    name: w.name,
    created: timestamp(w.created),
    updated: timestamp(w.updated),
    mechanisms: { ...w.mechanisms },
    assets: references(w.assets),
  };
}

export function summary(s: WithAssets<SummaryRecord>): WorkstreamSummary {
  return {
    id: s.id,
    name: s.name,
    created: timestamp(s.created),
    updated: timestamp(s.updated),
    model: s.model,
    mechanism: s.mechanism,
    assets: references(s.assets),
  };
}

export function person(p: WithAssets<PersonRecord>): Person {
  return {
    id: p.id,
    type: p.type,
    created: timestamp(p.created),
    updated: timestamp(p.updated),
    mechanisms: { ...p.mechanisms },
    assets: references(p.assets),
  };
}

export function annotation(a: AnnotationRecord): Annotation {
  return {
    id: a.id,
    type: a.type,
    text: a.text,
    created: timestamp(a.created),
    updated: timestamp(a.updated),
    mechanism: a.mechanism,
    asset: { id: a.asset },
  };
}

export function activity(r: ActivityRecord, asset?: AssetWithLinks): Activity {
  return {
    id: r.id,
    created: timestamp(r.created),
    updated: timestamp(r.updated),
    event: r.event,
    application: r.application,
    mechanism: r.mechanism,
    asset: asset ? flattenedAsset(asset) : undefined,
  };
}

/**
 * Everything an Asset is built from. `contents` is null when transferables are left out. The linked records
 * list the newest of their assets only, and the asset its newest conversations (links/link-records.ts
 * SHOWN_IN_ASSET), so an Asset is the same however it was read.
 */
export interface AssetParts {
  asset: AssetWithLinks;
  formats: FormatRecord[];
  contents: Map<string, ContentRecord> | null;
  tags: WithAssets<TagRecord>[];
  websites: WithAssets<WebsiteRecord>[];
  summaries: WithAssets<SummaryRecord>[];
  persons: WithAssets<PersonRecord>[];
  annotations: AnnotationRecord[];
  /** The asset's conversations (their messages as references). */
  conversations: WithAssets<ConversationRecord>[];
}

/** A full collection (Tags, Websites, …): the built records with their `indices`. */
export function collectionOf<T extends { id: string }, W>(records: readonly T[], build: (r: T) => W) {
  return {
    iterable: records.map(build),
    indices: Object.fromEntries(records.map((r, i) => [r.id, i])),
  };
}

export function asset(parts: AssetParts): Asset {
  const a = parts.asset;
  const byId = new Map(parts.formats.map((f) => [f.id, f]));
  const content = (id: string) => parts.contents?.get(id);
  const referenced = (id: string) => {
    const f = byId.get(id);
    return f ? { id, reference: flattenedFormat(f, content(id)) } : { id };
  };
  return {
    id: a.id,
    name: a.name,
    creator: a.creator,
    created: timestamp(a.created),
    updated: timestamp(a.updated),
    mechanism: a.mechanism,
    formats: { iterable: parts.formats.map((f) => format(f, a, content(f.id))) },
    preview: {
      base: referenced(a.preview.base),
      ...(a.preview.overlay ? { overlay: referenced(a.preview.overlay) } : {}),
    },
    original: referenced(a.original),
    score: { ...a.score },
    pseudo: a.pseudo,
    favorited: a.favorited,
    discovered: a.discovered,
    tags: collectionOf(parts.tags, tag),
    websites: collectionOf(parts.websites, website),
    persons: collectionOf(parts.persons, person),
    annotations: collectionOf(parts.annotations, annotation),
    summaries: collectionOf(parts.summaries, summary),
    conversations: collectionOf(parts.conversations, (c) => conversation(c)),
  } as Asset;
}

/** A FlattenedConversationMessage: the message's text as a fragment, the assets its answer drew on. */
export function conversationMessage(m: MessageRecord) {
  return {
    id: m.id,
    created: timestamp(m.created),
    updated: timestamp(m.updated),
    conversation: { id: m.conversation },
    role: m.role,
    fragment: { string: { raw: m.text } },
    assets: references(m.assets),
  };
}

/** A Conversation with its messages in order (each a reference carrying the message). */
export function conversation(c: WithAssets<ConversationRecord>, messages?: readonly MessageRecord[]): Conversation {
  return {
    id: c.id,
    name: c.name,
    created: timestamp(c.created),
    updated: timestamp(c.updated),
    type: 'COPILOT',
    // Without the message records (an asset's conversations), the messages are listed by id.
    messages: messages
      ? { iterable: messages.map((m) => ({ id: m.id, reference: conversationMessage(m) })), indices: Object.fromEntries(messages.map((m, i) => [m.id, i])) }
      : references(c.messages),
    assets: references(c.assets),
  };
}
