import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Asset } from '../../client/api.ts';
import { copyAsset, deleteAsset, exportAsset } from '../actions.ts';
import { bytesOf, descriptionOf, isImage, languageOfAsset, mimeOf, originalFormat, textOf } from '../asset-content.ts';
import { CodeBlock } from '../components/code-block.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LabelEditor } from '../components/label-editor.tsx';
import { dateTime, epochOf, timeAgo } from '../format.ts';
import { languageLabel } from '../languages.ts';
import { messageOf } from '../library-state.ts';
import { hrefOf, navigate } from '../router.ts';
import { useSession, type Session } from '../session.ts';
import { useAsset } from '../use-asset.ts';
import { useLoaded } from '../use-loaded.ts';

/** One asset: its name, code (highlighted) or image, labels, annotations, formats, activity and related assets. */
export function AssetView({ id }: { id: string }) {
  const session = useSession();
  const { asset, error, gone } = useAsset(id);
  const [confirming, setConfirming] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);

  if (gone) {
    return (
      <article class="asset">
        <h2 tabIndex={-1}>Deleted</h2>
        <p>This asset was deleted{asset ? ` (“${asset.name || 'Untitled'}”)` : ''}.</p>
        <a href={hrefOf({ view: 'library' })}>Back to the library</a>
      </article>
    );
  }
  if (error) return <p class="error" role="alert">Could not open the asset: {error}</p>;
  if (!asset) return <p class="loading">Loading…</p>;

  const language = languageOfAsset(asset);
  const text = textOf(asset);
  const description = descriptionOf(asset);
  const notes = asset.annotations?.iterable.filter((a) => a.type !== 'DESCRIPTION') ?? [];
  const name = asset.name || 'Untitled';

  return (
    <article class="asset" aria-labelledby="asset-title">
      <header class="asset-header">
        <div>
          <h2 id="asset-title" tabIndex={-1}>{name}</h2>
          <p class="asset-meta">
            <span class="lang">{isImage(asset) ? 'Image' : languageLabel(language)}</span>
            <span>Updated <time dateTime={new Date(epochOf(asset.updated.value)).toISOString()}>{timeAgo(epochOf(asset.updated.value))}</time></span>
            <span>{originalFormat(asset)?.bytes.readable}</span>
          </p>
        </div>
        <div class="toolbar" role="toolbar" aria-label="Asset actions">
          <button type="button" onClick={() => navigate({ view: 'edit', id })} aria-keyshortcuts="e">
            Edit
          </button>
          {text !== undefined && (
            <button type="button" onClick={() => void copyAsset(session, asset)}>
              Copy
            </button>
          )}
          <ExportMenu open={exportOpen} setOpen={setExportOpen} onExport={(type) => void exportAsset(session, asset, type)} />
          <button type="button" onClick={() => askAbout(session, id)}>
            Ask about this
          </button>
          <button type="button" class="danger-outline" onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      </header>

      {description && <p class="description">{description}</p>}

      {isImage(asset) ? <ImageOf asset={asset} /> : text !== undefined ? <CodeBlock code={text} language={language} /> : <p>No text content.</p>}

      <div class="asset-details">
        <section aria-labelledby="tags-title">
          <h3 id="tags-title">Tags</h3>
          <Tags session={session} asset={asset} />
        </section>
        <section aria-labelledby="websites-title">
          <h3 id="websites-title">Websites</h3>
          <Websites session={session} asset={asset} />
        </section>
        {notes.length > 0 && (
          <section aria-labelledby="notes-title">
            <h3 id="notes-title">Annotations</h3>
            <ul class="notes">
              {notes.map((a) => (
                <li key={a.id}>
                  <span class="note-type">{a.type.toLowerCase()}</span> {a.text}
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="formats-title">
          <h3 id="formats-title">Formats</h3>
          <ul class="formats">
            {asset.formats.iterable.map((f) => (
              <li key={f.id}>
                {languageLabel(f.classification.specific)} · {f.classification.generic.toLowerCase()} · {f.bytes.readable}
                {f.id === asset.original.id ? ' · original' : ''}
              </li>
            ))}
          </ul>
        </section>
        <Activity session={session} id={id} updated={epochOf(asset.updated.value)} />
        <Related session={session} id={id} updated={epochOf(asset.updated.value)} />
      </div>

      {confirming && (
        <ConfirmDialog title={`Delete “${name}”?`} confirm="Delete" onClose={() => setConfirming(false)} onConfirm={() => void deleteAsset(session, asset)}>
          <p>The asset and its formats, annotations and activity are removed. You can undo this while the page is open.</p>
        </ConfirmDialog>
      )}
    </article>
  );
}

/** Ask about the asset, or about the part of its code the user selected. */
function askAbout(session: Session, id: string): void {
  const selection = document.getSelection();
  const code = document.querySelector('.asset pre.code');
  const text = selection && code && !selection.isCollapsed && code.contains(selection.anchorNode) ? selection.toString() : '';
  session.askSnippet.value = text.trim() ? text : undefined;
  navigate({ view: 'ask', assets: [id] });
}

/** "Export" opens a small menu of "Markdown" and "HTML"; Escape or leaving it closes it. */
function ExportMenu({ open, setOpen, onExport }: { open: boolean; setOpen: (open: boolean) => void; onExport: (type: 'MD' | 'HTML') => void }) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) first.current?.focus();
  }, [open]);
  const choose = (type: 'MD' | 'HTML') => {
    setOpen(false);
    onExport(type);
  };
  return (
    <div
      class="menu"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          e.preventDefault();
          setOpen(false);
        }
      }}
      onFocusOut={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button type="button" aria-expanded={open} aria-controls="export-menu" onClick={() => setOpen(!open)}>
        Export
      </button>
      {open && (
        <div id="export-menu" class="menu-popup">
          <button type="button" ref={first} onClick={() => choose('MD')}>
            Markdown
          </button>
          <button type="button" onClick={() => choose('HTML')}>
            HTML
          </button>
        </div>
      )}
    </div>
  );
}

function ImageOf({ asset }: { asset: Asset }) {
  const url = useMemo(() => {
    const bytes = bytesOf(asset);
    return bytes ? URL.createObjectURL(new Blob([bytes as BlobPart], { type: mimeOf(languageOfAsset(asset)) })) : undefined;
  }, [asset]);
  useEffect(() => () => url && URL.revokeObjectURL(url), [url]);
  return url ? <img class="asset-image" src={url} alt={asset.name || 'Image asset'} /> : <p>No image data.</p>;
}

function Tags({ session, asset }: { session: Session; asset: Asset }) {
  const tags = asset.tags?.iterable ?? [];
  return (
    <LabelEditor
      noun="tag"
      placeholder="Add a tag…"
      items={tags.map((t) => ({ id: t.id, label: t.text }))}
      suggestions={async () => (await session.api.tags()).iterable.map((t) => t.text)}
      onAdd={async (text) => {
        try {
          await session.api.addTag(asset.id, text.replace(/^#/, ''));
        } catch (error) {
          session.notify({ message: `Could not add the tag: ${messageOf(error)}`, error: true });
        }
      }}
      onRemove={async (tag) => {
        await session.api.removeTag(asset.id, tag).catch((error) => session.notify({ message: `Could not remove the tag: ${messageOf(error)}`, error: true }));
      }}
    />
  );
}

function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function Websites({ session, asset }: { session: Session; asset: Asset }) {
  const websites = asset.websites?.iterable ?? [];
  return (
    <LabelEditor
      noun="website"
      type="url"
      placeholder="https://…"
      items={websites.map((w) => ({ id: w.id, label: w.name || w.url, href: safeHref(w.url) }))}
      suggestions={async () => (await session.api.websites()).iterable.map((w) => w.url)}
      onAdd={async (url) => {
        const href = safeHref(url);
        if (!href) {
          session.notify({ message: 'A website is an http:// or https:// address.', error: true });
          return;
        }
        await session.api.addWebsite(asset.id, href, new URL(href).host).catch((error) => session.notify({ message: `Could not add the website: ${messageOf(error)}`, error: true }));
      }}
      onRemove={async (website) => {
        await session.api.removeWebsite(asset.id, website).catch((error) => session.notify({ message: `Could not remove the website: ${messageOf(error)}`, error: true }));
      }}
    />
  );
}

function Activity({ session, id, updated }: { session: Session; id: string; updated: number }) {
  const events = useLoaded(
    async () =>
      (await session.api.activities(id)).iterable
        .map((a) => ({ id: a.id, label: activityLabel(a.event), when: epochOf(a.created.value) }))
        .sort((a, b) => b.when - a.when)
        .slice(0, 8),
    [id, updated],
    [],
  );
  if (!events?.length) return null;
  return (
    <section aria-labelledby="activity-title">
      <h3 id="activity-title">Activity</h3>
      <ul class="activity">
        {events.map((e) => (
          <li key={e.id}>
            {e.label} <time dateTime={new Date(e.when).toISOString()} title={dateTime(e.when)}>{timeAgo(e.when)}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Asset name updated" from the tracked event's `identifier_description_pair` (`asset_name_updated`). */
function activityLabel(event: unknown): string {
  const pair = (event as { asset?: { identifier_description_pair?: Record<string, unknown> } } | undefined)?.asset?.identifier_description_pair;
  const key = pair ? Object.keys(pair)[0] : undefined;
  if (!key) return 'Activity';
  const words = key.replace(/^asset_/, '').replace(/_/g, ' ');
  return words[0]!.toUpperCase() + words.slice(1);
}

function Related({ session, id, updated }: { session: Session; id: string; updated: number }) {
  const related = useLoaded(async () => (await session.api.related(id)).iterable.filter((a) => a.id !== id).slice(0, 6), [id, updated], []);
  if (!related?.length) return null;
  return (
    <section aria-labelledby="related-title">
      <h3 id="related-title">Related</h3>
      <ul class="related">
        {related.map((a) => (
          <li key={a.id}>
            <a href={hrefOf({ view: 'asset', id: a.id })}>{a.name || 'Untitled'}</a>
            <span class="lang">{languageLabel(languageOfAsset(a))}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
