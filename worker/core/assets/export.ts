import type { Context } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import type { Asset, ExportedAsset, Format } from '../model/schemas.ts';
import { recordActivity } from './activity.ts';
import { bytesToBase64 } from './content.ts';
import { assembleAsset, requireAsset } from './read.ts';

export const EXPORT_TYPES = ['MD', 'HTML'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function parseExportType(value: string | undefined): ExportType {
  if (value && (EXPORT_TYPES as readonly string[]).includes(value)) return value as ExportType;
  throw badRequest(`export_type must be one of ${EXPORT_TYPES.join(', ')}; got ${JSON.stringify(value ?? null)}.`, 'invalid_export_type');
}

/** The asset as one complete Markdown or HTML document; records an export activity. */
export function exportAsset(ctx: Context, id: string, type: ExportType): Promise<ExportedAsset> {
  return commit(ctx, async (tx, log) => {
    const record = await requireAsset(tx, id);
    const asset = await assembleAsset(tx, record);
    await recordActivity(ctx, tx, record, 'exported');
    await tx.put('assets', record);
    log.updated(id);
    const document = type === 'MD' ? markdown(asset) : html(asset);
    return { name: asset.name ?? '', description: description(asset), created: asset.created, raw: { string: { raw: document } } };
  });
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
    const mime = specific === 'jpg' ? 'jpeg' : specific;
    return { kind: 'image', language: specific, dataUrl: `data:image/${mime};base64,${bytesToBase64(slot.bytes.raw)}` };
  }
  const text = slot?.string?.raw ?? (slot?.bytes?.raw ? new TextDecoder().decode(Uint8Array.from(slot.bytes.raw)) : '');
  const kind = format?.classification.generic === 'CODE' ? 'code' : 'text';
  return { kind, language: languageLabel(specific), text };
}

const tagTexts = (asset: Asset) => (asset.tags?.iterable ?? []).map((t) => t.text);
const websiteLinks = (asset: Asset) => (asset.websites?.iterable ?? []).map((w) => ({ name: w.name, url: w.url }));

function markdown(asset: Asset): string {
  const b = body(asset);
  const parts = [`# ${asset.name ?? 'Untitled'}`];
  const about = description(asset);
  if (about) parts.push(about);
  const tags = tagTexts(asset);
  if (tags.length) parts.push(`Tags: ${tags.map((t) => `\`${t}\``).join(', ')}`);
  const links = websiteLinks(asset);
  if (links.length) parts.push(links.map((l) => `- [${l.name}](${l.url})`).join('\n'));
  if (b.kind === 'image') parts.push(`![${asset.name ?? 'image'}](${b.dataUrl})`);
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
    `<title>${name}</title>`,
    '</head>',
    '<body>',
    `<h1>${name}</h1>`,
    about ? `<p class="description">${escapeHtml(about)}</p>` : '',
    tags.length ? `<ul class="tags">${tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '',
    links.length
      ? `<ul class="websites">${links.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.name)}</a></li>`).join('')}</ul>`
      : '',
    content,
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}
