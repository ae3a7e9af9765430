import type { AssetRecord, Collections } from '../store/records.ts';
import type { ReadTx } from '../store/store.ts';

/** Each collection an asset links to, and the field of its record that lists the ids (a format's content has the format's id). */
const LINK_FIELD = {
  formats: 'formats',
  contents: 'formats',
  tags: 'tags',
  websites: 'websites',
  summaries: 'summaries',
  persons: 'persons',
  annotations: 'annotations',
  conversations: 'conversations',
} as const satisfies Record<string, keyof AssetRecord>;

export type LinkedCollection = keyof typeof LINK_FIELD;

/** The records `asset` links to in each of `collections`, read at once in the caller's transaction (missing ones left out). */
export async function readLinked<C extends LinkedCollection>(tx: ReadTx, asset: AssetRecord, collections: readonly C[]): Promise<{ [K in C]: Collections[K][] }> {
  const records = await Promise.all(collections.map((collection) => tx.getMany(collection, asset[LINK_FIELD[collection]])));
  return Object.fromEntries(collections.map((collection, i) => [collection, records[i]])) as { [K in C]: Collections[K][] };
}
