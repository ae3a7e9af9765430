import { useEffect, useRef } from 'preact/hooks';
import type { LibraryRow } from '../../client/api.ts';
import { useVirtualList } from '../components/virtual-list.ts';
import { timeAgo } from '../format.ts';
import { languageLabel } from '../languages.ts';
import type { Filters } from '../library-state.ts';
import { navigate, route } from '../router.ts';
import { useSession } from '../session.ts';

const ROW_HEIGHT = 100;

/** The searchable, filterable list of every asset (role `list` named "Library"). */
export function LibraryView() {
  const session = useSession();
  const { library, selected } = session;
  const scroller = useRef<HTMLDivElement>(null);
  const list = library.shown.value;
  const virtual = useVirtualList(list.length, ROW_HEIGHT, scroller);
  const items = virtual.getVirtualItems();
  const current = route.value;
  const openId = current.view === 'asset' || current.view === 'edit' ? current.id : undefined;

  useEffect(() => {
    library.wantPreviews(items.map((i) => list[i.index]?.id).filter((id): id is string => !!id));
  });

  const setFilter = (patch: Partial<Filters>) => (library.filters.value = { ...library.filters.value, ...patch });
  const f = library.filters.value;
  const facets = library.facets.value;
  const total = library.total.value;

  /** Moves focus to the row `index` (scrolled into view first: it may not be rendered yet). */
  const focusRow = (index: number) => {
    if (index < 0 || index >= list.length) return;
    virtual.scrollToIndex(index, { align: 'auto' });
    requestAnimationFrame(() => {
      const button = scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] .row-open`);
      button?.focus();
    });
  };

  const onListKey = (event: KeyboardEvent) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    const index = row ? Number(row.dataset.index) : -1;
    if (event.key === 'ArrowDown') focusRow(index + 1);
    else if (event.key === 'ArrowUp') index <= 0 ? document.getElementById('search')?.focus() : focusRow(index - 1);
    else if (event.key === 'Home') focusRow(0);
    else if (event.key === 'End') focusRow(list.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <section class="library" aria-label="Library list">
      <div class="search-bar">
        <svg class="search-icon" viewBox="0 0 20 20" aria-hidden="true">
          <circle cx="8.5" cy="8.5" r="5.5" />
          <path d="m13 13 4 4" />
        </svg>
        <input
          id="search"
          type="search"
          aria-label="Search"
          placeholder="Search snippets"
          autocomplete="off"
          spellcheck={false}
          value={f.q}
          onInput={(e) => setFilter({ q: e.currentTarget.value })}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              focusRow(0);
            } else if (e.key === 'Enter' && list[0]) {
              navigate({ view: 'asset', id: list[0].id });
            }
          }}
        />
        <kbd class="hint" aria-hidden="true">/</kbd>
      </div>
      <div class="filters">
        <select aria-label="Filter by language" value={f.language} onChange={(e) => setFilter({ language: e.currentTarget.value })}>
            <option value="">All languages</option>
            {chosenOnly(f.language, facets.languages) && <option value={f.language}>{languageLabel(f.language)}</option>}
            {facets.languages.map(([ext, n]) => (
              <option value={ext} key={ext}>
                {languageLabel(ext)} ({n})
              </option>
            ))}
          </select>
        <select aria-label="Filter by tag" value={f.tag} onChange={(e) => setFilter({ tag: e.currentTarget.value })}>
            <option value="">All tags</option>
            {chosenOnly(f.tag, facets.tags) && <option value={f.tag}>#{f.tag}</option>}
            {facets.tags.map(([tag, n]) => (
              <option value={tag} key={tag}>
                #{tag} ({n})
              </option>
            ))}
          </select>
        <select aria-label="Filter by website" value={f.website} onChange={(e) => setFilter({ website: e.currentTarget.value })}>
            <option value="">All websites</option>
            {chosenOnly(f.website, facets.websites) && <option value={f.website}>{f.website}</option>}
            {facets.websites.map(([host, n]) => (
              <option value={host} key={host}>
                {host} ({n})
              </option>
            ))}
          </select>
        <select aria-label="Sort by" value={f.sort} onChange={(e) => setFilter({ sort: e.currentTarget.value as Filters['sort'] })}>
            <option value="">{f.q ? 'Best match' : 'Recently updated'}</option>
            <option value="updated">Updated</option>
            <option value="created">Created</option>
            <option value="score">{f.q ? 'Score' : 'Most used'}</option>
          </select>
      </div>
      <p class="list-count" aria-live="polite">
        {library.error.value ? (
          <span class="error">{library.error.value}</span>
        ) : total === undefined ? (
          'Loading…'
        ) : f.q || f.language || f.tag || f.website ? (
          `${list.length} of ${total} ${total === 1 ? 'asset' : 'assets'}${library.searching.value ? ' · searching…' : ''}`
        ) : (
          `${total} ${total === 1 ? 'asset' : 'assets'}`
        )}
      </p>
      {selected.value.size > 0 && (
        <div class="selection-bar" role="group" aria-label="Selection">
          <span>{selected.value.size} selected</span>
          <button type="button" onClick={() => navigate({ view: 'ask', assets: [...selected.value] })}>
            Ask about these
          </button>
          <button type="button" class="secondary" onClick={() => (selected.value = new Set())}>
            Clear
          </button>
        </div>
      )}
      <div class="list-scroller" ref={scroller}>
        {total === 0 && !f.q ? <EmptyLibrary /> : null}
        <ul aria-label="Library" class="rows" style={{ height: `${Math.max(virtual.getTotalSize(), 1)}px` }} onKeyDown={onListKey}>
          {items.map((item) => {
            const row = list[item.index]!;
            return (
              <Row
                key={row.id}
                row={row}
                index={item.index}
                size={list.length}
                top={item.start}
                open={row.id === openId}
                checked={selected.value.has(row.id)}
                onCheck={(on) => {
                  const next = new Set(selected.value);
                  if (on) next.add(row.id);
                  else next.delete(row.id);
                  selected.value = next;
                }}
                preview={library.previews.value.get(row.id)}
              />
            );
          })}
        </ul>
      </div>
    </section>
  );
}

/** A filter value from the URL that the counted choices do not (yet) list: still shown as chosen. */
function chosenOnly(value: string, choices: [string, number][]): boolean {
  return value !== '' && !choices.some(([v]) => v === value);
}

function Row(props: {
  row: LibraryRow;
  index: number;
  size: number;
  top: number;
  open: boolean;
  checked: boolean;
  onCheck: (on: boolean) => void;
  preview: string | undefined;
}) {
  const { row, index, size, top, open, preview } = props;
  const name = row.name || 'Untitled';
  return (
    <li
      class={open ? 'row open' : 'row'}
      data-index={index}
      aria-setsize={size}
      aria-posinset={index + 1}
      style={{ transform: `translateY(${top}px)`, height: `${ROW_HEIGHT}px` }}
    >
      <input type="checkbox" class="row-check" aria-label={`Select ${name}`} checked={props.checked} onChange={(e) => props.onCheck(e.currentTarget.checked)} />
      <button
        type="button"
        class="row-open"
        aria-current={open ? 'true' : undefined}
        onClick={() => navigate({ view: 'asset', id: row.id })}
      >
        {name}
      </button>
      <span class="row-meta">
        <span class={`lang lang-${row.generic.toLowerCase()}`}>{row.generic === 'IMAGE' ? 'Image' : languageLabel(row.language)}</span>
        <time dateTime={new Date(row.updated).toISOString()}>{timeAgo(row.updated)}</time>
      </span>
      <pre class="row-preview" aria-hidden={preview === undefined ? 'true' : undefined}>
        {preview ?? ''}
      </pre>
      {row.tags.length > 0 && (
        <span class="row-tags">
          {row.tags.slice(0, 4).map((t) => (
            <span class="chip" key={t}>
              #{t}
            </span>
          ))}
        </span>
      )}
    </li>
  );
}

function EmptyLibrary() {
  return (
    <div class="empty">
      <h2>Your library is empty</h2>
      <p>
        Paste code anywhere on this page, drop files onto it, or press <kbd>n</kbd> for a new snippet.
      </p>
    </div>
  );
}
