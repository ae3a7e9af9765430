/**
 * The links between assets and their tags, websites, workstream summaries, persons and conversations: one
 * `links` record per linked pair (records.ts LinkRecord), so linking writes one small record however many
 * links either side has, and a read takes only the links it shows.
 *
 * Each side reads its links through an index whose key is a prefix naming the side, then a rank:
 *
 *   `asset` index (an asset's tags, …):    JSON.stringify([asset, kind]) + rank
 *   `other` index (a tag's assets, …):     JSON.stringify([kind, other]) + rank
 *
 * The JSON of an array of strings is never a prefix of another's (a string ends at its one unescaped quote)
 * and a rank is RANK_DIGITS decimal digits, all below ':', so `[prefix, prefix + ':')` holds one side
 * exactly. A rank is MAX_POSITION minus the link's position on that side, and positions come from one
 * counter in `meta` (POSITION_ID): a newer link ranks first, so an index read gives the newest first and a
 * bounded one (`limit`) the newest that many. Lists are answered oldest first, the order the id arrays on
 * both records had before version 7 of the IndexedDB schema; a migration or a restore gives each side the
 * positions of its old array, so the order carries over.
 */
import type { AssetRecord, AssetWithLinks, LinkRecord, LinkedKind, WithAssets } from '../store/records.ts';
import { LINKED_KINDS } from '../store/records.ts';
import type { KeyRange, ReadTx, WriteTx } from '../store/store.ts';

/** The `meta` record holding the next link position. */
export const POSITION_ID = 'links.position';
const RANK_DIGITS = 15;
const MAX_POSITION = 10 ** RANK_DIGITS - 1;

/**
 * How many of its assets a tag, website, summary, person or conversation shows inside a wire Asset (the
 * newest linked): reading an asset then reads a bounded number of links, whatever the tag's size. Read on
 * its own (`GET /tags`, a conversation), each lists all of them.
 */
export const NESTED_ASSETS_SHOWN = 100;
/**
 * How many conversations a wire Asset lists (the newest linked): they accrue with use, every conversation
 * that drew on the asset. `GET /asset/{id}/conversations` lists all of them.
 */
export const ASSET_CONVERSATIONS_SHOWN = 100;

export const linkId = (kind: LinkedKind, other: string, asset: string) => JSON.stringify([kind, other, asset]);
const assetSide = (asset: string, kind: LinkedKind) => JSON.stringify([asset, kind]);
const otherSide = (kind: LinkedKind, other: string) => JSON.stringify([kind, other]);
const rank = (position: number) => String(MAX_POSITION - position).padStart(RANK_DIGITS, '0');
const side = (prefix: string): KeyRange => ({ lower: prefix, upper: `${prefix}:`, upperOpen: true });

/** The record linking `asset` with `other`, at a position on each side (a later position lists later). */
export function linkRecord(kind: LinkedKind, other: string, asset: string, positions: { asset: number; other: number }): LinkRecord {
  return {
    id: linkId(kind, other, asset),
    kind,
    asset,
    other,
    assetKey: assetSide(asset, kind) + rank(positions.asset),
    otherKey: otherSide(kind, other) + rank(positions.other),
  };
}

/**
 * Per write transaction: its next position (the counter is read once, however many links the write makes),
 * and the put of it that is queued, if one is.
 */
const counters = new WeakMap<WriteTx, Promise<{ next: number; put?: Promise<void> }>>();

/**
 * Takes `count` positions, later than every link's so far, in the caller's transaction; answers the first.
 * Concurrent calls in one transaction (an import stores assets side by side) each get their own.
 */
export async function takePositions(tx: WriteTx, count = 1): Promise<number> {
  let counter = counters.get(tx);
  if (!counter) counters.set(tx, (counter = tx.get('meta', POSITION_ID).then((r) => ({ next: Number(r?.value ?? 0) }))));
  const state = await counter;
  const first = state.next;
  state.next += count;
  // One put holds the highest position taken: the takes of one moment (an import's seeds take theirs side
  // by side, a slice at a time) share it, issued a microtask later, still in the transaction; each take
  // waits for it, so they go on in the order they were taken. A put a take had cost an import of 10,000
  // with 30% tagged 3,000 puts of this one record.
  state.put ??= Promise.resolve().then(() => {
    state.put = undefined;
    return tx.put('meta', { id: POSITION_ID, value: state.next });
  });
  await state.put;
  return first;
}

/** Whether `asset` is linked with `other`. */
export async function isLinked(tx: ReadTx, kind: LinkedKind, other: string, asset: string): Promise<boolean> {
  return (await tx.get('links', linkId(kind, other, asset))) !== undefined;
}

/** Links `asset` with `other` (the newest link on both sides); false when they were linked already. */
export async function addLink(tx: WriteTx, kind: LinkedKind, other: string, asset: string): Promise<boolean> {
  if (await isLinked(tx, kind, other, asset)) return false;
  await putLink(tx, kind, other, asset, await takePositions(tx));
  return true;
}

/**
 * Writes the link of `asset` with `other` at `position` (taken with takePositions) on both sides,
 * unchecked: for a new asset, which has no links yet; the caller links each `other` once.
 */
export function putLink(tx: WriteTx, kind: LinkedKind, other: string, asset: string, position: number): Promise<void> {
  return tx.put('links', linkRecord(kind, other, asset, { asset: position, other: position }));
}

/** Unlinks `asset` from `other`; false when they were not linked. */
export async function removeLink(tx: WriteTx, kind: LinkedKind, other: string, asset: string): Promise<boolean> {
  if (!(await isLinked(tx, kind, other, asset))) return false;
  await tx.delete('links', linkId(kind, other, asset));
  return true;
}

/** The ids of what the asset links to of one kind, oldest first; with `limit`, the newest that many. */
export async function linkedTo(tx: ReadTx, asset: string, kind: LinkedKind, limit?: number): Promise<string[]> {
  const links = await tx.getAllFromIndex('links', 'asset', side(assetSide(asset, kind)), limit);
  return links.map((l) => l.other).reverse();
}

/**
 * The ids of what the asset links to of each of `kinds`, oldest first, from one index read: an asset's
 * sides of all kinds sort together, kind by kind, so the range from the first kind's prefix to the last's
 * holds them (and those of kinds between, left out).
 */
export async function linkedToEach<K extends LinkedKind>(tx: ReadTx, asset: string, kinds: readonly K[]): Promise<Record<K, string[]>> {
  const sides = kinds.map((kind) => assetSide(asset, kind)).sort();
  const links = await tx.getAllFromIndex('links', 'asset', { lower: sides[0]!, upper: `${sides[sides.length - 1]!}:`, upperOpen: true });
  const out = new Map<LinkedKind, string[]>(kinds.map((kind) => [kind, []]));
  for (const link of links) if (link.asset === asset) out.get(link.kind)?.push(link.other);
  return Object.fromEntries([...out].map(([kind, ids]) => [kind, ids.reverse()])) as Record<K, string[]>;
}

/** The ids of the assets linked to `other`, oldest first; with `limit`, the newest that many. */
export async function assetsOf(tx: ReadTx, kind: LinkedKind, other: string, limit?: number): Promise<string[]> {
  const links = await tx.getAllFromIndex('links', 'other', side(otherSide(kind, other)), limit);
  return links.map((l) => l.asset).reverse();
}

/** Limits on what a read of links lists: how many conversations of an asset, how many assets of the others. */
export interface LinkLimits {
  conversations?: number;
  assets?: number;
}

/** What a wire Asset shows (see NESTED_ASSETS_SHOWN, ASSET_CONVERSATIONS_SHOWN). */
export const SHOWN_IN_ASSET: LinkLimits = { conversations: ASSET_CONVERSATIONS_SHOWN, assets: NESTED_ASSETS_SHOWN };

/** The kinds an asset lists whole; its conversations, which accrue with use, may be bounded (LinkLimits). */
const LISTED_WHOLE = LINKED_KINDS.filter((kind) => kind !== 'conversations');

/** The asset with the ids of what it links to, kind by kind: two index reads. */
export async function withLinks(tx: ReadTx, asset: AssetRecord, limits: LinkLimits = {}): Promise<AssetWithLinks> {
  const [whole, conversations] = await Promise.all([
    linkedToEach(tx, asset.id, LISTED_WHOLE),
    linkedTo(tx, asset.id, 'conversations', limits.conversations),
  ]);
  return { ...asset, ...whole, conversations };
}

/** The records with the ids of their assets. */
export function withAssets<R extends { id: string }>(tx: ReadTx, kind: LinkedKind, records: readonly R[], limits: LinkLimits = {}): Promise<WithAssets<R>[]> {
  return Promise.all(records.map(async (r) => ({ ...r, assets: await assetsOf(tx, kind, r.id, limits.assets) })));
}

/**
 * Every link, read at once and sorted by side: for reads that build many records (a listing of every
 * asset, every tag), where one read of the collection costs less than an index read per record.
 */
export class LinkTable {
  private byId = new Map<string, LinkRecord>();
  // By kind, then by id: a lookup makes no key string (a rebuild of the search index looks up three
  // kinds for each of 100,000 assets).
  private byAsset = new Map<LinkedKind, Map<string, LinkRecord[]>>();
  private byOther = new Map<LinkedKind, Map<string, LinkRecord[]>>();

  constructor(links: readonly LinkRecord[]) {
    for (const link of links) {
      this.byId.set(link.id, link);
      push(ofKind(this.byAsset, link.kind), link.asset, link);
      push(ofKind(this.byOther, link.kind), link.other, link);
    }
    for (const lists of this.byAsset.values()) for (const list of lists.values()) list.sort((a, b) => compare(a.assetKey, b.assetKey) || compare(a.id, b.id));
    for (const lists of this.byOther.values()) for (const list of lists.values()) list.sort((a, b) => compare(a.otherKey, b.otherKey) || compare(a.id, b.id));
  }

  /** Every link, or with `kind` every link of that kind (through the `other` index: `["tags","…`). */
  static async read(tx: ReadTx, kind?: LinkedKind): Promise<LinkTable> {
    if (kind === undefined) return new LinkTable(await tx.getAll('links'));
    const prefix = `${JSON.stringify([kind]).slice(0, -1)},"`;
    return new LinkTable(await tx.getAllFromIndex('links', 'other', { lower: prefix, upper: `${prefix.slice(0, -1)}#`, upperOpen: true }));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): LinkRecord | undefined {
    return this.byId.get(id);
  }

  linkedTo(asset: string, kind: LinkedKind, limit?: number): string[] {
    return newest(this.byAsset.get(kind)?.get(asset), limit).map((l) => l.other);
  }

  assetsOf(kind: LinkedKind, other: string, limit?: number): string[] {
    return newest(this.byOther.get(kind)?.get(other), limit).map((l) => l.asset);
  }

  withLinks(asset: AssetRecord, limits: LinkLimits = {}): AssetWithLinks {
    const ids = (kind: LinkedKind) => this.linkedTo(asset.id, kind, kind === 'conversations' ? limits.conversations : undefined);
    return { ...asset, tags: ids('tags'), websites: ids('websites'), summaries: ids('summaries'), persons: ids('persons'), conversations: ids('conversations') };
  }

  withAssets<R extends { id: string }>(kind: LinkedKind, record: R, limits: LinkLimits = {}): WithAssets<R> {
    return { ...record, assets: this.assetsOf(kind, record.id, limits.assets) };
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function ofKind(byKind: Map<LinkedKind, Map<string, LinkRecord[]>>, kind: LinkedKind): Map<string, LinkRecord[]> {
  let lists = byKind.get(kind);
  if (!lists) byKind.set(kind, (lists = new Map()));
  return lists;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The first `limit` of a side's links (newest first), oldest first. */
function newest(links: readonly LinkRecord[] | undefined, limit = Infinity): LinkRecord[] {
  return (links ?? []).slice(0, limit).reverse();
}
