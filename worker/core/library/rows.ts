import type { ServiceContext } from '../deps.ts';
import { PSEUDO } from '../search/documents.ts';
import { searchIndexFor } from '../search/search-index.ts';
import { jsonBody } from '../assets/read.ts';
import type { LibraryRow, LibraryRows } from './schemas.ts';

export interface LibraryRowsOptions {
  pseudo?: boolean;
  /** Only the first this many rows (`total` still counts all): a list's first screen, sent ahead of the rest. */
  first?: number;
}

/**
 * `GET /library`: every (non-pseudo unless asked) asset as a LibraryRow, newest update first, from what the
 * search index already keeps about each asset (search/documents.ts DocMeta): listing 10,000 assets reads
 * no asset, format or tag record. Tag texts and website urls are lower-case, as the index matches them.
 */
export async function listLibraryRows(ctx: ServiceContext, options: LibraryRowsOptions = {}): Promise<LibraryRows> {
  const rows = await allRows(ctx, options.pseudo === true);
  return { rows: options.first === undefined ? rows : rows.slice(0, options.first), total: rows.length };
}

/**
 * Every row, sorted; kept in the asset cache until the next change, so that a first screen and the whole
 * list asked for together build them once (10,000 rows took about 80 ms).
 */
function allRows(ctx: ServiceContext, pseudo: boolean): Promise<LibraryRow[]> {
  return ctx.assetCache.get(`library rows ${pseudo}`, () => buildRows(ctx, pseudo), (rows) => rows.length * ROW_BYTES);
}

/** About what a row holds in memory (its strings and numbers; a long name or many tags hold more). */
const ROW_BYTES = 400;

async function buildRows(ctx: ServiceContext, pseudo: boolean): Promise<LibraryRow[]> {
  const index = await searchIndexFor(ctx).current(undefined, { meta: true });
  const rows: LibraryRow[] = [];
  for (const slot of index.slots()) {
    if (!pseudo && (index.flags(slot) & PSEUDO) !== 0) continue;
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
  return rows;
}

/**
 * `listLibraryRows` as its JSON body, kept in the asset cache until the next change: a page reloaded
 * with the worker running gets the same rows again (10,000 rows make 1.9 MB of JSON).
 */
export function listLibraryRowsBody(ctx: ServiceContext, options: LibraryRowsOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return jsonBody(ctx, `library ${options.pseudo === true} ${options.first ?? 'all'}`, () => listLibraryRows(ctx, options));
}
