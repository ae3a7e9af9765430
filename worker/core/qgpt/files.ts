/**
 * The `paths` query space of `/qgpt/relevance`: text files a path names, in a host's file system. In the
 * browser a path's first segment is `opfs` (the origin-private file system) or the name of a folder the
 * user granted with the File System Access API (see worker/browser/file-source.ts); Node tests use
 * `MemoryFileSource`.
 */
import { ApiError } from '../errors.ts';

export interface PathFile {
  /** The file's full path, as the caller would name it. */
  path: string;
  text: string;
}

export interface FileSource {
  /**
   * The text files a path names: the file itself, or every text file under a folder (recursively, capped).
   * A path that cannot be read throws `unreadablePath(path, why)`.
   */
  read(path: string): Promise<PathFile[]>;
}

/** The 4xx for a path that cannot be read; the message names the path. */
export function unreadablePath(path: string, why: string): ApiError {
  return new ApiError(404, 'path_unreadable', `The path '${path}' cannot be read: ${why}.`);
}

/** A host without a file system: every path is unreadable. */
export const NO_FILES: FileSource = {
  async read(path) {
    throw unreadablePath(path, 'this host has no file system');
  },
};
