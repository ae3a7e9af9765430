import { batch, computed, effect, signal } from '@preact/signals';
import { TesseraApiError, type LibraryRow, type LibraryRows, type TesseraApi } from '../client/api.ts';
import { delay } from '../client/delay.ts';
import { filtersFromUrl, inServerOrder, type Filters } from './filters.ts';

export type { Filters, SortKey } from './filters.ts';

/** How long after the last change of the query or filters the URL follows. */
const URL_DELAY_MS = 250;
/**
 * How long every row waits for the change stream's first message after the first screen is painted; past
 * it (a stream slow to connect) they are read anyway, and read again when that message comes.
 */
const SYNC_WAIT_MS = 1000;

/**
 * The rows the page asked for before the UI's chunk loaded: all of them, or (when the list shows them in
 * the worker's order) only its first screen, which comes much sooner at 10,000 assets (a few kB against
 * 1.9 MB) and is shown while the list asks for the rest.
 */
export type RowsUnderWay = { all: Promise<LibraryRows> } | { firstScreen: Promise<LibraryRows> };

/** The host of a website url, for the website filter (`https://docs.python.org/3/` -> `docs.python.org`). */
export function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The library list's state: every row (from `GET /library`), the query and filters (kept in the URL's
 * query string), the ranked hits of the current query (`GET /assets/search?assets=false`, as you type: hits alone, the rows are here), and the
 * first lines of the rows shown. The view reads `shown`; changes from the streams call `refresh()`.
 */
export function createLibraryState(api: TesseraApi) {
  /** Every row; or, until they arrive, the first screen of them. */
  const rows = signal<LibraryRow[] | undefined>(undefined);
  /** How many rows the library holds (more than `rows` while only the first screen is here). */
  const total = signal<number | undefined>(undefined);
  const error = signal<string | undefined>(undefined);
  const filters = signal<Filters>(filtersFromUrl());
  /** Asset id -> search score, for the current query; undefined while there is no query. */
  const hits = signal<Map<string, number> | undefined>(undefined);
  const searching = signal(false);
  const previews = signal<ReadonlyMap<string, string>>(new Map());
  let searchRun = 0;
  let searchAbort: AbortController | undefined;

  const byId = computed(() => new Map((rows.value ?? []).map((r) => [r.id, r])));

  // The filters' choices are counted from the rows a moment after they change, not before the list's
  // first paint (at 10,000 rows, parsing every website's URL takes longer than showing the list).
  const facetRows = signal<LibraryRow[]>([]);
  let facetTimer: ReturnType<typeof setTimeout> | undefined;
  effect(() => {
    const next = rows.value ?? [];
    clearTimeout(facetTimer);
    facetTimer = setTimeout(() => (facetRows.value = next), 0);
  });
  const facets = computed(() => {
    const languages = new Map<string, number>();
    const tags = new Map<string, number>();
    const websites = new Map<string, number>();
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    for (const row of facetRows.value) {
      if (row.language) bump(languages, row.language);
      for (const t of row.tags) bump(tags, t);
      for (const host of new Set(row.websites.map(hostOf))) if (host) bump(websites, host);
    }
    const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return { languages: sorted(languages), tags: sorted(tags), websites: sorted(websites) };
  });

  /** The rows the list shows, filtered and sorted. */
  const shown = computed<LibraryRow[]>(() => {
    const f = filters.value;
    const all = rows.value ?? [];
    const scores = hits.value;
    let list = scores ? all.filter((r) => scores.has(r.id)) : all;
    if (f.language) list = list.filter((r) => r.language === f.language);
    if (f.tag) list = list.filter((r) => r.tags.includes(f.tag));
    if (f.website) list = list.filter((r) => r.websites.some((w) => hostOf(w) === f.website));
    const key = f.sort || (scores ? 'score' : 'updated');
    const sorted = [...list];
    if (key === 'created') sorted.sort((a, b) => b.created - a.created);
    else if (key === 'updated') sorted.sort((a, b) => b.updated - a.updated);
    // Score: the search's while there is a query, else how much each asset was used.
    else if (scores) sorted.sort((a, b) => (scores.get(b.id) ?? 0) - (scores.get(a.id) ?? 0));
    else sorted.sort((a, b) => b.usage - a.usage || b.updated - a.updated);
    return sorted;
  });

  // The URL follows the filters (replaceState: typing is not history), once typing pauses: each URL
  // change makes Chromium look at the page's icon again, about 8 ms a keystroke (npm run bench, 4f).
  let urlTimer: ReturnType<typeof setTimeout> | undefined;
  effect(() => {
    const f = filters.value;
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => writeUrl(f), URL_DELAY_MS);
  });
  function writeUrl(f: Filters): void {
    const p = new URLSearchParams();
    if (f.q) p.set('q', f.q);
    if (f.language) p.set('language', f.language);
    if (f.tag) p.set('tag', f.tag);
    if (f.website) p.set('website', f.website);
    if (f.sort) p.set('sort', f.sort);
    const search = p.size ? `?${p}` : '';
    if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }

  async function runSearch(q: string): Promise<void> {
    const run = ++searchRun;
    searchAbort?.abort();
    if (!q.trim()) {
      batch(() => {
        hits.value = undefined;
        searching.value = false;
      });
      return;
    }
    const abort = (searchAbort = new AbortController());
    searching.value = true;
    try {
      const found = await api.searchHits(q, abort.signal);
      if (run !== searchRun) return;
      const map = new Map<string, number>();
      for (const item of found.iterable) map.set(item.identifier, item.score);
      batch(() => {
        hits.value = map;
        searching.value = false;
        error.value = undefined;
      });
    } catch (e) {
      if (run !== searchRun || (e instanceof DOMException && e.name === 'AbortError')) return;
      batch(() => {
        searching.value = false;
        error.value = messageOf(e);
      });
    }
  }

  // Results as you type: every change of the query runs a search; a newer one aborts the older.
  let lastQuery: string | undefined;
  effect(() => {
    const q = filters.value.q;
    if (q === lastQuery) return;
    lastQuery = q;
    void runSearch(q);
  });

  /** Shows the first screen while no row is here yet, if the list shows them in the server's order. */
  function showFirstScreen(page: Promise<LibraryRows>): void {
    page.then(
      (first) => {
        if (rows.value !== undefined || !inServerOrder(filters.value)) return;
        batch(() => {
          rows.value = first.rows;
          total.value = first.total;
        });
      },
      () => {}, // all the rows still come, or their error is shown
    );
  }

  let loading: Promise<void> | undefined;
  let again = false;
  /** Whether a read of every row has been sent (by the page or by `refresh`). */
  let allRowsAsked = false;
  let streamSynced = false;
  let onFirstSync: () => void = () => {};
  const firstSync = new Promise<void>((resolve) => (onFirstSync = resolve));
  /**
   * Reads every row again (coalesced: calls while one read runs make one more read after it). `first`:
   * the rows a read already under way will answer (the page asks for them before the UI has loaded).
   */
  function refresh(first?: RowsUnderWay): Promise<void> {
    const firstScreen = first && 'firstScreen' in first ? first.firstScreen : undefined;
    if (firstScreen) showFirstScreen(firstScreen);
    if (loading) {
      again = true;
      return loading;
    }
    let underWay = first && 'all' in first ? first.all : undefined;
    if (underWay) allRowsAsked = true;
    loading = (async () => {
      // Every row is asked for once the first screen is painted: their 1.9 MB (at 10,000 assets) and
      // their parse must not delay that frame. And once the change stream has sent its first message, so
      // that this one read has every change that message would have asked to read them again for.
      if (firstScreen) await Promise.all([firstScreen.then(afterPaint, () => undefined), Promise.race([firstSync, delay(SYNC_WAIT_MS)])]);
      do {
        again = false;
        try {
          if (!underWay) allRowsAsked = true;
          const next = await (underWay ?? api.libraryRows());
          underWay = undefined;
          batch(() => {
            rows.value = next.rows;
            total.value = next.total;
            error.value = undefined;
          });
        } catch (e) {
          error.value = messageOf(e);
        }
      } while (again);
      loading = undefined;
    })();
    return loading;
  }

  /**
   * The change stream (re)connected and sent every id there is: the rows are read again, since a change may
   * have come between their read and the stream's start; unless this is its first message and no read of
   * every row has been sent yet (the one to come has all of them).
   */
  function resync(): Promise<void> | undefined {
    const first = !streamSynced;
    streamSynced = true;
    onFirstSync();
    return first && !allRowsAsked ? undefined : refresh();
  }

  /** After a change elsewhere: rows again, the query again, and the changed rows' first lines again. */
  function changed(ids: readonly string[]): Promise<void> {
    if (ids.length) {
      const next = new Map(previews.value);
      for (const id of ids) next.delete(id);
      previews.value = next;
    }
    if (filters.value.q.trim()) void runSearch(filters.value.q);
    return refresh();
  }

  const pending = new Set<string>();
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  /** Asks for the first lines of rows on screen (batched; each id once until it changes). */
  function wantPreviews(ids: readonly string[]): void {
    for (const id of ids) if (!previews.value.has(id)) pending.add(id);
    if (pending.size === 0 || previewTimer) return;
    previewTimer = setTimeout(async () => {
      previewTimer = undefined;
      const batchIds = [...pending].slice(0, 100);
      for (const id of batchIds) pending.delete(id);
      try {
        const { previews: got } = await api.previews(batchIds);
        const next = new Map(previews.value);
        for (const id of batchIds) next.set(id, got[id] ?? '');
        previews.value = next;
      } catch {
        // a failed preview leaves the row without its first lines; the next scroll asks again
      }
      if (pending.size) wantPreviews([]);
    }, 16);
  }

  return { rows, total, byId, error, filters, hits, searching, previews, facets, shown, refresh, resync, changed, wantPreviews };
}

export type LibraryState = ReturnType<typeof createLibraryState>;


/** Resolves after the next frame has been painted. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export function messageOf(error: unknown): string {
  if (error instanceof TesseraApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
