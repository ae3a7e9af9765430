import type { ServiceContext } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import type { Asset, ExportedAsset, Format } from '../model/schemas.ts';
import { recordActivity } from './activity.ts';
import { bytesToBase64 } from './content.ts';
import { STORE_ASSET_SCOPE } from './create.ts';
import { assembleAsset, requireAsset } from './read.ts';

export const EXPORT_TYPES = ['MD', 'HTML'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function parseExportType(value: string | undefined): ExportType {
  if (value && (EXPORT_TYPES as readonly string[]).includes(value)) return value as ExportType;
  throw badRequest(`export_type must be one of ${EXPORT_TYPES.join(', ')}; got ${JSON.stringify(value ?? null)}.`, 'invalid_export_type');
}

/** The asset as one complete Markdown or HTML document; records an export activity. */
export function exportAsset(ctx: ServiceContext, id: string, type: ExportType): Promise<ExportedAsset> {
  return commit(ctx, async (tx, log) => {
    const record = await requireAsset(tx, id);
    const asset = await assembleAsset(tx, record);
    await recordActivity(ctx, tx, record, 'exported');
    await tx.put('assets', record);
    log.updated(id);
    const document = type === 'MD' ? markdown(asset) : html(asset);
    return { name: asset.name ?? '', description: description(asset), created: asset.created, raw: { string: { raw: document } } };
  }, STORE_ASSET_SCOPE);
}

function description(asset: Asset): string {
  const annotations = asset.annotations?.iterable ?? [];
  return (annotations.find((a) => a.type === 'DESCRIPTION') ?? annotations[0])?.text ?? '';
}

/** Fence labels for the languages whose extension is not the name Markdown renderers know. */
const LANGUAGE_LABELS: Record<string, string> = {
  py: 'python', ts: 'typescript', js: 'javascript', rs: 'rust', rb: 'ruby', cs: 'csharp', sh: 'bash',
  kt: 'kotlin', md: 'markdown', yml: 'yaml', ps1: 'powershell', hs: 'haskell', pl: 'perl', txt: 'text',
};

export function languageLabel(specific: string): string {
  return specific.startsWith('hljs-') ? specific.slice(5) : (LANGUAGE_LABELS[specific] ?? specific);
}

/** Image media subtypes that differ from the file extension. */
const IMAGE_SUBTYPES: Record<string, string> = { jpg: 'jpeg', jpe: 'jpeg', svg: 'svg+xml', svgz: 'svg+xml', ico: 'x-icon', tif: 'tiff' };

interface Body {
  kind: 'code' | 'text' | 'image';
  language: string;
  text?: string;
  dataUrl?: string;
}

function body(asset: Asset): Body {
  const format: Format | undefined = asset.original.reference
    ? asset.formats.iterable.find((f) => f.id === asset.original.id)
    : asset.formats.iterable[0];
  const slot = format?.fragment ?? format?.file;
  const specific = format?.classification.specific ?? 'txt';
  if (format?.classification.generic === 'IMAGE' && slot?.bytes?.raw) {
    const mime = IMAGE_SUBTYPES[specific] ?? specific;
    return { kind: 'image', language: specific, dataUrl: `data:image/${mime};base64,${bytesToBase64(slot.bytes.raw)}` };
  }
  const text = slot?.string?.raw ?? (slot?.bytes?.raw ? new TextDecoder().decode(Uint8Array.from(slot.bytes.raw)) : '');
  const kind = format?.classification.generic === 'CODE' ? 'code' : 'text';
  return { kind, language: languageLabel(specific), text };
}

const tagTexts = (asset: Asset) => (asset.tags?.iterable ?? []).map((t) => t.text);
const websiteLinks = (asset: Asset) => (asset.websites?.iterable ?? []).map((w) => ({ name: w.name, url: w.url }));

/**
 * A link target an export may make clickable: http, https or mailto only (a website URL may be any
 * string, `javascript:` included), as the URL parser normalised it; undefined for anything else.
 */
export function safeHref(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : undefined;
}

/**
 * Text as Markdown shows it literally: inline syntax (emphasis, code, links, raw HTML, tables, an `&` that
 * would start an entity) backslash-escaped anywhere, block syntax (headings, quotes, lists) at the start
 * of a line.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]<>#|~]|&(?=#?\w+;)/g, '\\$&')
    .replace(/^([ \t]*)([+=-]|\d+(?=[.)]))/gm, (_, space: string, mark: string) => `${space}${/\d/.test(mark) ? `${mark}\\` : `\\${mark}`}`);
}

/** Text on one line (a heading, a list item, a code span end at a line break). */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');

/** A code span holding `text` verbatim whatever backticks it contains (on one line). */
function codeSpan(text: string): string {
  const flat = oneLine(text);
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = /^`|`$/.test(flat) ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A website as a Markdown list item: a link when its URL is safe to follow, its URL as text otherwise. */
function markdownLink(link: { name: string; url: string }): string {
  const href = safeHref(link.url);
  const name = escapeMarkdown(oneLine(link.name));
  // An angle-bracket destination ends at '>', and a line break or '<' has no place in it.
  return href ? `- [${name}](<${href.replace(/[<>\\\s]/g, encodeURIComponent)}>)` : `- ${name} (${escapeMarkdown(oneLine(link.url))})`;
}

function markdown(asset: Asset): string {
  const b = body(asset);
  const parts = [`# ${escapeMarkdown(oneLine(asset.name ?? 'Untitled'))}`];
  const about = description(asset);
  if (about) parts.push(escapeMarkdown(about));
  const tags = tagTexts(asset);
  if (tags.length) parts.push(`Tags: ${tags.map(codeSpan).join(', ')}`);
  const links = websiteLinks(asset);
  if (links.length) parts.push(links.map(markdownLink).join('\n'));
  if (b.kind === 'image') parts.push(`![${escapeMarkdown(oneLine(asset.name ?? 'image'))}](${b.dataUrl})`);
  else if (b.kind === 'code') {
    const fence = '`'.repeat(Math.max(3, longestRun(b.text!, '`') + 1));
    parts.push(`${fence}${b.language}\n${b.text}\n${fence}`);
  } else parts.push(b.text!);
  return parts.join('\n\n') + '\n';
}

function longestRun(text: string, char: string): number {
  let best = 0;
  for (const run of text.match(new RegExp(`\\${char}+`, 'g')) ?? []) best = Math.max(best, run.length);
  return best;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(asset: Asset): string {
  const b = body(asset);
  const name = escapeHtml(asset.name ?? 'Untitled');
  const about = description(asset);
  const tags = tagTexts(asset);
  const links = websiteLinks(asset);
  const content =
    b.kind === 'image'
      ? `<img src="${b.dataUrl}" alt="${name}">`
      : b.kind === 'code'
        ? `<pre><code class="language-${escapeHtml(b.language)}">${escapeHtml(b.text!)}</code></pre>`
        : `<div class="text">${escapeHtml(b.text!).replace(/\n/g, '<br>\n')}</div>`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // Whatever a name or text holds, the document runs no script and loads nothing but its own image.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:">`,
    `<title>${name}</title>`,
    '</head>',
    '<body>',
    `<h1>${name}</h1>`,
    about ? `<p class="description">${escapeHtml(about)}</p>` : '',
    tags.length ? `<ul class="tags">${tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '',
    links.length
      ? `<ul class="websites">${links.map((l) => `<li>${htmlLink(l)}</li>`).join('')}</ul>`
      : '',
    content,
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** A website as HTML: a link when its URL is safe to follow, its name and URL as text otherwise. */
function htmlLink(link: { name: string; url: string }): string {
  const href = safeHref(link.url);
  return href ? `<a href="${escapeHtml(href)}">${escapeHtml(link.name)}</a>` : `${escapeHtml(link.name)} (${escapeHtml(link.url)})`;
}
