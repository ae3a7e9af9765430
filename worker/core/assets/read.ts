import type { ServiceContext } from '../deps.ts';
import { notFound } from '../errors.ts';
import { readSeq } from '../feed/commit.ts';
import * as build from '../model/build.ts';
import { readConversations } from '../qgpt/conversations.ts';
import type { Activities, Asset, Assets, Conversations, FlattenedAssets, Formats, PseudoAssets } from '../model/schemas.ts';
import type { AssetRecord, CollectionName, Collections, ContentRecord, LinkedKind, WithAssets } from '../store/records.ts';
import type { ReadTx } from '../store/store.ts';
import { inRecordedOrder } from '../store/recorded-order.ts';
import { LinkTable, SHOWN_IN_ASSET, withAssets, withLinks } from '../links/link-records.ts';
import { utf8Bytes } from '../utf8.ts';

export interface ReadOptions {
  /** Include fragment and file contents. Default true. */
  transferables?: boolean;
}

export async function requireAsset(tx: ReadTx, id: string): Promise<AssetRecord> {
  const record = await tx.get('assets', id);
  if (!record) throw notFound('asset', id);
  return record;
}

/**
 * Reads what one asset links to and builds the wire Asset: a bounded read, whatever the size of its tags
 * (each shows its newest assets only) or the number of its conversations (the newest).
 */
export async function assembleAsset(tx: ReadTx, record: AssetRecord, options: ReadOptions = {}): Promise<Asset> {
  // What the record names is read beside its links, then what the links name: two round trips to the
  // database for an asset with no links, three with some.
  const [asset, formats, contents, annotations] = await Promise.all([
    withLinks(tx, record, SHOWN_IN_ASSET),
    tx.getMany('formats', record.formats),
    options.transferables === false ? null : tx.getMany('contents', record.formats),
    tx.getMany('annotations', record.annotations),
  ]);
  const [tags, websites, summaries, persons, conversations] = await Promise.all([
    tx.getMany('tags', asset.tags).then((r) => withAssets(tx, 'tags', r, SHOWN_IN_ASSET)),
    tx.getMany('websites', asset.websites).then((r) => withAssets(tx, 'websites', r, SHOWN_IN_ASSET)),
    tx.getMany('summaries', asset.summaries).then((r) => withAssets(tx, 'summaries', r, SHOWN_IN_ASSET)),
    tx.getMany('persons', asset.persons).then((r) => withAssets(tx, 'persons', r, SHOWN_IN_ASSET)),
    tx.getMany('conversations', asset.conversations).then((r) => withAssets(tx, 'conversations', r, SHOWN_IN_ASSET)),
  ]);
  return build.asset({
    asset,
    formats,
    contents: contents && new Map(contents.map((c) => [c.id, c])),
    tags,
    websites,
    summaries,
    persons,
    annotations,
    conversations,
  });
}

/** The collections `assembleAsset` reads: a read transaction over only these is cheaper. */
export function assetScope(options: ReadOptions = {}): CollectionName[] {
  const scope: CollectionName[] = ['assets', 'links', 'formats', 'tags', 'websites', 'summaries', 'persons', 'annotations', 'conversations'];
  return options.transferables === false ? scope : [...scope, 'contents'];
}

/** The asset cache's key of an asset as `getAsset` answers it (searches keep and find results under it too). */
export const assetCacheKey = (id: string, transferables: boolean) => `asset ${transferables} ${id}`;

export function getAsset(ctx: ServiceContext, id: string, options: ReadOptions = {}): Promise<Asset> {
  return ctx.assetCache.get(assetCacheKey(id, options.transferables !== false), () =>
    ctx.store.read(async (tx) => assembleAsset(tx, await requireAsset(tx, id), options), assetScope(options)),
  );
}

/**
 * `getAsset` as its JSON body, kept in the asset cache beside the Asset until the next change: a repeated
 * read then neither serialises nor allocates the wire object again (the RPC path takes the Asset itself).
 */
export function getAssetBody(ctx: ServiceContext, id: string, options: ReadOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return jsonBody(ctx, `asset body ${options.transferables !== false} ${id}`, () => getAsset(ctx, id, options));
}

/** What `load` answers, as JSON bytes kept in the asset cache under `key` until the next change. */
export function jsonBody(ctx: ServiceContext, key: string, load: () => Promise<unknown>): Promise<Uint8Array<ArrayBuffer>> {
  return ctx.assetCache.get(key, async () => utf8Bytes(JSON.stringify(await load())), (body) => body.byteLength);
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
  return jsonBody(ctx, `list ${options.transferables !== false} ${options.pseudo === true}`, () => listAssets(ctx, options));
}

/** `listAssets` inside a transaction the caller holds (a stream snapshot reads its seq in the same one). */
export async function readAssets(tx: ReadTx, options: ReadOptions & { pseudo?: boolean } = {}): Promise<Assets> {
  const [assets, links, formats, contents, tags, websites, summaries, persons, annotations, conversations] = await Promise.all([
    tx.getAll('assets'),
    LinkTable.read(tx),
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
  /** A linked record with its newest assets, made once however many assets show it. */
  const linked = <K extends LinkedKind>(kind: K, map: Map<string, Collections[K]>) => {
    const made = new Map<string, WithAssets<Collections[K]>>();
    return (ids: string[]) =>
      ids.flatMap((id) => {
        const record = map.get(id);
        if (!record) return [];
        let built = made.get(id);
        if (!built) made.set(id, (built = links.withAssets(kind, record, SHOWN_IN_ASSET)));
        return [built];
      });
  };
  const linkedTags = linked('tags', tags);
  const linkedWebsites = linked('websites', websites);
  const linkedSummaries = linked('summaries', summaries);
  const linkedPersons = linked('persons', persons);
  const linkedConversations = linked('conversations', conversations);
  const iterable = assets
    .filter((a) => options.pseudo || !a.pseudo)
    .sort(newestFirst)
    .map((record) => {
      const a = links.withLinks(record, SHOWN_IN_ASSET);
      return build.asset({
        asset: a,
        formats: pick(formats, a.formats),
        contents: contents && new Map<string, ContentRecord>(pick(contents, a.formats).map((c) => [c.id, c])),
        tags: linkedTags(a.tags),
        websites: linkedWebsites(a.websites),
        summaries: linkedSummaries(a.summaries),
        persons: linkedPersons(a.persons),
        annotations: pick(annotations, a.annotations),
        conversations: linkedConversations(a.conversations),
      });
    });
  return { iterable, indices: Object.fromEntries(iterable.map((a, i) => [a.id, i])) };
}

const newestFirst = (a: AssetRecord, b: AssetRecord) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0);

export function listIdentifiers(ctx: ServiceContext, options: { pseudo?: boolean } = {}): Promise<FlattenedAssets> {
  return ctx.store.read(async (tx) => build.references(await readIdentifiers(ctx, tx, await readSeq(tx), options)));
}

/**
 * The ids `listIdentifiers` lists, newest first, inside a transaction the caller holds, whose change-log
 * seq is `seq`. Kept in the asset cache under that seq: a stream's snapshot or `/assets/identifiers` of an
 * unchanged library reads no asset record again (10,000 of them took about 0.6 s). Keyed by the seq, not
 * only emptied by the next change, so a transaction that sees a write this context has not heard of yet
 * reads the records.
 */
export async function readIdentifiers(ctx: ServiceContext, tx: ReadTx, seq: number, options: { pseudo?: boolean } = {}): Promise<string[]> {
  const all = await identifiersAt(ctx, tx, seq);
  return options.pseudo || all.pseudo.size === 0 ? all.ids : all.ids.filter((id) => !all.pseudo.has(id));
}

/** Every asset's id, newest first, and which are pseudo: read once a seq (`readIdentifiers`). */
function identifiersAt(ctx: ServiceContext, tx: ReadTx, seq: number): Promise<{ ids: string[]; pseudo: Set<string> }> {
  return ctx.assetCache.getAtSeq(
    'identifiers',
    seq,
    async () => {
      const assets = (await tx.getAll('assets')).sort(newestFirst);
      return { ids: assets.map((a) => a.id), pseudo: new Set(assets.flatMap((a) => (a.pseudo ? [a.id] : []))) };
    },
    ({ ids }) => ids.length * 80,
  );
}

/** `GET /assets/pseudo`: the pseudo assets' ids, newest first, from the ids `readIdentifiers` keeps. */
export async function pseudoSnapshot(ctx: ServiceContext): Promise<PseudoAssets> {
  const { ids, pseudo } = await ctx.store.read(async (tx) => identifiersAt(ctx, tx, await readSeq(tx)), ['assets', 'meta']);
  return { identifiers: build.references(ids.filter((id) => pseudo.has(id))) };
}

export async function getFormats(ctx: ServiceContext, id: string, options: ReadOptions = {}): Promise<Formats> {
  return { iterable: (await getAsset(ctx, id, options)).formats.iterable };
}

export async function getActivities(ctx: ServiceContext, id: string): Promise<Activities> {
  return ctx.store.read(async (tx) => {
    const asset = await withLinks(tx, await requireAsset(tx, id), SHOWN_IN_ASSET);
    const activities = inRecordedOrder(await tx.getAllFromIndex('activities', 'asset', id), asset.activities);
    return { iterable: activities.map((a) => build.activity(a, asset)) };
  }, ['assets', 'activities', 'links']);
}

/** The question-answering conversations that drew on the asset, each with its messages. */
export async function getConversations(ctx: ServiceContext, id: string): Promise<Conversations> {
  const conversations = await ctx.store.read(async (tx) => readConversations(tx, await requireAsset(tx, id)), ['assets', 'conversations', 'messages', 'links']);
  return build.collectionOf(conversations, (c) => c);
}
