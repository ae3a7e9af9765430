/**
 * The library list's query and filters, as the URL's query string keeps them. No imports: the page's
 * entry script reads them too, to know before the UI has loaded whether the list's first screen is the
 * worker's (main.ts).
 */
export type SortKey = 'updated' | 'created' | 'score';

export interface Filters {
  q: string;
  language: string;
  tag: string;
  website: string;
  /** '' sorts by score while there is a query, else by update time. */
  sort: SortKey | '';
}

const SORTS: readonly SortKey[] = ['updated', 'created', 'score'];

/** How many rows a page load asks for first: more than a tall window shows (a row is 100 px high). */
export const FIRST_SCREEN_ROWS = 50;

export function filtersFromUrl(): Filters {
  const p = new URLSearchParams(location.search);
  const sort = p.get('sort') as SortKey | null;
  return {
    q: p.get('q') ?? '',
    language: p.get('language') ?? '',
    tag: p.get('tag') ?? '',
    website: p.get('website') ?? '',
    sort: sort && SORTS.includes(sort) ? sort : '',
  };
}

/** Whether the list shows every row newest update first, the order of `GET /library` (and of its first rows). */
export function inServerOrder(f: Filters): boolean {
  return !f.q && !f.language && !f.tag && !f.website && (f.sort === '' || f.sort === 'updated');
}
