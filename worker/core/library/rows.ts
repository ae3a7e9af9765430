import type { ServiceContext } from '../deps.ts';
import { PSEUDO } from '../search/documents.ts';
import { searchIndexFor } from '../search/search-index.ts';
import { jsonBody } from '../assets/read.ts';
import type { LibraryRow, LibraryRows } from './schemas.ts';

/**
 * `GET /library`: every (non-pseudo unless asked) asset as a LibraryRow, newest update first, from what the
 * search index already keeps about each asset (search/documents.ts DocMeta): listing 10,000 assets reads
 * no asset, format or tag record. Tag texts and website urls are lower-case, as the index matches them.
 */
export async function listLibraryRows(ctx: ServiceContext, options: { pseudo?: boolean } = {}): Promise<LibraryRows> {
  const index = await searchIndexFor(ctx).current(undefined, { meta: true });
  const rows: LibraryRow[] = [];
  for (const slot of index.slots()) {
    if (options.pseudo !== true && (index.flags(slot) & PSEUDO) !== 0) continue;
    const meta = index.metaOf(slot)!;
    rows.push({
      id: index.idOf(slot)!,
      name: meta.name,
      language: meta.specifics[0] ?? '',
      generic: meta.generic,
      tags: meta.tags,
      websites: meta.websites.filter((w) => /^[a-z][a-z0-9+.-]*:/.test(w)),
      created: meta.created,
      updated: meta.updated,
      usage: meta.usage,
    });
  }
  rows.sort((a, b) => b.updated - a.updated || (a.id < b.id ? -1 : 1));
  return { rows };
}

/**
 * `listLibraryRows` as its JSON body, kept in the asset cache until the next change: a page reloaded
 * with the worker running gets the same rows again (10,000 rows, 1.9 MB, took about 80 ms to build).
 */
export function listLibraryRowsBody(ctx: ServiceContext, options: { pseudo?: boolean } = {}): Promise<Uint8Array<ArrayBuffer>> {
  return jsonBody(ctx, `library ${options.pseudo === true}`, () => listLibraryRows(ctx, options));
}
