import type { ServiceContext } from '../deps.ts';
import { notFound } from '../errors.ts';
import { readLinked } from './linked.ts';
import * as build from '../model/build.ts';
import { readConversations } from '../qgpt/conversations.ts';
import type { Activities, Asset, Assets, Conversations, FlattenedAssets, Formats, PseudoAssets } from '../model/schemas.ts';
import type { AssetRecord, CollectionName, Collections, ContentRecord } from '../store/records.ts';
import type { ReadTx } from '../store/store.ts';
import { inRecordedOrder } from '../store/recorded-order.ts';

export interface ReadOptions {
  /** Include fragment and file contents. Default true. */
  transferables?: boolean;
}

export async function requireAsset(tx: ReadTx, id: string): Promise<AssetRecord> {
  const record = await tx.get('assets', id);
  if (!record) throw notFound('asset', id);
  return record;
}

/** Reads what one asset links to and builds the wire Asset. */
export async function assembleAsset(tx: ReadTx, record: AssetRecord, options: ReadOptions = {}): Promise<Asset> {
  const [linked, contents] = await Promise.all([
    readLinked(tx, record, ['formats', 'tags', 'websites', 'summaries', 'persons', 'annotations', 'conversations']),
    options.transferables === false ? null : tx.getMany('contents', record.formats),
  ]);
  return build.asset({ asset: record, ...linked, contents: contents && new Map(contents.map((c) => [c.id, c])) });
}

/** The collections `assembleAsset` reads: a read transaction over only these is cheaper. */
export function assetScope(options: ReadOptions = {}): CollectionName[] {
  const scope: CollectionName[] = ['assets', 'formats', 'tags', 'websites', 'summaries', 'persons', 'annotations', 'conversations'];
  return options.transferables === false ? scope : [...scope, 'contents'];
}

const utf8 = new TextEncoder();

export function getAsset(ctx: ServiceContext, id: string, options: ReadOptions = {}): Promise<Asset> {
  return ctx.assetCache.get(`asset ${options.transferables !== false} ${id}`, () =>
    ctx.store.read(async (tx) => assembleAsset(tx, await requireAsset(tx, id), options), assetScope(options)),
  );
}

/**
 * `getAsset` as its JSON body, kept in the asset cache beside the Asset until the next change: a repeated
 * read then neither serialises nor allocates the wire object again (the RPC path takes the Asset itself).
 */
export function getAssetBody(ctx: ServiceContext, id: string, options: ReadOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const key = `asset body ${options.transferables !== false} ${id}`;
  return ctx.assetCache.get(key, async () => utf8.encode(JSON.stringify(await getAsset(ctx, id, options))), (body) => body.byteLength);
}

async function allById<C extends CollectionName>(tx: ReadTx, c: C): Promise<Map<string, Collections[C]>> {
  return new Map((await tx.getAll(c)).map((r) => [r.id, r]));
}

/** Every asset, built from one bulk read of each collection rather than one read per link. */
export function listAssets(ctx: ServiceContext, options: ReadOptions & { pseudo?: boolean } = {}): Promise<Assets> {
  return ctx.store.read((tx) => readAssets(tx, options));
}

/**
 * `listAssets` as its JSON body, kept in the asset cache until the next change: serialising a thousand
 * assets (and encoding the text for the Response) cost about as much as reading them from IndexedDB.
 */
export function listAssetsBody(ctx: ServiceContext, options: ReadOptions & { pseudo?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const key = `list ${options.transferables !== false} ${options.pseudo === true}`;
  return ctx.assetCache.get(key, async () => utf8.encode(JSON.stringify(await listAssets(ctx, options))), (body) => body.byteLength);
}

/** `listAssets` inside a transaction the caller holds (a stream snapshot reads its seq in the same one). */
export async function readAssets(tx: ReadTx, options: ReadOptions & { pseudo?: boolean } = {}): Promise<Assets> {
  const [assets, formats, contents, tags, websites, summaries, persons, annotations, conversations] = await Promise.all([
    tx.getAll('assets'),
    allById(tx, 'formats'),
    options.transferables === false ? null : allById(tx, 'contents'),
    allById(tx, 'tags'),
    allById(tx, 'websites'),
    allById(tx, 'summaries'),
    allById(tx, 'persons'),
    allById(tx, 'annotations'),
    allById(tx, 'conversations'),
  ]);
  const pick = <T>(map: Map<string, T>, ids: string[]) => ids.flatMap((id) => map.get(id) ?? []);
  const iterable = assets
    .filter((a) => options.pseudo || !a.pseudo)
    .sort(newestFirst)
    .map((a) =>
      build.asset({
        asset: a,
        formats: pick(formats, a.formats),
        contents: contents && new Map<string, ContentRecord>(pick(contents, a.formats).map((c) => [c.id, c])),
        tags: pick(tags, a.tags),
        websites: pick(websites, a.websites),
        summaries: pick(summaries, a.summaries),
        persons: pick(persons, a.persons),
        annotations: pick(annotations, a.annotations),
        conversations: pick(conversations, a.conversations),
      }),
    );
  return { iterable, indices: Object.fromEntries(iterable.map((a, i) => [a.id, i])) };
}

const newestFirst = (a: AssetRecord, b: AssetRecord) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0);

export function listIdentifiers(ctx: ServiceContext, options: { pseudo?: boolean } = {}): Promise<FlattenedAssets> {
  return ctx.store.read(async (tx) => build.references(await readIdentifiers(tx, options)));
}

/** The ids `listIdentifiers` lists, newest first, inside a transaction the caller holds. */
export async function readIdentifiers(tx: ReadTx, options: { pseudo?: boolean } = {}): Promise<string[]> {
  const assets = await tx.getAll('assets');
  return assets.filter((a) => options.pseudo || !a.pseudo).sort(newestFirst).map((a) => a.id);
}

export async function pseudoSnapshot(ctx: ServiceContext): Promise<PseudoAssets> {
  const assets = await ctx.store.read((tx) => tx.getAll('assets'));
  return { identifiers: build.references(assets.filter((a) => a.pseudo).sort(newestFirst).map((a) => a.id)) };
}

export async function getFormats(ctx: ServiceContext, id: string, options: ReadOptions = {}): Promise<Formats> {
  return { iterable: (await getAsset(ctx, id, options)).formats.iterable };
}

export async function getActivities(ctx: ServiceContext, id: string): Promise<Activities> {
  return ctx.store.read(async (tx) => {
    const asset = await requireAsset(tx, id);
    const activities = inRecordedOrder(await tx.getAllFromIndex('activities', 'asset', id), asset.activities);
    return { iterable: activities.map((a) => build.activity(a, asset)) };
  }, ['assets', 'activities']);
}

/** The question-answering conversations that drew on the asset, each with its messages. */
export async function getConversations(ctx: ServiceContext, id: string): Promise<Conversations> {
  const conversations = await ctx.store.read(async (tx) => readConversations(tx, await requireAsset(tx, id)), ['assets', 'conversations', 'messages']);
  return build.collectionOf(conversations, (c) => c);
}
