/**
 * Granted folders: File System Access handles the page registered under a name, kept in the `folders`
 * collection, so that `/qgpt/relevance` paths `/<name>/...` reach them (files.ts). Registration carries a
 * handle, which only a structured-clone channel can (the RPC path: `registerFolder` in services.ts);
 * listing and removal are also routes (routes/folders.ts). Tessera's own API, not the desktop service's.
 */
import type { ServiceContext } from '../../deps.ts';
import { ApiError, invalid } from '../../errors.ts';
import { keyedWrite } from '../../idempotency.ts';
import { folderNameProblem } from './files.ts';

/** A registered folder as the API answers it. */
export interface GrantedFolder {
  name: string;
  /** The path prefix that reaches it: `/<name>`. */
  path: string;
  created: string;
  /**
   * Whether the folder may be read now (the handle's `queryPermission`), where the host's handles can
   * tell: `prompt` means the permission lapsed (say, the browser restarted) and the page must register
   * the folder again.
   */
  permission?: 'granted' | 'prompt' | 'denied';
}

export interface GrantedFolders {
  iterable: GrantedFolder[];
}

const describe = (id: string, created: string): GrantedFolder => ({ name: id, path: `/${id}`, created });

/** Every registered folder, by name, with its permission state where the handle can tell. */
export async function listFolders(ctx: ServiceContext): Promise<GrantedFolders> {
  const records = await ctx.store.read((tx) => tx.getAll('folders'), ['folders']);
  const sorted = records.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { iterable: await Promise.all(sorted.map(async (r) => ({ ...describe(r.id, r.created), ...(await permissionOf(r.handle)) }))) };
}

/** A File System Access handle's read permission; nothing for handles without `queryPermission` (tests, other hosts). */
async function permissionOf(handle: unknown): Promise<Pick<GrantedFolder, 'permission'>> {
  const query = (handle as { queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState> } | null)?.queryPermission;
  if (typeof query !== 'function') return {};
  try {
    return { permission: await query.call(handle, { mode: 'read' }) };
  } catch {
    return {};
  }
}

/**
 * Stores `handle` under `name`, replacing a folder of that name (registering again is how a page renews
 * a lapsed permission). The handle must be a directory handle (`kind: 'directory'`); the host decides
 * whether it can be read when a path names it.
 */
export async function registerFolder(ctx: ServiceContext, name: unknown, handle: unknown): Promise<GrantedFolder> {
  if (typeof name !== 'string') throw invalid('A folder name must be a string.', 'invalid_folder_name');
  const problem = folderNameProblem(name);
  if (problem) throw invalid(`The folder name '${name}' cannot be used: ${problem}.`, 'invalid_folder_name');
  if (typeof handle !== 'object' || handle === null || (handle as { kind?: unknown }).kind !== 'directory') {
    throw invalid(`Registering the folder '${name}' needs a FileSystemDirectoryHandle.`, 'invalid_folder_handle');
  }
  const created = ctx.now().toISOString();
  await ctx.store.write((tx) => tx.put('folders', { id: name, created, handle }), ['folders']);
  return describe(name, created);
}

/** Forgets the folder registered under `name` (404 when there is none). */
export async function removeFolder(ctx: ServiceContext, name: string): Promise<void> {
  await keyedWrite(
    ctx,
    async (tx) => {
      if (!(await tx.get('folders', name))) throw new ApiError(404, 'folder_not_found', `No folder named '${name}' is registered.`);
      await tx.delete('folders', name);
    },
    ['folders'],
  );
}
