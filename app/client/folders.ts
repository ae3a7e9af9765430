/**
 * Granted folders for `/qgpt/relevance` paths: the page hands the worker a folder the user chose with the
 * File System Access API, under a name; paths `/<name>/...` then read it (worker/core/qgpt/files/files.ts).
 *
 * ```ts
 * import { pickFolder, listFolders, removeFolder } from './client/index.ts';
 * button.onclick = () => pickFolder();             // user gesture: the picker, then registration
 * // POST /api/qgpt/relevance {query, paths: ['/<folder name>/src']}
 * ```
 *
 * A handle cannot travel in a fetch body, so registration goes over the RPC channel (a handle is
 * structured-clonable over postMessage) and the worker keeps it in IndexedDB, where it survives worker
 * restarts. The worker cannot show a permission prompt, so the page asks for read permission first; when
 * a later path answers that the permission lapsed (say, after the browser restarts), register again.
 */
import { rpc } from './rpc.ts';

import type { GrantedFolder } from '../../worker/core/qgpt/files/folders.ts';

/** A registered folder, as `GET /api/folders` lists it. */
export type { GrantedFolder };

type PermissionMode = { mode: 'read' | 'readwrite' };
/** Permission methods Chromium has on handles (not in TypeScript's DOM lib). */
interface PermissionHandle {
  queryPermission?(descriptor: PermissionMode): Promise<PermissionState>;
  requestPermission?(descriptor: PermissionMode): Promise<PermissionState>;
}

/**
 * Asks for read permission on `handle` (a prompt may need a user gesture) and stores it in the worker
 * under `name` (default the folder's own name), replacing a folder registered under that name.
 * Rejects when permission is refused or the name is not allowed (empty, `opfs`, with a slash).
 */
export async function registerFolder(handle: FileSystemDirectoryHandle, name: string = handle.name): Promise<GrantedFolder> {
  const permissions = handle as unknown as PermissionHandle;
  const state = (await permissions.queryPermission?.({ mode: 'read' })) ?? 'granted';
  if (state !== 'granted' && (await permissions.requestPermission?.({ mode: 'read' })) !== 'granted') {
    throw new Error(`tessera: read permission for the folder '${handle.name}' was not granted`);
  }
  return rpc().registerFolder(name, handle);
}

/** Shows the folder picker (call it from a user gesture) and registers the chosen folder under its name. */
export async function pickFolder(name?: string): Promise<GrantedFolder> {
  const picker = (window as unknown as { showDirectoryPicker?: (o: PermissionMode) => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker;
  if (!picker) throw new Error('tessera: this browser has no folder picker (showDirectoryPicker)');
  const handle = await picker({ mode: 'read' });
  return registerFolder(handle, name);
}

/** The registered folders (= GET /api/folders). */
export async function listFolders(): Promise<GrantedFolder[]> {
  return (await rpc().listFolders()).iterable;
}

/** Forgets a registered folder (= DELETE /api/folders/{name}). */
export function removeFolder(name: string): Promise<void> {
  return rpc().removeFolder(name);
}
