/**
 * The `paths` query space of `/qgpt/relevance`: text files a path names, in a host's file system.
 *
 * Path syntax: `/opfs/<path inside the origin-private file system>`, or `/<folder>/<path inside it>` for a
 * folder the user granted with the File System Access API and the page registered under the name
 * `<folder>` (`registerFolder()` in app/client/folders.ts; `opfs` is reserved). The leading slash is
 * optional, a trailing slash is allowed; `/opfs` or `/<folder>` alone names the whole folder. A path
 * with an empty name (`a//b`), `.` or `..` is malformed: a 400 naming the path (the request is wrong
 * whatever the file system holds, so it is not a 404).
 *
 * What a path yields (file-tree.ts): a file, its text; a folder, every text file under it, depth first in
 * name order, without `node_modules` and `.git` folders. Binary files (a NUL byte in the first 8 KiB, or a
 * known binary extension) and files over 1 MiB are skipped in a folder, and refused when named; a folder
 * stops at 2,000 files or 20 MiB of text (what lies beyond is skipped silently).
 *
 * Hosts: the browser's `BrowserFileSource` (worker/browser/file-source.ts); `MemoryFileSource`
 * (memory-files.ts) for Node tests.
 */
import { ApiError } from '../../errors.ts';

export interface PathFile {
  /** The file's full path in the canonical form (leading slash): `/opfs/notes/x.py`. */
  path: string;
  text: string;
}

export interface FileSource {
  /**
   * The text files a path names: the file itself, or every text file under a folder (recursively, capped).
   * A path that cannot be read throws `unreadablePath(path, why)`; a malformed one `invalidPath(path, why)`.
   */
  read(path: string): Promise<PathFile[]>;
}

/**
 * The 404 for a path that cannot be read (missing, not text, permission lapsed: the message says which);
 * the message names the path.
 */
export function unreadablePath(path: string, why: string): ApiError {
  return new ApiError(404, 'path_unreadable', `The path '${path}' cannot be read: ${why}.`);
}

/** The 400 for a path that breaks the syntax above; the message names the path. */
export function invalidPath(path: string, why: string): ApiError {
  return new ApiError(400, 'path_invalid', `The path '${path}' is not a valid path: ${why}.`);
}

/** A host without a file system: every path is unreadable. */
export const NO_FILES: FileSource = {
  async read(path) {
    throw unreadablePath(path, 'this host has no file system');
  },
};

/** The root name of the origin-private file system; no granted folder may take it. */
export const OPFS_ROOT = 'opfs';

export const FILE_LIMITS = {
  /** A larger file is skipped (refused when named). */
  maxFileBytes: 1024 * 1024,
  /** A folder yields at most this many files… */
  maxFiles: 2_000,
  /** …and at most this many bytes of text. */
  maxFolderBytes: 20 * 1024 * 1024,
  /** How much of a file is looked at for a NUL byte. */
  sniffBytes: 8 * 1024,
};

export interface ParsedPath {
  /** The canonical form: `/` + root + segments, joined by `/`. */
  path: string;
  /** `opfs` or a granted folder's name. */
  root: string;
  /** The names under the root (empty: the root itself). */
  segments: string[];
}

/** Splits a path into its root and the names under it; throws `invalidPath` when malformed. */
export function parsePath(path: string): ParsedPath {
  let rest = path.startsWith('/') ? path.slice(1) : path;
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  if (rest === '') throw invalidPath(path, `it names no folder; start it with /${OPFS_ROOT}/ or /<registered folder>/`);
  const names = rest.split('/');
  for (const name of names) {
    if (name === '') throw invalidPath(path, 'it has an empty name (two slashes in a row)');
    if (name === '.' || name === '..') throw invalidPath(path, `'${name}' is not allowed in a path`);
  }
  const [root, ...segments] = names as [string, ...string[]];
  return { path: `/${names.join('/')}`, root, segments };
}

/**
 * A granted folder's name as registration accepts it: one non-empty path segment, not `.`, `..` or
 * `opfs`, without `/` or `\`. Returns the reason it is refused, or undefined when it is fine.
 */
export function folderNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'it is empty';
  if (name === '.' || name === '..') return `'${name}' is not a folder name`;
  if (/[/\\]/.test(name)) return 'it contains a slash';
  if (name === OPFS_ROOT) return `'${OPFS_ROOT}' is reserved for the origin-private file system`;
  if (name.length > 255) return 'it is longer than 255 characters';
  return undefined;
}
