/**
 * One `FileSource` over any tree of folders and files (the browser's file-system handles, or a map in
 * memory): resolves a path (files.ts syntax), then reads the file or walks the folder, keeping text files
 * only, within FILE_LIMITS. Hosts supply the roots; errors the host's API throws become 4xx naming the path.
 */
import { ApiError } from '../../errors.ts';
import { FILE_LIMITS, parsePath, unreadablePath, type FileSource, type PathFile } from './files.ts';

export interface TreeFile {
  kind: 'file';
  name: string;
  blob(): Promise<Blob>;
}

export interface TreeFolder {
  kind: 'directory';
  name: string;
  /** The entry of that name in this folder, or undefined when there is none. */
  child(name: string): Promise<TreeEntry | undefined>;
  children(): AsyncIterable<TreeEntry>;
}

export type TreeEntry = TreeFile | TreeFolder;

/** Folders a folder walk never enters: dependencies and version-control data, not the user's text. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** Extensions of files that are never text (checked before reading any byte). */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  ('png jpg jpeg gif webp bmp ico tif tiff heic avif psd pdf zip gz tgz bz2 xz 7z rar zst jar war class dex ' +
    'so dll dylib exe bin o a lib obj wasm pyc pyo mp3 mp4 m4a wav flac ogg oga webm mov avi mkv woff woff2 ' +
    'ttf otf eot sqlite sqlite3 db onnx pt pth safetensors npy npz pkl parquet').split(' '),
);

type Limits = typeof FILE_LIMITS;

/** The file's text and size in bytes, or why it is not read as text. */
async function readText(file: TreeFile, limits: Limits): Promise<{ text: string; bytes: number } | { skip: string }> {
  const dot = file.name.lastIndexOf('.');
  if (dot > 0 && BINARY_EXTENSIONS.has(file.name.slice(dot + 1).toLowerCase())) return { skip: 'it is not a text file' };
  const blob = await file.blob();
  if (blob.size > limits.maxFileBytes) return { skip: `it is larger than ${limits.maxFileBytes} bytes` };
  const bytes = new Uint8Array(await blob.arrayBuffer());
  if (bytes.subarray(0, limits.sniffBytes).includes(0)) return { skip: 'it is not a text file' };
  return { text: new TextDecoder().decode(bytes), bytes: bytes.length };
}

/** The 4xx for an error a host's file-system API threw while reading `path`. */
export function hostError(path: string, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name ?? '') : '';
  if (name === 'NotFoundError') return unreadablePath(path, 'it does not exist');
  if (name === 'NotAllowedError' || name === 'SecurityError') return unreadablePath(path, 'the browser does not allow reading it');
  const message = error instanceof Error ? error.message : String(error);
  return unreadablePath(path, `${name || 'error'}: ${message}`);
}

export class TreeFileSource implements FileSource {
  /**
   * `rootOf(root, path)` answers the folder a path's first segment names, or throws (an ApiError naming
   * `path`, such as `unreadablePath`) when there is none or it may not be read.
   */
  constructor(
    private readonly rootOf: (root: string, path: string) => Promise<TreeFolder>,
    private readonly limits: Limits = FILE_LIMITS,
  ) {}

  async read(path: string): Promise<PathFile[]> {
    const parsed = parsePath(path);
    try {
      let entry: TreeEntry = await this.rootOf(parsed.root, path);
      let at = `/${parsed.root}`;
      for (const name of parsed.segments) {
        if (entry.kind !== 'directory') throw unreadablePath(path, `'${at}' is a file, not a folder`);
        const next: TreeEntry | undefined = await entry.child(name);
        if (!next) throw unreadablePath(path, `'${at}' has no entry named '${name}'`);
        entry = next;
        at += `/${name}`;
      }
      if (entry.kind === 'directory') return await this.walk(entry, parsed.path);
      const read = await readText(entry, this.limits);
      if ('skip' in read) throw unreadablePath(path, read.skip);
      return [{ path: parsed.path, text: read.text }];
    } catch (error) {
      throw hostError(path, error);
    }
  }

  /** Every text file under `folder`, depth first in name order, within the limits. */
  private async walk(folder: TreeFolder, folderPath: string): Promise<PathFile[]> {
    const files: PathFile[] = [];
    let bytes = 0;
    const visit = async (current: TreeFolder, at: string): Promise<boolean> => {
      const entries: TreeEntry[] = [];
      for await (const entry of current.children()) entries.push(entry);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const path = `${at}/${entry.name}`;
        if (entry.kind === 'directory') {
          if (SKIPPED_FOLDERS.has(entry.name)) continue;
          if (!(await visit(entry, path))) return false;
          continue;
        }
        const read = await readText(entry, this.limits);
        if ('skip' in read) continue;
        if (bytes + read.bytes > this.limits.maxFolderBytes) return false;
        bytes += read.bytes;
        files.push({ path, text: read.text });
        if (files.length >= this.limits.maxFiles) return false;
      }
      return true;
    };
    await visit(folder, folderPath);
    return files;
  }
}
