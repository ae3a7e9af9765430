/**
 * The browser's FileSource (syntax and limits in worker/core/qgpt/files/files.ts): `/opfs/...` reads the
 * origin-private file system (`navigator.storage.getDirectory()`, available in a service worker);
 * `/<name>/...` reads the folder handle the page registered under that name (the store's `folders`
 * collection, see app/client/folders.ts). A service worker cannot show a permission prompt, so a granted
 * folder whose read permission has lapsed (`queryPermission` is not 'granted') is unreadable, and the
 * message asks the page to register it again (the page can prompt).
 */
import { TreeFileSource, type TreeEntry, type TreeFolder } from '../core/qgpt/files/file-tree.ts';
import { OPFS_ROOT, unreadablePath } from '../core/qgpt/files/files.ts';
import type { Store } from '../core/store/store.ts';

/** The parts of the File System Access API used here (not all are in TypeScript's WebWorker lib). */
interface DirectoryHandle {
  kind: 'directory';
  name: string;
  getDirectoryHandle(name: string): Promise<DirectoryHandle>;
  getFileHandle(name: string): Promise<FileHandle>;
  values(): AsyncIterableIterator<DirectoryHandle | FileHandle>;
  queryPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}

interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}

/** The error names that mean "no entry of that kind under that name". */
const ABSENT = new Set(['NotFoundError', 'TypeMismatchError']);
const isAbsent = (error: unknown) => ABSENT.has(String((error as { name?: unknown })?.name));

function entryOf(handle: DirectoryHandle | FileHandle): TreeEntry {
  return handle.kind === 'file' ? { kind: 'file', name: handle.name, blob: () => handle.getFile() } : folderOf(handle);
}

function folderOf(handle: DirectoryHandle, name = handle.name): TreeFolder {
  return {
    kind: 'directory',
    name,
    async child(child) {
      try {
        return folderOf(await handle.getDirectoryHandle(child));
      } catch (error) {
        if (!isAbsent(error)) throw error;
      }
      try {
        return entryOf(await handle.getFileHandle(child));
      } catch (error) {
        if (isAbsent(error)) return undefined;
        throw error;
      }
    },
    async *children() {
      for await (const entry of handle.values()) yield entryOf(entry);
    },
  };
}

export class BrowserFileSource extends TreeFileSource {
  constructor(store: Store) {
    super(async (root, path) => {
      if (root === OPFS_ROOT) return folderOf((await navigator.storage.getDirectory()) as unknown as DirectoryHandle, OPFS_ROOT);
      const record = await store.read((tx) => tx.get('folders', root), ['folders']);
      if (!record) {
        const names = (await store.read((tx) => tx.getAll('folders'), ['folders'])).map((f) => f.id);
        const known = names.length ? `registered: ${names.join(', ')}` : 'none is registered';
        throw unreadablePath(path, `no folder named '${root}' is registered (${known}); use /${OPFS_ROOT}/... or register the folder from the page`);
      }
      const handle = record.handle as DirectoryHandle;
      if (typeof handle?.getDirectoryHandle !== 'function') {
        throw unreadablePath(path, `what was registered as '${root}' is not a folder handle; register the folder again`);
      }
      const permission = (await handle.queryPermission?.({ mode: 'read' })) ?? 'granted';
      if (permission !== 'granted') {
        throw unreadablePath(path, `permission for folder '${root}' is not granted; ask the page to call registerFolder again`);
      }
      try {
        await handle.values()[Symbol.asyncIterator]().next(); // a folder deleted since it was registered throws here
      } catch (error) {
        if (isAbsent(error)) throw unreadablePath(path, `the folder registered as '${root}' no longer exists`);
        throw error;
      }
      return folderOf(handle, root);
    });
  }
}
