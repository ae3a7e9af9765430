import { invalid } from '../errors.ts';
import type {
  ClassificationGenericEnum,
  ClassificationSpecificEnum,
  FileMetadata,
  FragmentMetadata,
  SeededFormat,
} from '../model/schemas.ts';
import { isClassificationSpecific } from '../model/schemas.ts';

/** The payload of a seeded format, read into one shape whatever slot and encoding it came in. */
export interface SeededContent {
  kind: 'fragment' | 'file';
  /** The content as text, when it is text (also when it arrived as UTF-8 bytes). */
  text?: string;
  /** The raw bytes, when it arrived as bytes. */
  bytes?: number[];
  metadata?: FragmentMetadata | FileMetadata;
  /** The size in bytes of what is stored. */
  size: number;
}

const encoder = new TextEncoder();

export function readSeededContent(format: SeededFormat): SeededContent {
  const slot = format.fragment ? 'fragment' : format.file ? 'file' : undefined;
  if (!slot) throw invalid('The seed has no content: set asset.format.fragment or asset.format.file.');
  const source = format[slot]!;
  const metadata = source.metadata ?? undefined;
  const str = source.string;
  if (str && (str.raw != null || str.base64 != null || str.base64_url != null || str.data_url != null)) {
    const text = str.raw ?? decodeBase64Text(str.base64 ?? str.base64_url ?? dataUrlPayload(str.data_url!));
    return { kind: slot, text, metadata, size: encoder.encode(text).length };
  }
  const bytes = source.bytes?.raw;
  if (bytes) {
    if (!bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      throw invalid(`asset.format.${slot}.bytes.raw must hold integers from 0 to 255.`);
    }
    const image = imageType(bytes);
    return { kind: slot, bytes, text: image ? undefined : utf8(bytes), metadata, size: bytes.length };
  }
  throw invalid(`asset.format.${slot} has neither string.raw nor bytes.raw.`);
}

function dataUrlPayload(url: string): string {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0) throw invalid('string.data_url is not a data: URL.');
  return url.slice(comma + 1);
}

function decodeBase64Text(b64: string): string {
  try {
    const binary = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    throw invalid('string.base64 is not valid base64.');
  }
}

/** Decodes bytes that are valid UTF-8 text; binary data gives undefined. */
function utf8(bytes: number[]): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

const IMAGE_SIGNATURES: [ClassificationSpecificEnum, number[], number?][] = [
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  ['bmp', [0x42, 0x4d]],
  ['ico', [0x00, 0x00, 0x01, 0x00]],
  ['webp', [0x57, 0x45, 0x42, 0x50], 8],
  ['tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['tiff', [0x4d, 0x4d, 0x00, 0x2a]],
];

/** The image type of some bytes, from their signature. */
export function imageType(bytes: ArrayLike<number>): ClassificationSpecificEnum | undefined {
  for (const [type, signature, offset = 0] of IMAGE_SIGNATURES) {
    if (signature.every((b, i) => bytes[offset + i] === b)) return type;
  }
  return undefined;
}

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'jpe', 'gif', 'bmp', 'ico', 'webp', 'tif', 'tiff', 'svgz']);
const TEXT_EXTENSIONS = new Set(['txt', 'text', 'md', 'mdown', 'mdwn', 'markdown', 'markdn', 'log', 'rtf', 'doc', 'docx', 'pdf']);

/** The generic kind that goes with a specific classification. */
export function genericOf(specific: ClassificationSpecificEnum): ClassificationGenericEnum {
  if (IMAGE_EXTENSIONS.has(specific)) return 'IMAGE';
  if (TEXT_EXTENSIONS.has(specific)) return 'TEXT';
  if (specific === 'UNKNOWN') return 'UNKNOWN';
  return 'CODE';
}

/** The classification a file name implies, from its extension or its whole name (`Dockerfile`). */
export function specificOfFilename(name: string | undefined | null): ClassificationSpecificEnum | undefined {
  if (!name) return undefined;
  const base = name.split(/[\\/]/).pop()!;
  if (isClassificationSpecific(base)) return base;
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = base.slice(dot + 1);
  if (isClassificationSpecific(ext)) return ext;
  const lower = ext.toLowerCase();
  return isClassificationSpecific(lower) ? lower : undefined;
}

export function readableSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function bytesToBase64(bytes: readonly number[]): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.slice(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of a standard base64 string (throws on one that is not). */
export function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
