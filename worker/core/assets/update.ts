import type { ServiceContext } from '../deps.ts';
import { invalid } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { AssetSchema, type Asset, type AssetReclassification, type ClassificationSpecificEnum, type Format } from '../model/schemas.ts';
import type { AssetRecord, FormatRecord } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';
import { recordActivity } from './activity.ts';
import { genericOf, readSeededContent, readableSize } from './content.ts';
import { STORE_ASSET_SCOPE, contentRecord, storeAnnotation } from './create.ts';
import { assembleAsset, requireAsset, type ReadOptions } from './read.ts';

/** An update names the asset by id; every other field is optional but checked when present. */
export const AssetUpdateSchema = lazySchema(() => AssetSchema.partial().required({ id: true }));

/** The fields of an Asset that `POST /asset/update` reads; everything else is kept as stored. */
export type AssetUpdate = Pick<Asset, 'id'> & Partial<Pick<Asset, 'name' | 'favorited' | 'formats' | 'annotations'>>;

/**
 * Applies an updated asset: its name, favourite flag, the content and classification of its
 * formats, and its annotations (the list sent is the new list). Unknown format ids are a 422.
 */
export async function updateAsset(ctx: ServiceContext, input: AssetUpdate, options: ReadOptions = {}): Promise<Asset> {
  return commit(ctx, async (tx, log) => {
    const asset = await requireAsset(tx, input.id);
    const now = ctx.now().toISOString();
    if (input.name != null && input.name !== asset.name) {
      asset.name = input.name;
      await recordActivity(ctx, tx, asset, 'renamed');
    }
    if (input.favorited != null) asset.favorited = input.favorited;
    for (const format of input.formats?.iterable ?? []) await updateFormat(tx, asset, format, now);
    if (input.annotations) await replaceAnnotations(ctx, tx, asset, input.annotations.iterable, now);
    asset.updated = now;
    await recordActivity(ctx, tx, asset, 'updated');
    await tx.put('assets', asset);
    log.updated(asset.id);
    return assembleAsset(tx, asset, options);
  }, STORE_ASSET_SCOPE);
}

async function updateFormat(tx: WriteTx, asset: AssetRecord, input: Format, now: string) {
  if (!asset.formats.includes(input.id)) throw invalid(`Format '${input.id}' does not belong to asset '${asset.id}'.`);
  const format = (await tx.get('formats', input.id))!;
  const slot = input.fragment ? { fragment: input.fragment } : input.file ? { file: input.file } : undefined;
  const hasPayload = slot && (Object.values(slot)[0]?.string?.raw != null || Object.values(slot)[0]?.bytes?.raw != null);
  if (hasPayload) {
    const content = readSeededContent(slot);
    await tx.put('contents', contentRecord(format.id, content));
    format.kind = content.kind;
    format.bytes = { value: content.size, readable: readableSize(content.size) };
  }
  const specific = input.classification?.specific;
  if (specific && specific !== format.classification.specific) setSpecific(format, specific);
  format.updated = now;
  await tx.put('formats', format);
}

function setSpecific(format: FormatRecord, specific: ClassificationSpecificEnum) {
  format.classification = { ...format.classification, specific, generic: genericOf(specific) };
}

async function replaceAnnotations(
  ctx: ServiceContext,
  tx: WriteTx,
  asset: AssetRecord,
  annotations: NonNullable<Asset['annotations']>['iterable'],
  now: string,
) {
  const keep = new Set<string>();
  const ids: string[] = [];
  for (const input of annotations) {
    const existing = asset.annotations.includes(input.id) ? await tx.get('annotations', input.id) : undefined;
    if (existing) {
      await tx.put('annotations', { ...existing, type: input.type, text: input.text, updated: now });
      keep.add(existing.id);
      ids.push(existing.id);
    } else {
      ids.push(await storeAnnotation(ctx, tx, asset.id, input));
    }
  }
  for (const id of asset.annotations) if (!keep.has(id)) await tx.delete('annotations', id);
  asset.annotations = ids;
}

/** Reclassifies the asset's code and text formats to another language; images keep theirs. */
export async function reclassifyAsset(ctx: ServiceContext, input: AssetReclassification, options: ReadOptions = {}): Promise<Asset> {
  return commit(ctx, async (tx, log) => {
    const asset = await requireAsset(tx, input.asset.id);
    const now = ctx.now().toISOString();
    for (const format of await tx.getMany('formats', asset.formats)) {
      if (format.classification.generic === 'IMAGE') continue;
      setSpecific(format, input.ext);
      format.updated = now;
      await tx.put('formats', format);
    }
    asset.updated = now;
    await recordActivity(ctx, tx, asset, 'reclassified');
    await tx.put('assets', asset);
    log.updated(asset.id);
    return assembleAsset(tx, asset, options);
  }, STORE_ASSET_SCOPE);
}
