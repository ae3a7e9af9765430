/**
 * The history of worker/browser/idb-store.ts's schema (which object stores each IndexedDB version had),
 * and a database made as an old version left it. No imports of worker code, so the e2e specs use it too;
 * the sample records are in legacy-stores.ts.
 */
import type { CollectionName } from '../../worker/core/store/records.ts';

export interface SchemaVersion {
  version: number;
  /** The object stores the version's database has (every one keyed by `id`). */
  stores: CollectionName[];
  /** Its indexes: store → index name → key path. */
  indexes?: Record<string, Record<string, string>>;
  /** The commit that introduced it. */
  since: string;
}

const V1: CollectionName[] = ['assets', 'formats', 'contents', 'tags', 'websites', 'summaries', 'persons', 'annotations', 'activities', 'meta'];

export const SCHEMA_HISTORY: SchemaVersion[] = [
  { version: 1, stores: V1, since: 'a2e6fc3 (the skeleton)' },
  { version: 2, stores: [...V1, 'changes'], since: '7106f07 (the durable change log)' },
  { version: 3, stores: [...V1, 'changes', 'indexes'], since: '494227b (the saved search index)' },
  { version: 4, stores: [...V1, 'changes', 'indexes', 'snippets', 'relevant', 'conversations', 'messages', 'folders'], since: 'b6fbc2e (question answering)' },
  {
    version: 5,
    stores: [...V1, 'changes', 'indexes', 'snippets', 'relevant', 'conversations', 'messages', 'folders', 'idempotency'],
    since: 'c97aa34 (writes run once per Idempotency-Key)',
  },
  {
    version: 6,
    stores: [...V1, 'changes', 'indexes', 'snippets', 'relevant', 'conversations', 'messages', 'folders', 'idempotency'],
    indexes: { activities: { asset: 'asset' }, messages: { conversation: 'conversation' }, tags: { folded: 'folded' }, websites: { url: 'url' } },
    since: '20b36ca (indexes: activities by asset, messages by conversation, tags by folded text, websites by url)',
  },
  {
    version: 7,
    stores: [...V1, 'changes', 'indexes', 'snippets', 'relevant', 'conversations', 'messages', 'folders', 'idempotency', 'links'],
    indexes: {
      activities: { asset: 'asset' },
      messages: { conversation: 'conversation' },
      tags: { folded: 'folded' },
      websites: { url: 'url' },
      links: { asset: 'assetKey', other: 'otherKey' },
    },
    since: 'h13a (links as records of their own, not id arrays on both sides)',
  },
];

/**
 * Today's records as versions before 7 held them: each link as an id on both sides (the asset's `tags`,
 * …, `conversations`, each of those records' `assets`), in the order each side lists it, and no `links`
 * store nor link position counter. Every other record as it is. Self-contained, like createLegacyDatabase.
 */
export function linksAsArrays(records: Record<string, Record<string, unknown>[]>): Record<string, Record<string, unknown>[]> {
  /** What an asset links to, each of them listing its assets. */
  const LINKED_KINDS = ['tags', 'websites', 'summaries', 'persons', 'conversations'];
  type Link = { kind: string; asset: string; other: string; assetKey: string; otherKey: string };
  const links = (records.links ?? []) as unknown as Link[];
  // A side's index key ranks the newest first: its list, oldest first, is that order reversed.
  const sideOf = (key: (l: Link) => string, group: (l: Link) => string, pick: (l: Link) => string) => {
    const sides = new Map<string, Link[]>();
    for (const link of links) (sides.get(group(link)) ?? sides.set(group(link), []).get(group(link))!).push(link);
    return (id: string) => (sides.get(id) ?? []).sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0)).map(pick);
  };
  const ofAsset = sideOf((l) => l.assetKey, (l) => `${l.asset} ${l.kind}`, (l) => l.other);
  const ofOther = sideOf((l) => l.otherKey, (l) => `${l.kind} ${l.other}`, (l) => l.asset);
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const [store, list] of Object.entries(records)) {
    if (store === 'links') continue;
    out[store] = list.map((record) => {
      const id = record.id as string;
      if (store === 'assets') return { ...record, ...Object.fromEntries(LINKED_KINDS.map((kind) => [kind, ofAsset(`${id} ${kind}`)])) };
      if (LINKED_KINDS.includes(store)) return { ...record, assets: ofOther(`${store} ${id}`) };
      return record;
    });
  }
  if (out.meta) out.meta = out.meta.filter((r) => r.id !== 'links.position');
  return out;
}

/** Today's IndexedDB version as SCHEMA_HISTORY knows it (test/unit/upgrades.test.ts checks it is IDB_VERSION). */
export const LATEST_VERSION = SCHEMA_HISTORY.at(-1)!.version;

/**
 * Creates database `name` at `version` with that version's object stores and puts `records` in, as the
 * old code left it; closes it. Self-contained (no imports, no closure), so that it also runs in a page
 * through `page.evaluate(createLegacyDatabase, …)`.
 */
export function createLegacyDatabase({
  name,
  version,
  stores,
  indexes = {},
  records,
}: {
  name: string;
  version: number;
  stores: string[];
  indexes?: Record<string, Record<string, string>>;
  records: Record<string, unknown[]>;
}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onupgradeneeded = () => {
      for (const store of stores) {
        const made = request.result.createObjectStore(store, { keyPath: 'id' });
        for (const [index, keyPath] of Object.entries(indexes[store] ?? {})) made.createIndex(index, keyPath);
      }
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`creating ${name} v${version} was blocked`));
    request.onsuccess = () => {
      const db = request.result;
      const filled = Object.keys(records).filter((s) => records[s]!.length > 0);
      if (filled.length === 0) {
        db.close();
        resolve();
        return;
      }
      const tx = db.transaction(filled, 'readwrite');
      for (const store of filled) for (const record of records[store]!) tx.objectStore(store).put(record);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    };
  });
}
