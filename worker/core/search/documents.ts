import { readSeededContent } from '../assets/content.ts';
import { readSeq } from '../feed/commit.ts';
import type { SeededFormat } from '../model/schemas.ts';
import type {
  AnnotationRecord,
  AssetRecord,
  Collections,
  ContentRecord,
  FormatRecord,
  PersonRecord,
  TagRecord,
  WebsiteRecord,
} from '../store/records.ts';
import type { ReadTx, Store } from '../store/store.ts';
import { LinkTable, linkedToEach } from '../links/link-records.ts';
import { FIELD_COUNT } from './lexical/fields.ts';
import type { MetaCodec } from './lexical/snapshot.ts';
import { terms } from './tokenize.ts';

/**
 * What the search index keeps about each asset besides its terms: enough to filter and to relate assets
 * without reading the store. Plain data (it goes into the snapshot). Match keys are lower-case.
 */
export interface DocMeta {
  name: string;
  /** Epoch milliseconds. */
  created: number;
  updated: number;
  /** The classification of every format (the original's first). */
  specifics: string[];
  generic: string;
  pseudo: boolean;
  tagIds: string[];
  /** Tag texts, lower-case. */
  tags: string[];
  websiteIds: string[];
  /** Website urls and names, lower-case. */
  websites: string[];
  personIds: string[];
  /** Person names, usernames and emails, lower-case. */
  persons: string[];
  /** How much the asset was used: the sum of its score counters. */
  usage: number;
}

/** DocMeta in a snapshot: JSON without the empty lists and default values most documents have. */
export const DOC_META_CODEC: MetaCodec<DocMeta> = {
  encode(meta) {
    return JSON.stringify(meta, (key, value) =>
      key !== '' && ((Array.isArray(value) && value.length === 0) || value === false || (key === 'usage' && value === 0)) ? undefined : value,
    );
  },
  decode(text) {
    const m = JSON.parse(text) as Partial<DocMeta>;
    return {
      name: m.name ?? '',
      created: m.created ?? 0,
      updated: m.updated ?? 0,
      specifics: m.specifics ?? [],
      generic: m.generic ?? 'UNKNOWN',
      pseudo: m.pseudo ?? false,
      tagIds: m.tagIds ?? [],
      tags: m.tags ?? [],
      websiteIds: m.websiteIds ?? [],
      websites: m.websites ?? [],
      personIds: m.personIds ?? [],
      persons: m.persons ?? [],
      usage: m.usage ?? 0,
    };
  },
};

/** The index's per-document flag for pseudo assets (hidden unless asked for): checked without reading metadata. */
export const PSEUDO = 1;

/** An asset as the index sees it: the text of each field and its metadata. */
export interface SearchDocument {
  id: string;
  name: string;
  /** The code of its text formats (comments and docstrings removed). */
  code: string;
  /** Comments, docstrings, and the whole text of prose formats. */
  prose: string;
  annotations: string;
  tags: string;
  websites: string;
  meta: DocMeta;
}

/** Everything an asset's document is made of, as stored. */
export interface DocumentParts {
  asset: AssetRecord;
  formats: FormatRecord[];
  contents: ContentRecord[];
  tags: TagRecord[];
  websites: WebsiteRecord[];
  persons: PersonRecord[];
  annotations: AnnotationRecord[];
}

export function searchDocument(parts: DocumentParts): SearchDocument {
  const { asset } = parts;
  const formats = orderFormats(asset, parts.formats);
  const byFormat = new Map(parts.contents.map((c) => [c.id, c]));
  const code: string[] = [];
  const prose: string[] = [];
  const seen = new Set<string>();
  for (const format of formats) {
    const text = contentText(byFormat.get(format.id));
    if (text === undefined || seen.has(text)) continue;
    seen.add(text);
    if (format.classification.generic === 'CODE') {
      const split = splitProse(text);
      code.push(split.code);
      prose.push(split.prose);
    } else {
      prose.push(text);
    }
  }
  const score = asset.score;
  return {
    id: asset.id,
    name: asset.name ?? '',
    code: code.join('\n'),
    prose: prose.join('\n'),
    annotations: parts.annotations.map((a) => a.text).join('\n'),
    tags: parts.tags.map((t) => t.text).join('\n'),
    websites: parts.websites.map((w) => `${w.name}\n${w.url}`).join('\n'),
    meta: {
      name: asset.name ?? '',
      created: Date.parse(asset.created),
      updated: Date.parse(asset.updated),
      specifics: formats.map((f) => f.classification.specific),
      generic: formats[0]?.classification.generic ?? 'UNKNOWN',
      pseudo: asset.pseudo,
      tagIds: parts.tags.map((t) => t.id),
      tags: parts.tags.map((t) => t.text.toLowerCase()),
      websiteIds: parts.websites.map((w) => w.id),
      websites: parts.websites.flatMap((w) => [w.url.toLowerCase(), w.name.toLowerCase()]),
      personIds: parts.persons.map((p) => p.id),
      persons: parts.persons.flatMap(personKeys),
      usage: (score.reuse ?? 0) + (score.update ?? 0) + (score.reference ?? 0) + (score.searched ?? 0) + (score.priority ?? 0),
    },
  };
}

/** The terms of each field, in FIELDS order. */
export function documentFields(doc: SearchDocument): string[][] {
  const fields = [terms(doc.name), terms(doc.code), terms(doc.prose), terms(doc.annotations), terms(doc.tags), terms(doc.websites)];
  if (fields.length !== FIELD_COUNT) throw new Error('search: field list out of step with FIELDS');
  return fields;
}

/** The original format first, then the others in their stored order. */
function orderFormats(asset: AssetRecord, formats: FormatRecord[]): FormatRecord[] {
  const original = formats.find((f) => f.id === asset.original);
  return original ? [original, ...formats.filter((f) => f !== original)] : formats;
}

/** The text of a stored payload: its string, or its bytes when they are UTF-8 text (not an image). */
export function contentText(content: ContentRecord | undefined): string | undefined {
  if (!content || (!content.fragment && !content.file)) return undefined;
  // Most content is stored as a string: read it as it is (readSeededContent also measures its UTF-8
  // size, a tenth of the time of building the index from the store).
  const raw = (content.fragment ?? content.file)?.string?.raw;
  if (typeof raw === 'string') return raw;
  try {
    return readSeededContent(content as SeededFormat).text;
  } catch {
    return undefined;
  }
}

function personKeys(person: PersonRecord): string[] {
  const basic = person.type.basic;
  const platform = person.type.platform as { name?: string; email?: string; username?: string } | undefined;
  return [basic?.name, basic?.username, basic?.email, platform?.name, platform?.email, platform?.username]
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .map((v) => v.toLowerCase());
}

/**
 * Comments and docstrings, across common syntaxes: block comments, Python docstrings, HTML comments, `//`
 * (not inside a URL), `#` (not a shebang, C preprocessor line or Python `#!`/`#{`), and `-- ` (SQL, Lua).
 * Natural-language queries match these better than code, so they form a field of their own.
 */
const COMMENT =
  /\/\*[\s\S]*?\*\/|"""[\s\S]*?"""|'''[\s\S]*?'''|<!--[\s\S]*?-->|(?<![:"'\w])\/\/[^\n]*|(?<=^|\s)#(?![!{[]|include\b|define\b|if|endif\b|pragma\b|import\b)[^\n]*|(?<=^|\s)--\s[^\n]*/gm;

export function splitProse(text: string): { code: string; prose: string } {
  const prose: string[] = [];
  const code = text.replace(COMMENT, (comment) => {
    prose.push(comment);
    return ' ';
  });
  return { code, prose: prose.join('\n') };
}

/** The collections a document is read from (the scope of a read transaction). */
export const DOCUMENT_SCOPE = ['assets', 'links', 'formats', 'contents', 'tags', 'websites', 'persons', 'annotations'] as const;

/** Reads the documents of some assets in the caller's transaction (missing assets are left out). */
export async function readDocuments(tx: ReadTx, ids: readonly string[]): Promise<SearchDocument[]> {
  const assets = await tx.getMany('assets', ids);
  return Promise.all(
    assets.map(async (asset) => {
      const [formats, contents, [tags, websites, persons], annotations] = await Promise.all([
        tx.getMany('formats', asset.formats),
        tx.getMany('contents', asset.formats),
        linkedToEach(tx, asset.id, ['tags', 'websites', 'persons']).then((ids) =>
          Promise.all([tx.getMany('tags', ids.tags), tx.getMany('websites', ids.websites), tx.getMany('persons', ids.persons)]),
        ),
        tx.getMany('annotations', asset.annotations),
      ]);
      return searchDocument({ asset, formats, contents, tags, websites, persons, annotations });
    }),
  );
}

/** Records a read of every document asks IndexedDB for at a time, per collection. */
const DOCUMENT_BATCH = 1000;
/**
 * A library of at most this many assets is read whole in one transaction: it holds writes back for about
 * a tenth of a second at most (three records an asset, about 10 µs each in Chromium), where reading it in
 * batches made each batch wait behind the writes under way. The first search after importing 10,000
 * assets into an empty library waited about a second for such a read, which had begun after the import's
 * first request and then read every asset the import added meanwhile.
 */
export const WHOLE_LIBRARY_ASSETS = 5000;

export interface EveryDocumentOptions {
  /** Records asked for at a time, per collection. */
  batch?: number;
  /** A library of at most this many assets is read in one transaction. */
  wholeUpTo?: number;
}

/** What `readEveryDocument` read: how many documents, and the change log's seq when it began. */
export interface EveryDocumentRead {
  count: number;
  seq: number;
}

/**
 * Reads every asset's search document, handing each to `onDocument`, and the change log's seq (read
 * before any document). A small library (`wholeUpTo` assets) is read in that first transaction, so its
 * documents are all at that seq.
 *
 * A bigger one is read in id-ordered batches of assets, formats and contents side by side (the next batch
 * asked for before this one is handled), each document handed over as soon as its asset, formats and
 * contents have all been read, so the caller's work on the documents read so far overlaps the store's
 * reading of the rest: when the index is rebuilt from the store, the reading and the indexing each took
 * about half of it. Each batch is read in a transaction of its own, on its one collection: IndexedDB holds
 * a write back until every earlier transaction on its collections has ended, so in one transaction for the
 * whole read, a create sent during a rebuild at 100,000 assets waited for all of it (8 s). Those documents
 * are then not one snapshot of the store: the caller applies every change after the seq (the search
 * index's catch-up), which mends a document a write changed while it was read.
 *
 * A document whose parts never all arrive (a format without content, a record another asset names, one
 * a write removed meanwhile) is handed over at the end with the parts that exist, as a read of that
 * asset alone would make it.
 */
export async function readEveryDocument(store: Store, onDocument: (doc: SearchDocument) => void, options: EveryDocumentOptions = {}): Promise<EveryDocumentRead> {
  const { batch = DOCUMENT_BATCH, wholeUpTo = WHOLE_LIBRARY_ASSETS } = options;
  const first = await store.read(async (tx) => {
    const [seq, sides, assets] = await Promise.all([
      readSeq(tx),
      readSides(tx),
      tx.count('assets').then((n) => (n <= wholeUpTo ? Promise.all([tx.getAll('assets'), tx.getAll('formats'), tx.getAll('contents')]) : undefined)),
    ]);
    return { seq, sides, whole: assets };
  }, [...DOCUMENT_SCOPE, 'meta']);
  const { links, tags, websites, persons, annotations } = first.sides;
  const formats = new Map<string, FormatRecord>();
  const contents = new Map<string, ContentRecord>();
  /** Assets read whose formats or contents are not all read yet, with how many are missing. */
  const waiting = new Map<string, { asset: AssetRecord; missing: number }>();
  let count = 0;
  const pick = <T>(map: Map<string, T>, ids: readonly string[]) => ids.flatMap((id) => map.get(id) ?? []);
  const hand = (asset: AssetRecord) => {
    count++;
    onDocument(
      searchDocument({
        asset,
        formats: pick(formats, asset.formats),
        contents: pick(contents, asset.formats),
        tags: pick(tags, links.linkedTo(asset.id, 'tags')),
        websites: pick(websites, links.linkedTo(asset.id, 'websites')),
        persons: pick(persons, links.linkedTo(asset.id, 'persons')),
        annotations: pick(annotations, asset.annotations),
      }),
    );
  };
  if (first.whole) {
    const [assets, formatList, contentList] = first.whole;
    for (const format of formatList) formats.set(format.id, format);
    for (const content of contentList) contents.set(content.id, content);
    assets.forEach(hand);
    return { count, seq: first.seq };
  }
  const complete = (format: string) => formats.has(format) && contents.has(format);
  // A format and its content share the id; whichever is read second completes it for its asset.
  const completed = (format: string) => {
    const owner = waiting.get(formats.get(format)!.asset);
    if (!owner || !owner.asset.formats.includes(format) || --owner.missing > 0) return;
    waiting.delete(owner.asset.id);
    hand(owner.asset);
  };
  await Promise.all([
    eachBatch(store, 'assets', batch, (assets) => {
      for (const asset of assets) {
        const missing = asset.formats.filter((format) => !complete(format)).length;
        if (missing === 0) hand(asset);
        else waiting.set(asset.id, { asset, missing });
      }
    }),
    eachBatch(store, 'formats', batch, (records) => {
      for (const format of records) {
        formats.set(format.id, format);
        if (contents.has(format.id)) completed(format.id);
      }
    }),
    eachBatch(store, 'contents', batch, (records) => {
      for (const content of records) {
        contents.set(content.id, content);
        if (formats.has(content.id)) completed(content.id);
      }
    }),
  ]);
  for (const { asset } of waiting.values()) hand(asset);
  return { count, seq: first.seq };
}

/** What a document takes from outside its asset, formats and contents. */
async function readSides(tx: ReadTx) {
  const [links, tags, websites, persons, annotations] = await Promise.all([
    LinkTable.read(tx),
    byId(tx, 'tags'),
    byId(tx, 'websites'),
    byId(tx, 'persons'),
    byId(tx, 'annotations'),
  ]);
  return { links, tags, websites, persons, annotations };
}

/**
 * Reads a whole collection in id-ordered batches, each in a transaction of its own, asking for the next
 * batch before handing over this one.
 */
async function eachBatch<C extends 'assets' | 'formats' | 'contents'>(store: Store, c: C, size: number, onBatch: (batch: Collections[C][]) => void): Promise<void> {
  const range = (after: string | undefined) => store.read((tx) => tx.getRange(c, after, size), [c]);
  let next = range(undefined);
  for (;;) {
    const batch = await next;
    const more = batch.length === size;
    if (more) next = range(batch[batch.length - 1]!.id);
    onBatch(batch);
    if (!more) return;
  }
}

async function byId<C extends 'formats' | 'contents' | 'tags' | 'websites' | 'persons' | 'annotations'>(tx: ReadTx, c: C) {
  const records = await tx.getAll(c);
  return new Map(records.map((r) => [r.id, r])) as Map<string, (typeof records)[number]>;
}
