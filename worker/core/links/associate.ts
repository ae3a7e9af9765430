import { recordActivity, type AssetEvent } from '../assets/activity.ts';
import { requireAsset } from '../assets/read.ts';
import type { ServiceContext } from '../deps.ts';
import { commit } from '../feed/commit.ts';
import { notFound } from '../errors.ts';
import type { AssetRecord, CollectionName } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';
import { addLink, linkedTo, removeLink } from './link-records.ts';

/** The things an asset links to by id (a `links` record each, links/link-records.ts). */
export const LINKS = {
  tags: { noun: 'tag', added: 'tagAdded', removed: 'tagDeleted' },
  websites: { noun: 'website', added: 'linkAdded', removed: 'linkDeleted' },
  summaries: { noun: 'workstream summary', added: 'updated', removed: 'updated' },
  persons: { noun: 'person', added: 'updated', removed: 'updated' },
} as const satisfies Record<string, { noun: string; added: AssetEvent; removed: AssetEvent }>;

export type LinkKind = keyof typeof LINKS;
export const LINK_KINDS = Object.keys(LINKS) as LinkKind[];

/** What unlinking an asset everywhere touches (unlinkAll, unlinkConversations): the records it links to, its conversations and their messages. */
export const UNLINK_SCOPE = [...LINK_KINDS, 'conversations', 'messages', 'links'] as const satisfies readonly CollectionName[];

/** The kinds that can be (dis)associated by id, by their path segment in `/asset/{asset}/{kind}/associate/{id}`. */
export const LINK_PATHS = { tags: 'tags', websites: 'websites', workstream_summaries: 'summaries' } as const satisfies Record<string, LinkKind>;
export type LinkPath = keyof typeof LINK_PATHS;

/**
 * The link kind a path segment names, or undefined. An own property only: `toString`, `constructor` or
 * `__proto__` must not find Object.prototype's members (they did, and the request failed with a 500).
 */
export function linkKindOf(segment: unknown): LinkKind | undefined {
  return typeof segment === 'string' && Object.hasOwn(LINK_PATHS, segment) ? LINK_PATHS[segment as LinkPath] : undefined;
}

/**
 * Links or unlinks inside the caller's transaction: one link record, the other side's `updated`, an
 * activity; a constant number of small records however many links either side has. Returns whether
 * anything changed; the caller puts the asset record (the other side is put here).
 */
export async function setLink(
  ctx: ServiceContext,
  tx: WriteTx,
  asset: AssetRecord,
  kind: LinkKind,
  otherId: string,
  linked: boolean,
): Promise<boolean> {
  const other = await tx.get(kind, otherId);
  if (!other) throw notFound(LINKS[kind].noun, otherId);
  if (!(linked ? await addLink(tx, kind, otherId, asset.id) : await removeLink(tx, kind, otherId, asset.id))) return false;
  other.updated = ctx.now().toISOString();
  await tx.put(kind, other as never);
  await recordActivity(ctx, tx, asset, linked ? LINKS[kind].added : LINKS[kind].removed);
  return true;
}

/** The associate / disassociate operations: one transaction, one change event when it changed. */
export function changeLink(ctx: ServiceContext, kind: LinkKind, assetId: string, otherId: string, linked: boolean): Promise<void> {
  return commit(ctx, async (tx, log) => {
    const asset = await requireAsset(tx, assetId);
    if (await setLink(ctx, tx, asset, kind, otherId, linked)) {
      await tx.put('assets', asset);
      log.updated(asset.id);
    }
  }, linkScope(kind));
}

/** What `setLink` reads and writes for links of one kind (the asset record, the other side, the link, an activity). */
export function linkScope(kind: LinkKind): CollectionName[] {
  return ['assets', kind, 'links', 'activities'];
}

/** Unlinks an asset from every tag, website, summary and person (before the asset itself is deleted); each is updated. */
export async function unlinkAll(ctx: ServiceContext, tx: WriteTx, asset: AssetRecord): Promise<void> {
  const now = ctx.now().toISOString();
  for (const kind of LINK_KINDS) {
    const ids = await linkedTo(tx, asset.id, kind);
    for (const other of await tx.getMany(kind, ids)) {
      other.updated = now;
      await tx.put(kind, other as never);
    }
    for (const id of ids) await removeLink(tx, kind, id, asset.id);
  }
}
