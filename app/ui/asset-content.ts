import { APP_APPLICATION, type Asset, type ClassificationSpecificEnum, type Seed } from '../client/api.ts';

/** Reading and changing the parts of a wire Asset the views show (its original format's content, its description and notes). */

type Format = Asset['formats']['iterable'][number];

export function originalFormat(asset: Asset): Format | undefined {
  return asset.formats.iterable.find((f) => f.id === asset.original.id) ?? asset.formats.iterable[0];
}

/** The original format's text, or undefined for binary content (images). */
export function textOf(asset: Asset): string | undefined {
  const format = originalFormat(asset);
  const slot = format?.fragment ?? format?.file;
  return slot?.string?.raw ?? undefined;
}

/** The original format's bytes (images and other files stored as bytes). */
export function bytesOf(asset: Asset): Uint8Array | undefined {
  const raw = originalFormat(asset)?.file?.bytes?.raw ?? originalFormat(asset)?.fragment?.bytes?.raw;
  return raw ? Uint8Array.from(raw) : undefined;
}

export function languageOfAsset(asset: Asset): ClassificationSpecificEnum | undefined {
  return originalFormat(asset)?.classification.specific;
}

export function isImage(asset: Asset): boolean {
  return originalFormat(asset)?.classification.generic === 'IMAGE';
}

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', bmp: 'image/bmp', ico: 'image/x-icon', tif: 'image/tiff', tiff: 'image/tiff' };
export function mimeOf(ext: string | undefined): string {
  return (ext && MIME[ext]) || 'application/octet-stream';
}

export function descriptionOf(asset: Asset): string {
  return asset.annotations?.iterable.find((a) => a.type === 'DESCRIPTION')?.text ?? '';
}

type Annotation = NonNullable<Asset['annotations']>['iterable'][number];

/** An annotation other than the description, as the editor shows it (new ones have no id yet). */
export interface Note {
  id?: string;
  type: Annotation['type'];
  text: string;
}

export function notesOf(asset: Asset): Note[] {
  return (asset.annotations?.iterable ?? []).filter((a) => a.type !== 'DESCRIPTION').map((a) => ({ id: a.id, type: a.type, text: a.text }));
}

/**
 * The asset with a new name, text, description and notes, as `POST /asset/update` takes it (the list of
 * annotations sent is the new list: notes left out are removed, notes without text dropped).
 */
export function withEdits(asset: Asset, edits: { name: string; text: string; description: string; notes?: Note[] }, now = new Date()): Asset {
  const original = originalFormat(asset);
  const formats = asset.formats.iterable.map((f) => {
    if (f.id !== original?.id || textOf(asset) === edits.text) return f;
    const slot = f.file ? 'file' : 'fragment';
    return { ...f, [slot]: { ...f[slot], string: { raw: edits.text } } };
  });
  const existing = asset.annotations?.iterable.find((a) => a.type === 'DESCRIPTION');
  const stamp = { value: now.toISOString() };
  const byId = new Map((asset.annotations?.iterable ?? []).map((a) => [a.id, a]));
  const others: Annotation[] = edits.notes
    ? edits.notes
        .filter((n) => n.text.trim() !== '')
        .map((n) => {
          const before = n.id ? byId.get(n.id) : undefined;
          return before ? { ...before, type: n.type, text: n.text } : { id: crypto.randomUUID(), type: n.type, text: n.text, created: stamp, updated: stamp };
        })
    : (asset.annotations?.iterable.filter((a) => a.type !== 'DESCRIPTION') ?? []);
  const description = edits.description.trim()
    ? [existing ? { ...existing, text: edits.description } : { id: crypto.randomUUID(), type: 'DESCRIPTION' as const, text: edits.description, created: stamp, updated: stamp }]
    : [];
  return { ...asset, name: edits.name, formats: { ...asset.formats, iterable: formats }, annotations: { iterable: [...others, ...description] } };
}

/** A seed that creates the asset again (Undo of a delete): content, name, language, tags, websites, annotations. */
export function seedOf(asset: Asset): Seed {
  const format = originalFormat(asset);
  const text = textOf(asset);
  const bytes = bytesOf(asset);
  const slot = format?.file ? 'file' : 'fragment';
  const payload = text !== undefined ? { string: { raw: text } } : { bytes: { raw: Array.from(bytes ?? []) } };
  return {
    asset: {
      application: APP_APPLICATION,
      format: {
        [slot]: payload,
        ...(format && { classification: { specific: format.classification.specific, generic: format.classification.generic } }),
      },
      metadata: {
        ...(asset.name !== undefined && { name: asset.name }),
        tags: asset.tags?.iterable.map((t) => ({ text: t.text })) ?? [],
        websites: asset.websites?.iterable.map((w) => ({ url: w.url, name: w.name })) ?? [],
        annotations: asset.annotations?.iterable.map((a) => ({ type: a.type, text: a.text })) ?? [],
      },
    },
  } as Seed;
}

/** A seed of a text snippet or a file's bytes, for capture (New, paste, drop). */
export function textSeed(text: string, options: { name?: string; language?: ClassificationSpecificEnum } = {}): Seed {
  return {
    asset: {
      application: APP_APPLICATION,
      format: { fragment: { string: { raw: text } }, ...(options.language && { classification: { specific: options.language } }) },
      ...(options.name && { metadata: { name: options.name } }),
    },
  } as Seed;
}

export function bytesSeed(bytes: Uint8Array, name: string): Seed {
  return {
    asset: {
      application: APP_APPLICATION,
      format: { file: { bytes: { raw: Array.from(bytes) } } },
      metadata: { name },
    },
  } as Seed;
}
