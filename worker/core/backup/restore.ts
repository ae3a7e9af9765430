/**
 * `POST /backup/restore`: a checked backup (read.ts) merged into the library in one transaction.
 *
 * - Into an empty library every record goes in as it was: same ids, same timestamps, same listings.
 * - Into a non-empty one, by id, the record with the newer `updated` wins (a tie keeps the library's).
 *   An asset decides for its formats, contents, annotations, activities and vectors (they change with it);
 *   a conversation for its messages; tags, websites, workstream summaries and persons each for themselves.
 *   A winning asset or conversation replaces the children of the one it replaces (children it no longer
 *   lists are removed). The chat-model settings are taken only when the library has none (never a key).
 * - Then the links between assets and tags, websites, summaries, persons and conversations (id arrays on
 *   both sides in the file, `links` records in the store) are settled pair by pair, for every pair a
 *   restored record names or the library links it with: a record in the file says what its own side is
 *   (its array), a record the library keeps what the library's links say; where the two sides disagree,
 *   the newer record says whether they are linked, and a link to a record that exists nowhere is dropped.
 *   A restored record lists its links in its array's order.
 * - Nothing is deleted that the backup does not replace (a merge has no record of deletions).
 *
 * Each asset added or changed is a change event after the commit, so streams, the search index and the
 * vectors catch up through the change log; the file's vectors are stored with their embedder id, so the
 * vectors of an unchanged embedder are taken as they are, not recomputed (qgpt/vectors/snippet-vectors.ts).
 */
import * as z from 'zod';
import type { ServiceContext } from '../deps.ts';
import { commit, type ChangeLog } from '../feed/commit.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { SETTINGS_ID } from '../qgpt/answer/chat-settings.ts';
import { VECTORS_VERSION } from '../qgpt/vectors/stored-vectors.ts';
import { LinkTable, linkId, linkRecord, takePositions } from '../links/link-records.ts';
import type { AssetRecord, AssetWithLinks, CollectionName, Collections, LinkRecord, LinkedKind, WithAssets } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';
import { BACKUP_STORES, type BackupStore } from './format.ts';
import type { ParsedBackup } from './read.ts';

const count = () => z.number().int().nonnegative();
/** What happened to one store's records (each field described on RestoreSummary). */
export const StoreOutcomeSchema = lazySchema(() =>
  z.object({
    /** New ids, stored. */
    added: count(),
    /** Ids the library had, replaced by the backup's newer record. */
    replaced: count(),
    /** Ids the library had with a record as new or newer: the library's stays. */
    kept: count(),
    /** The library's children (formats, contents, annotations, activities, messages) a replacing record no longer lists. */
    removed: count(),
    /** Records not applied: children of no record in the file, or vectors of another format version. */
    skipped: count(),
  }),
);
export type StoreOutcome = z.infer<typeof StoreOutcomeSchema>;

/** The answer of `POST /backup/restore`. */
export const RestoreSummarySchema = lazySchema(() =>
  z.object({
    /** False for a dry run: the same answer, nothing stored. */
    applied: z.boolean(),
    backup: z.object({ version: z.number().int(), created: z.string() }),
    stores: z.object(Object.fromEntries(BACKUP_STORES.map((s) => [s, StoreOutcomeSchema])) as Record<BackupStore, typeof StoreOutcomeSchema>),
    /** Links settled where their two sides disagreed (added or dropped; see the module comment). */
    relinked: count(),
  }),
);
export type RestoreSummary = z.infer<typeof RestoreSummarySchema>;

class DryRun extends Error {
  constructor(readonly summary: RestoreSummary) {
    super('dry run');
  }
}

/** Applies a checked backup in one transaction (or, with `dryRun`, works out the answer and stores nothing). */
export async function restoreBackup(ctx: ServiceContext, backup: ParsedBackup, options: { dryRun?: boolean } = {}): Promise<RestoreSummary> {
  try {
    return await commit(ctx, async (tx, log) => {
      const summary = await merge(tx, log, backup);
      // Thrown, so the store discards the whole transaction: a dry run runs exactly the code a restore does.
      if (options.dryRun) throw new DryRun({ ...summary, applied: false });
      return summary;
    }, RESTORE_SCOPE);
  } catch (error) {
    if (error instanceof DryRun) return error.summary;
    throw error;
  }
}

/** A restore writes every collection a backup holds (the settings into `meta`). */
const RESTORE_SCOPE: readonly CollectionName[] = [...BACKUP_STORES.filter((s) => s !== 'settings'), 'meta', 'links'] as CollectionName[];

type Dated = { id: string; updated: string };
const newer = (a: Dated, b: Dated) => Date.parse(a.updated) > Date.parse(b.updated);

function group<T>(records: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of records) {
    const k = key(r);
    const list = groups.get(k);
    if (list) list.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}

async function byId<C extends CollectionName>(tx: WriteTx, c: C, ids: readonly string[]): Promise<Map<string, Collections[C]>> {
  return new Map((await tx.getMany(c, ids)).map((r) => [r.id, r]));
}

const LABELS = ['tags', 'websites', 'summaries', 'persons'] as const;
/** What an asset lists by id in the file, each listing the asset back in `assets`. */
const LINKED = [...LABELS, 'conversations'] as const satisfies readonly LinkedKind[];
type Linked = (typeof LINKED)[number];
type LinkedRecord = WithAssets<Collections[Linked]>;

/** The record as the store keeps it: without the id arrays the file lists links in. */
function withoutLinks(asset: AssetWithLinks): AssetRecord {
  const { tags: _t, websites: _w, summaries: _s, persons: _p, conversations: _c, ...record } = asset;
  return record;
}
function withoutAssets<R>(record: WithAssets<R>): R {
  const { assets: _, ...rest } = record;
  return rest as R;
}

async function merge(tx: WriteTx, log: ChangeLog, backup: ParsedBackup): Promise<RestoreSummary> {
  const { records } = backup;
  const stores = Object.fromEntries(
    BACKUP_STORES.map((s) => [s, { added: 0, replaced: 0, kept: 0, removed: 0, skipped: 0 }]),
  ) as Record<BackupStore, StoreOutcome>;
  const writes: Promise<void>[] = [];
  // Issued now, awaited together at the end; a failure also fails that Promise.all (and so the transaction),
  // the catch only keeps it from being reported as unhandled while reads are still awaited.
  const issue = (request: Promise<void>) => {
    request.catch(() => undefined);
    writes.push(request);
  };
  const put = <C extends CollectionName>(c: C, record: Collections[C]) => issue(tx.put(c, record));
  const remove = (c: CollectionName, id: string) => issue(tx.delete(c, id));
  /** The records this restore writes, as the file has them (for the link pass). */
  const written: Written = { assets: new Map(), ...(Object.fromEntries(LINKED.map((kind) => [kind, new Map()])) as Omit<Written, 'assets'>) };

  const totals = Object.fromEntries(BACKUP_STORES.map((s) => [s, records[s].length])) as Record<BackupStore, number>;
  // Assets, with the children that change with them. The bulky records (contents, vectors) are referenced
  // from these maps only and let go once put (a put copies them), so they need not all stay in memory
  // until the commit.
  const formats = group(records.formats, (f) => f.asset);
  const contents = new Map(records.contents.map((c) => [c.id, c]));
  const annotations = group(records.annotations, (a) => a.asset);
  const activities = group(records.activities, (a) => a.asset);
  const snippets = new Map(records.snippets.map((s) => [s.id, s]));
  records.contents = [];
  records.snippets = [];
  const vectorsUsable = backup.vectors === VECTORS_VERSION;
  const existingAssets = await byId(tx, 'assets', records.assets.map((a) => a.id));
  for (const asset of records.assets) {
    const old = existingAssets.get(asset.id);
    const children = {
      formats: formats.get(asset.id) ?? [],
      annotations: annotations.get(asset.id) ?? [],
      activities: activities.get(asset.id) ?? [],
    };
    const assetContents = children.formats.flatMap((f) => contents.get(f.id) ?? []);
    for (const content of assetContents) contents.delete(content.id);
    const vectors = snippets.get(asset.id);
    snippets.delete(asset.id);
    if (old && !newer(asset, old)) {
      stores.assets.kept++;
      for (const [store, list] of Object.entries(children)) stores[store as BackupStore].kept += list.length;
      stores.contents.kept += assetContents.length;
      if (vectors) stores.snippets.kept++;
      continue;
    }
    const outcome = old ? 'replaced' : 'added';
    stores.assets[outcome]++;
    put('assets', withoutLinks(asset));
    written.assets.set(asset.id, asset);
    if (old) log.updated(asset.id);
    else log.created(asset.id);
    // A child the library had under the same id is replaced; one the new asset no longer lists goes.
    const had = {
      formats: new Set(old?.formats),
      annotations: new Set(old?.annotations),
      // Every activity of the asset (its record lists only the newest).
      activities: new Set(old ? await tx.getKeysFromIndex('activities', 'asset', asset.id) : []),
    };
    for (const store of ['formats', 'annotations', 'activities'] as const) {
      for (const child of children[store]) {
        put(store, child);
        stores[store][had[store].has(child.id) ? 'replaced' : 'added']++;
      }
      const kept = new Set(children[store].map((c) => c.id));
      for (const id of had[store]) {
        if (kept.has(id)) continue;
        remove(store, id);
        stores[store].removed++;
        if (store === 'formats') {
          remove('contents', id);
          stores.contents.removed++;
        }
      }
    }
    for (const content of assetContents) {
      put('contents', content);
      stores.contents[had.formats.has(content.id) ? 'replaced' : 'added']++;
    }
    if (vectors && vectorsUsable) {
      put('snippets', vectors);
      stores.snippets[outcome]++;
    }
  }

  // Tags, websites, workstream summaries, persons: each record for itself.
  for (const kind of LABELS) {
    const list = records[kind] as LinkedRecord[];
    const existing = await byId(tx, kind, list.map((r) => r.id));
    for (const record of list) {
      const old = existing.get(record.id);
      if (old && !newer(record, old)) {
        stores[kind].kept++;
        continue;
      }
      stores[kind][old ? 'replaced' : 'added']++;
      put(kind, withoutAssets(record) as never);
      (written[kind] as Map<string, LinkedRecord>).set(record.id, record);
    }
  }

  // Conversations, with their messages.
  const messages = group(records.messages, (m) => m.conversation);
  const existingConversations = await byId(tx, 'conversations', records.conversations.map((c) => c.id));
  for (const conversation of records.conversations) {
    const old = existingConversations.get(conversation.id);
    const own = messages.get(conversation.id) ?? [];
    if (old && !newer(conversation, old)) {
      stores.conversations.kept++;
      stores.messages.kept += own.length;
      continue;
    }
    stores.conversations[old ? 'replaced' : 'added']++;
    put('conversations', withoutAssets(conversation));
    written.conversations.set(conversation.id, conversation);
    // Every message of the conversation (its record lists only the newest).
    const had = new Set(old ? await tx.getKeysFromIndex('messages', 'conversation', conversation.id) : []);
    for (const message of own) {
      put('messages', message);
      stores.messages[had.has(message.id) ? 'replaced' : 'added']++;
    }
    const kept = new Set(own.map((m) => m.id));
    for (const id of had) {
      if (kept.has(id)) continue;
      remove('messages', id);
      stores.messages.removed++;
    }
  }

  // Settings: only into a library that has none.
  const settings = records.settings[0];
  if (settings) {
    if (await tx.get('meta', SETTINGS_ID)) stores.settings.kept++;
    else {
      put('meta', { id: SETTINGS_ID, value: settings.value });
      stores.settings.added++;
    }
  }

  const relinked = await relink(tx, log, written, put, remove);

  for (const store of BACKUP_STORES) {
    const outcome = stores[store];
    outcome.skipped = totals[store] - outcome.added - outcome.replaced - outcome.kept;
  }
  await Promise.all(writes);
  return { applied: true, backup: { version: backup.version, created: backup.created }, stores, relinked };
}

/** The records a restore writes, by id, as the file has them (links as id arrays). */
type Written = { assets: Map<string, AssetWithLinks> } & { [K in Linked]: Map<string, WithAssets<Collections[K]>> };

/**
 * Settles every link a written record names or the library links it with (see the module comment), and
 * puts and deletes `links` records to match. A written record's side gets new positions in its array's
 * order (links it gains from the other side after those); a side the library keeps keeps its positions,
 * a link new to it comes last. Answers how many links were settled by a disagreement.
 */
async function relink(
  tx: WriteTx,
  log: ChangeLog,
  written: Written,
  put: <C extends CollectionName>(c: C, record: Collections[C]) => void,
  remove: (c: CollectionName, id: string) => void,
): Promise<number> {
  const library = await LinkTable.read(tx);
  const kept = async <C extends CollectionName>(c: C, ids: Iterable<string>): Promise<Map<string, Dated>> =>
    new Map((await tx.getMany(c, [...new Set(ids)])).map((r) => [r.id, r as Dated]));
  let relinked = 0;
  for (const kind of LINKED) {
    const others = written[kind] as Map<string, LinkedRecord>;
    /** Each candidate pair once, as [asset, other], in the order written records name them. */
    const pairs = new Map<string, [asset: string, other: string]>();
    const add = (asset: string, other: string) => pairs.set(linkId(kind, other, asset), [asset, other]);
    for (const asset of written.assets.values()) {
      for (const other of asset[kind]) add(asset.id, other);
      for (const other of library.linkedTo(asset.id, kind)) add(asset.id, other);
    }
    for (const other of others.values()) {
      for (const asset of other.assets) add(asset, other.id);
      for (const asset of library.assetsOf(kind, other.id)) add(asset, other.id);
    }
    if (pairs.size === 0) continue;
    // The library's records the restore keeps (its others are gone, or never were).
    const keptAssets = await kept('assets', [...pairs.values()].map(([a]) => a).filter((a) => !written.assets.has(a)));
    const keptOthers = await kept(kind, [...pairs.values()].map(([, o]) => o).filter((o) => !others.has(o)));

    const linked = new Set<string>();
    for (const [id, [assetId, otherId]] of pairs) {
      const asset = written.assets.get(assetId);
      const other = others.get(otherId);
      const inLibrary = library.has(id);
      const assetNow = asset ?? keptAssets.get(assetId);
      const otherNow = other ?? keptOthers.get(otherId);
      const assetSays = asset ? asset[kind].includes(otherId) : !!assetNow && inLibrary;
      const otherSays = other ? other.assets.includes(assetId) : !!otherNow && inLibrary;
      let link = assetSays;
      if (assetSays !== otherSays) {
        link = !assetNow || !otherNow ? false : newer(assetNow, otherNow) ? assetSays : newer(otherNow, assetNow) ? otherSays : true;
        relinked++;
      }
      if (link) linked.add(id);
      // A written asset has its own change event; a kept one whose links change needs one.
      if (link !== inLibrary && !asset && assetNow) log.updated(assetId);
      if (!link && inLibrary) remove('links', id);
    }

    // Positions: each written record's side anew, in its array's order, then the links it gained.
    const sides = new Map<string, { asset?: number; other?: number }>();
    const place = async (named: string[], all: string[] | undefined, side: 'asset' | 'other') => {
      const ids = [...new Set([...named, ...(all ?? [])])].filter((id) => linked.has(id));
      const first = await takePositions(tx, ids.length);
      ids.forEach((id, i) => sides.set(id, { ...sides.get(id), [side]: first + i }));
    };
    const byAsset = new Map<string, string[]>();
    const byOther = new Map<string, string[]>();
    for (const [id, [assetId, otherId]] of pairs) {
      (byAsset.get(assetId) ?? byAsset.set(assetId, []).get(assetId)!).push(id);
      (byOther.get(otherId) ?? byOther.set(otherId, []).get(otherId)!).push(id);
    }
    for (const asset of written.assets.values()) {
      await place(asset[kind].map((other) => linkId(kind, other, asset.id)), byAsset.get(asset.id), 'asset');
    }
    for (const other of others.values()) {
      await place(other.assets.map((asset) => linkId(kind, other.id, asset)), byOther.get(other.id), 'other');
    }
    for (const id of linked) {
      const [assetId, otherId] = pairs.get(id)!;
      const was = library.get(id);
      const side = sides.get(id) ?? {};
      // A side the library keeps keeps its key; one new to it comes after its others.
      const fresh = linkRecord(kind, otherId, assetId, {
        asset: side.asset ?? (was ? 0 : await takePositions(tx)),
        other: side.other ?? (was ? 0 : await takePositions(tx)),
      });
      const record: LinkRecord = {
        ...fresh,
        assetKey: side.asset === undefined && was ? was.assetKey : fresh.assetKey,
        otherKey: side.other === undefined && was ? was.otherKey : fresh.otherKey,
      };
      if (!was || was.assetKey !== record.assetKey || was.otherKey !== record.otherKey) put('links', record);
    }
  }
  return relinked;
}
