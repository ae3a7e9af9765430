import { requireAsset } from '../assets/read.ts';
import type { ServiceContext } from '../deps.ts';
import { commit } from '../feed/commit.ts';
import * as build from '../model/build.ts';
import type {
  MechanismEnum,
  SeededTag,
  SeededWebsite,
  SeededWorkstreamSummary,
  Tag,
  Tags,
  Website,
  Websites,
  WorkstreamSummaries,
  WorkstreamSummary,
} from '../model/schemas.ts';
import { foldTag, type Collections, type TagRecord, type WebsiteRecord, type WithAssets } from '../store/records.ts';
import type { ReadTx, WriteTx } from '../store/store.ts';
import { LinkTable, withAssets } from './link-records.ts';
import { linkScope, setLink, type LinkKind } from './associate.ts';

/** Tags, websites and workstream summaries: created on their own or from seed metadata, and listed. */

/** Tags are labels: the same text (ignoring case) is the same tag. */
export async function findOrCreateTag(
  ctx: ServiceContext,
  tx: WriteTx,
  seed: { text: string; mechanism?: MechanismEnum | null; category?: TagCategoryInput },
): Promise<TagRecord> {
  const text = seed.text.trim();
  const [existing] = await tx.getAllFromIndex('tags', 'folded', foldTag(text), 1);
  if (existing) return existing;
  const now = ctx.now().toISOString();
  const tag: TagRecord = {
    id: ctx.newId(),
    text,
    folded: foldTag(text),
    category: seed.category ?? 'UNKNOWN',
    created: now,
    updated: now,
    mechanisms: {},
  };
  await tx.put('tags', tag);
  return tag;
}
type TagCategoryInput = TagRecord['category'] | null;

/**
 * The tags and websites the assets of one write link to (an import's seeds), found or created by text (or
 * URL) and marked updated by the write: each once, whichever seed asks first, so the seeds need not wait
 * for each other and a tag that many of them name is put once. One finder per write: it remembers what
 * it found for that write only.
 */
export function labelFinder(ctx: ServiceContext, tx: WriteTx) {
  const now = ctx.now().toISOString();
  const tags = new Map<string, Promise<TagRecord>>();
  const websites = new Map<string, Promise<WebsiteRecord>>();
  const touch = async <C extends 'tags' | 'websites'>(collection: C, found: Promise<Collections[C]>): Promise<Collections[C]> => {
    const record = { ...(await found), updated: now };
    await tx.put(collection, record);
    return record;
  };
  return {
    tag(seed: Parameters<typeof findOrCreateTag>[2]): Promise<TagRecord> {
      const key = tagKey(seed.text);
      if (!tags.has(key)) tags.set(key, touch('tags', findOrCreateTag(ctx, tx, seed)));
      return tags.get(key)!;
    },
    website(seed: Parameters<typeof findOrCreateWebsite>[2]): Promise<WebsiteRecord> {
      if (!websites.has(seed.url)) websites.set(seed.url, touch('websites', findOrCreateWebsite(ctx, tx, seed)));
      return websites.get(seed.url)!;
    },
  };
}
export type LabelFinder = ReturnType<typeof labelFinder>;

/** What findOrCreateTag finds a tag's text by: texts of the same key are the same tag. */
export const tagKey = (text: string) => foldTag(text.trim());

/** Websites are identified by their URL. */
export async function findOrCreateWebsite(
  ctx: ServiceContext,
  tx: WriteTx,
  seed: { url: string; name: string; mechanism?: MechanismEnum | null },
): Promise<WebsiteRecord> {
  const [existing] = await tx.getAllFromIndex('websites', 'url', seed.url, 1);
  if (existing) return existing;
  const now = ctx.now().toISOString();
  const website: WebsiteRecord = { id: ctx.newId(), url: seed.url, name: seed.name, created: now, updated: now, mechanisms: {} };
  await tx.put('websites', website);
  return website;
}

/** Links a new record to the asset a seed names, if it names one. */
async function linkSeededAsset(ctx: ServiceContext, tx: WriteTx, kind: LinkKind, id: string, assetId: string | null | undefined) {
  if (!assetId) return false;
  const asset = await requireAsset(tx, assetId);
  if (await setLink(ctx, tx, asset, kind, id, true)) {
    await tx.put('assets', asset);
    return true;
  }
  return false;
}

export function createTag(ctx: ServiceContext, seed: SeededTag): Promise<Tag> {
  return commit(ctx, async (tx, log) => {
    const tag = await findOrCreateTag(ctx, tx, seed);
    if (await linkSeededAsset(ctx, tx, 'tags', tag.id, seed.asset)) log.updated(seed.asset!);
    return build.tag(await withAllAssets(tx, 'tags', (await tx.get('tags', tag.id))!));
  }, linkScope('tags'));
}

export function createWebsite(ctx: ServiceContext, seed: SeededWebsite): Promise<Website> {
  return commit(ctx, async (tx, log) => {
    const website = await findOrCreateWebsite(ctx, tx, seed);
    if (await linkSeededAsset(ctx, tx, 'websites', website.id, seed.asset)) log.updated(seed.asset!);
    return build.website(await withAllAssets(tx, 'websites', (await tx.get('websites', website.id))!));
  }, linkScope('websites'));
}

export function createSummary(ctx: ServiceContext, seed: SeededWorkstreamSummary): Promise<WorkstreamSummary> {
  return commit(ctx, async (tx, log) => {
    const now = ctx.now().toISOString();
    const id = ctx.newId();
    await tx.put('summaries', {
      id,
      name: seed.name,
      created: now,
      updated: now,
      model: seed.model,
      mechanism: seed.mechanism ?? undefined,
    });
    for (const { id: assetId } of seed.assets?.iterable ?? []) {
      if (await linkSeededAsset(ctx, tx, 'summaries', id, assetId)) log.updated(assetId);
    }
    return build.summary(await withAllAssets(tx, 'summaries', (await tx.get('summaries', id))!));
  }, linkScope('summaries'));
}

async function withAllAssets<K extends 'tags' | 'websites' | 'summaries'>(tx: ReadTx, kind: K, record: Collections[K]): Promise<WithAssets<Collections[K]>> {
  return (await withAssets(tx, kind, [record]))[0]!;
}

/** Every record of a kind with all its assets (one read of the kind's links). */
function readAll<K extends 'tags' | 'websites' | 'summaries'>(ctx: ServiceContext, kind: K): Promise<WithAssets<Collections[K]>[]> {
  return ctx.store.read(async (tx) => {
    const [records, links] = await Promise.all([tx.getAll(kind), LinkTable.read(tx, kind)]);
    return records.map((r) => links.withAssets(kind, r as Collections[K]));
  }, [kind, 'links']);
}

export async function listTags(ctx: ServiceContext): Promise<Tags> {
  return build.collectionOf(await readAll(ctx, 'tags'), build.tag);
}

export async function listWebsites(ctx: ServiceContext): Promise<Websites> {
  return build.collectionOf(await readAll(ctx, 'websites'), build.website);
}

export async function listSummaries(ctx: ServiceContext): Promise<WorkstreamSummaries> {
  return build.collectionOf(await readAll(ctx, 'summaries'), build.summary);
}
