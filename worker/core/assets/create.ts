import type { ServiceContext } from '../deps.ts';
import { commit } from '../feed/commit.ts';
import { labelFinder, tagKey, type LabelFinder } from '../links/labels.ts';
import { putLink, takePositions } from '../links/link-records.ts';
import type { Asset, Seed, SeededAnnotation, SeededPerson } from '../model/schemas.ts';
import * as build from '../model/build.ts';
import type { AnnotationRecord, AssetRecord, CollectionName, ContentRecord, FormatRecord, PersonRecord } from '../store/records.ts';
import type { DocumentParts } from '../search/documents.ts';
import type { WriteTx } from '../store/store.ts';
import { recordActivity } from './activity.ts';
import { readableSize, type SeededContent } from './content.ts';
import { prepareSeed, type PreparedSeed } from './prepare.ts';
import { assembleAsset, assetScope, type ReadOptions } from './read.ts';

/** What storing a new asset (and answering it) reads and writes: the Asset's collections and its activities. */
export const STORE_ASSET_SCOPE: readonly CollectionName[] = [...assetScope(), 'activities'];

/** The stored form of a payload: text as `string.raw`, bytes as `bytes.raw`, with its metadata. */
export function contentRecord(formatId: string, content: SeededContent): ContentRecord {
  const value = {
    ...(content.bytes ? { bytes: { raw: content.bytes } } : { string: { raw: content.text! } }),
    ...(content.metadata ? { metadata: content.metadata } : {}),
  };
  return content.kind === 'fragment' ? { id: formatId, fragment: value } : { id: formatId, file: value };
}

export async function createAsset(ctx: ServiceContext, seed: Seed | undefined, options: ReadOptions = {}): Promise<Asset> {
  const prepared = await prepareSeed(ctx, seed);
  return commit(ctx, async (tx, log) => {
    const stored = await storeAsset(ctx, tx, prepared, seed?.person ?? undefined);
    log.created(stored.asset.id, stored);
    // An asset with no links is answered from what was just written; one with links is read back (its
    // tags list their other assets too).
    const linked = stored.tags.length + stored.websites.length + stored.persons.length > 0;
    return linked ? assembleAsset(tx, stored.asset, options) : build.asset(unlinkedParts(stored, options));
  }, STORE_ASSET_SCOPE);
}

function unlinkedParts(stored: DocumentParts, options: ReadOptions): build.AssetParts {
  const none = { tags: [], websites: [], summaries: [], persons: [], conversations: [] };
  return {
    asset: { ...stored.asset, ...none },
    formats: stored.formats,
    contents: options.transferables === false ? null : new Map(stored.contents.map((c) => [c.id, c])),
    annotations: stored.annotations,
    ...none,
  };
}

/**
 * Stores a prepared seed as a new asset with its format, content, links and first activity, in the
 * caller's transaction; answers what it wrote (all its search document and vectors are made of, for
 * ChangeLog.created). The puts that depend on no read are issued together, not one after another: each
 * awaited put would wait for a round trip to the database. Assets stored side by side in one write (an
 * import) share one `labels` finder, so a tag they all name is found or created once.
 */
export async function storeAsset(
  ctx: ServiceContext,
  tx: WriteTx,
  prepared: PreparedSeed,
  person?: SeededPerson,
  labels: LabelFinder = labelFinder(ctx, tx),
): Promise<DocumentParts> {
  const { seeded, content, classification } = prepared;
  const now = ctx.now().toISOString();
  const id = ctx.newId();
  const formatId = ctx.newId();
  const creator = seeded.application.id;
  const format: FormatRecord = {
    id: formatId,
    asset: id,
    creator,
    created: now,
    updated: now,
    classification,
    role: 'BOTH',
    application: seeded.application,
    bytes: { value: content.size, readable: readableSize(content.size) },
    kind: content.kind,
    ...(content.metadata ? { metadata: content.metadata } : {}),
  };
  const asset: AssetRecord = {
    id,
    name: prepared.name,
    creator,
    created: now,
    updated: now,
    mechanism: seeded.metadata?.mechanism ?? 'MANUAL',
    original: formatId,
    preview: { base: formatId },
    formats: [formatId],
    annotations: [],
    activities: [],
    score: { manual: 0, automatic: 0 },
    pseudo: seeded.pseudo ?? false,
    ...(seeded.discovered != null ? { discovered: seeded.discovered } : {}),
  };
  const stored = contentRecord(formatId, content);
  const annotations: AnnotationRecord[] = [];
  const writes = [tx.put('formats', format), tx.put('contents', stored)];

  const metadata = seeded.metadata;
  // A tag or website named twice (the same text in another case) is linked once.
  const tagSeeds = distinctBy(metadata?.tags ?? [], (tag) => tagKey(tag.text));
  const websiteSeeds = distinctBy(metadata?.websites ?? [], (website) => website.url);
  const personSeeds = [...(metadata?.persons ?? []), ...(person ? [person] : [])];
  // The asset's link positions, taken before any other wait: seeds stored side by side take theirs in the
  // order they were started, so a tag lists an import's assets in the order of its seeds. Tags link
  // first, then websites, then persons (the order a read of its links gives).
  const linkCount = tagSeeds.length + websiteSeeds.length + personSeeds.length;
  const first = linkCount > 0 ? await takePositions(tx, linkCount) : 0;
  const tags = tagSeeds.map(async (seedTag, i) => {
    const record = await labels.tag(seedTag);
    await putLink(tx, 'tags', record.id, id, first + i);
    return record;
  });
  const websites = websiteSeeds.map(async (seedWebsite, i) => {
    const record = await labels.website(seedWebsite);
    await putLink(tx, 'websites', record.id, id, first + tagSeeds.length + i);
    return record;
  });
  const persons = personSeeds.map(async (seedPerson, i) => {
    const record: PersonRecord = {
      id: ctx.newId(),
      type: seedPerson.type,
      created: now,
      updated: now,
      mechanisms: seedPerson.mechanism ? { [id]: seedPerson.mechanism } : {},
    };
    const position = first + tagSeeds.length + websiteSeeds.length + i;
    await Promise.all([putLink(tx, 'persons', record.id, id, position), tx.put('persons', record)]);
    return record;
  });
  for (const seedAnnotation of metadata?.annotations ?? []) {
    const annotation = annotationRecord(ctx, id, seedAnnotation);
    annotations.push(annotation);
    writes.push(tx.put('annotations', annotation));
    asset.annotations.push(annotation.id);
  }
  writes.push(recordActivity(ctx, tx, asset, 'created', seeded.application));
  writes.push(tx.put('assets', asset));
  // All awaited together: one that fails leaves no other's failure unheard (an unhandled rejection in Node).
  const [linkedTags, linkedWebsites, linkedPersons] = await Promise.all([
    Promise.all(tags),
    Promise.all(websites),
    Promise.all(persons),
    Promise.all(writes),
  ]);
  return { asset, formats: [format], contents: [stored], annotations, tags: linkedTags, websites: linkedWebsites, persons: linkedPersons };
}

/** The items of `items` whose key no item before them had. */
function distinctBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    return !seen.has(k) && (seen.add(k), true);
  });
}

function annotationRecord(ctx: ServiceContext, assetId: string, seed: Pick<SeededAnnotation, 'type' | 'text' | 'mechanism'>): AnnotationRecord {
  const now = ctx.now().toISOString();
  return { id: ctx.newId(), asset: assetId, type: seed.type, text: seed.text, created: now, updated: now, mechanism: seed.mechanism ?? 'MANUAL' };
}

/** Stores a new annotation of the asset in the caller's transaction; answers its id. */
export async function storeAnnotation(
  ctx: ServiceContext,
  tx: WriteTx,
  assetId: string,
  seed: Pick<SeededAnnotation, 'type' | 'text' | 'mechanism'>,
): Promise<string> {
  const annotation = annotationRecord(ctx, assetId, seed);
  await tx.put('annotations', annotation);
  return annotation.id;
}
