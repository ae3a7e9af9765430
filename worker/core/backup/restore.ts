/**
 * `POST /backup/restore`: a checked backup (read.ts) merged into the library in one transaction.
 *
 * - Into an empty library every record goes in as it was: same ids, same timestamps, same listings.
 * - Into a non-empty one, by id, the record with the newer `updated` wins (a tie keeps the library's).
 *   An asset decides for its formats, contents, annotations, activities and vectors (they change with it);
 *   a conversation for its messages; tags, websites, workstream summaries and persons each for themselves.
 *   A winning asset or conversation replaces the children of the one it replaces (children it no longer
 *   lists are removed). The chat-model settings are taken only when the library has none (never a key).
 * - Then the links between assets and tags, websites, summaries, persons and conversations are put back
 *   in step on both sides: where the two sides disagree, the newer record says whether they are linked,
 *   and a link to a record that exists nowhere is dropped.
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
import { VECTORS_VERSION } from '../qgpt/vectors/snippet-vectors.ts';
import type { AssetRecord, CollectionName, Collections } from '../store/records.ts';
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
    /** Records whose links were changed to keep both sides of a link in step. */
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
const RESTORE_SCOPE: readonly CollectionName[] = [...BACKUP_STORES.filter((s) => s !== 'settings'), 'meta'] as CollectionName[];

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
/** What an asset lists by id, each listing the asset back in `assets`. */
const LINKED = [...LABELS, 'conversations'] as const;
type Linked = (typeof LINKED)[number];
type LinkedRecord = Collections[Linked];

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
  /** The records this restore writes, and the library's versions they replace (for the link pass). */
  const written = { assets: new Map<string, AssetRecord>() } as { assets: Map<string, AssetRecord> } & { [K in Linked]: Map<string, Collections[K]> };
  const replaced = { assets: new Map<string, AssetRecord>() } as typeof written;
  for (const kind of LINKED) {
    (written as Record<Linked, Map<string, LinkedRecord>>)[kind] = new Map();
    (replaced as Record<Linked, Map<string, LinkedRecord>>)[kind] = new Map();
  }

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
    put('assets', asset);
    written.assets.set(asset.id, asset);
    if (old) replaced.assets.set(asset.id, old);
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
      put(kind, record as never);
      (written[kind] as Map<string, LinkedRecord>).set(record.id, record);
      if (old) (replaced[kind] as Map<string, LinkedRecord>).set(record.id, old);
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
    put('conversations', conversation);
    written.conversations.set(conversation.id, conversation);
    if (old) replaced.conversations.set(conversation.id, old);
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

  const relinked = await relink(tx, log, written, replaced, put);

  for (const store of BACKUP_STORES) {
    const outcome = stores[store];
    outcome.skipped = totals[store] - outcome.added - outcome.replaced - outcome.kept;
  }
  await Promise.all(writes);
  return { applied: true, backup: { version: backup.version, created: backup.created }, stores, relinked };
}

/**
 * Puts both sides of every link that the restore touched back in step (see the module comment), and
 * writes the records it changed again (a second put of an id in a transaction replaces the first).
 */
async function relink(
  tx: WriteTx,
  log: ChangeLog,
  written: { assets: Map<string, AssetRecord> } & { [K in Linked]: Map<string, Collections[K]> },
  replaced: typeof written,
  put: <C extends CollectionName>(c: C, record: Collections[C]) => void,
): Promise<number> {
  const finalAssets = new Map(written.assets);
  const changedAssets = new Set<AssetRecord>();
  let changedOthers = 0;
  const load = async <C extends CollectionName>(c: C, into: Map<string, Collections[C] | undefined>, ids: Iterable<string>) => {
    const missing = [...new Set(ids)].filter((id) => !into.has(id));
    const found = await byId(tx, c, missing);
    for (const id of missing) into.set(id, found.get(id));
  };
  for (const kind of LINKED) {
    const pairs = new Map<string, [asset: string, other: string]>();
    const add = (asset: string, other: string) => pairs.set(`${asset}\n${other}`, [asset, other]);
    for (const asset of [...written.assets.values(), ...replaced.assets.values()]) for (const other of asset[kind]) add(asset.id, other);
    const others = [...(written[kind] as Map<string, LinkedRecord>).values(), ...(replaced[kind] as Map<string, LinkedRecord>).values()];
    for (const other of others) for (const asset of other.assets) add(asset, other.id);
    if (pairs.size === 0) continue;
    const finalOthers = new Map<string, LinkedRecord | undefined>(written[kind] as Map<string, LinkedRecord>);
    await load('assets', finalAssets as Map<string, AssetRecord | undefined>, [...pairs.values()].map(([a]) => a));
    await load(kind, finalOthers as Map<string, Collections[typeof kind] | undefined>, [...pairs.values()].map(([, o]) => o));
    const changed = new Set<LinkedRecord>();
    for (const [assetId, otherId] of pairs.values()) {
      const asset = finalAssets.get(assetId);
      const other = finalOthers.get(otherId);
      const assetSays = !!asset && asset[kind].includes(otherId);
      const otherSays = !!other && other.assets.includes(assetId);
      if (assetSays === otherSays) continue;
      const linked = !asset || !other ? false : newer(asset, other) ? assetSays : newer(other, asset) ? otherSays : true;
      if (asset && assetSays !== linked) {
        asset[kind] = linked ? [...asset[kind], otherId] : asset[kind].filter((id) => id !== otherId);
        changedAssets.add(asset);
      }
      if (other && otherSays !== linked) {
        other.assets = linked ? [...other.assets, assetId] : other.assets.filter((id) => id !== assetId);
        changed.add(other);
      }
    }
    for (const other of changed) put(kind, other as never);
    changedOthers += changed.size;
  }
  for (const asset of changedAssets) {
    put('assets', asset);
    if (!written.assets.has(asset.id)) log.updated(asset.id);
  }
  return changedAssets.size + changedOthers;
}

