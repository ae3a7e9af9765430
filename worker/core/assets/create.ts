import type { ServiceContext } from '../deps.ts';
import { commit } from '../feed/commit.ts';
import { findOrCreateTag, findOrCreateWebsite } from '../links/labels.ts';
import type { Asset, Seed, SeededAnnotation, SeededPerson } from '../model/schemas.ts';
import * as build from '../model/build.ts';
import type { AnnotationRecord, AssetRecord, ContentRecord, FormatRecord } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';
import { recordActivity } from './activity.ts';
import { readableSize, type SeededContent } from './content.ts';
import { prepareSeed, type PreparedSeed } from './prepare.ts';
import type { ReadOptions } from './read.ts';

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
    log.created(stored.asset.id);
    // Built from the records just written, not read back: a new asset has nothing else.
    return build.asset({ ...stored, contents: options.transferables === false ? null : stored.contents });
  });
}

/**
 * Stores a prepared seed as a new asset with its format, content, links and first activity, in the
 * caller's transaction; answers what it stored. Its puts are issued together, not one after another:
 * each awaited put would wait for a round trip to the database.
 */
export async function storeAsset(ctx: ServiceContext, tx: WriteTx, prepared: PreparedSeed, person?: SeededPerson): Promise<build.AssetParts> {
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
    tags: [],
    websites: [],
    summaries: [],
    persons: [],
    annotations: [],
    activities: [],
    conversations: [],
    score: { manual: 0, automatic: 0 },
    pseudo: seeded.pseudo ?? false,
    ...(seeded.discovered != null ? { discovered: seeded.discovered } : {}),
  };
  const stored = contentRecord(formatId, content);
  const parts: build.AssetParts = {
    asset,
    formats: [format],
    contents: new Map([[formatId, stored]]),
    tags: [],
    websites: [],
    summaries: [],
    persons: [],
    annotations: [],
    conversations: [],
  };
  const writes = [tx.put('formats', format), tx.put('contents', stored)];

  const metadata = seeded.metadata;
  for (const seedTag of metadata?.tags ?? []) {
    const tag = await findOrCreateTag(ctx, tx, seedTag);
    if (!asset.tags.includes(tag.id)) {
      asset.tags.push(tag.id);
      const linked = { ...tag, assets: [...tag.assets, id], updated: now };
      parts.tags.push(linked);
      await tx.put('tags', linked);
    }
  }
  for (const seedWebsite of metadata?.websites ?? []) {
    const website = await findOrCreateWebsite(ctx, tx, seedWebsite);
    if (!asset.websites.includes(website.id)) {
      asset.websites.push(website.id);
      const linked = { ...website, assets: [...website.assets, id], updated: now };
      parts.websites.push(linked);
      await tx.put('websites', linked);
    }
  }
  for (const seedPerson of [...(metadata?.persons ?? []), ...(person ? [person] : [])]) {
    const record = {
      id: ctx.newId(),
      type: seedPerson.type,
      created: now,
      updated: now,
      mechanisms: seedPerson.mechanism ? { [id]: seedPerson.mechanism } : {},
      assets: [id],
    };
    parts.persons.push(record);
    writes.push(tx.put('persons', record));
    asset.persons.push(record.id);
  }
  for (const seedAnnotation of metadata?.annotations ?? []) {
    const annotation = annotationRecord(ctx, id, seedAnnotation);
    parts.annotations.push(annotation);
    writes.push(tx.put('annotations', annotation));
    asset.annotations.push(annotation.id);
  }
  writes.push(recordActivity(ctx, tx, asset, 'created', seeded.application));
  writes.push(tx.put('assets', asset));
  await Promise.all(writes);
  return parts;
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
