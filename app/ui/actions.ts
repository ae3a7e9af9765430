import type { Asset, ExportType } from '../client/api.ts';
import { seedOf, textOf } from './asset-content.ts';
import { download, fileNameOf } from './format.ts';
import { messageOf } from './library-state.ts';
import { navigate } from './router.ts';
import type { Session } from './session.ts';

/** The asset actions that more than one place offers (buttons, keys, the command palette). */

export async function exportAsset(session: Session, asset: Asset, type: ExportType): Promise<void> {
  try {
    const exported = await session.api.exportAsset(asset.id, type);
    const text = exported.raw.string?.raw ?? '';
    const ext = type === 'MD' ? 'md' : 'html';
    download(fileNameOf(asset.name || 'asset', ext), text, type === 'MD' ? 'text/markdown' : 'text/html');
    session.notify({ message: `Exported “${asset.name || 'asset'}” as ${type === 'MD' ? 'Markdown' : 'HTML'}.` });
  } catch (error) {
    session.notify({ message: `Export failed: ${messageOf(error)}`, error: true });
  }
}

export async function copyAsset(session: Session, asset: Asset): Promise<void> {
  const text = textOf(asset);
  if (text === undefined) {
    session.notify({ message: 'Only text can be copied.', error: true });
    return;
  }
  try {
    await navigator.clipboard.writeText(text);
    session.notify({ message: 'Copied to the clipboard.' });
  } catch (error) {
    session.notify({ message: `Could not copy: ${messageOf(error)}`, error: true });
  }
}

/** Deletes the asset and offers Undo, which creates it again from what was read before the delete. */
export async function deleteAsset(session: Session, asset: Asset): Promise<void> {
  const name = asset.name || 'Untitled';
  const seed = seedOf(asset);
  try {
    await session.api.remove(asset.id);
  } catch (error) {
    session.notify({ message: `Delete failed: ${messageOf(error)}`, error: true });
    return;
  }
  navigate({ view: 'library' });
  session.notify({
    message: `Deleted “${name}”.`,
    action: {
      label: 'Undo',
      run: async () => {
        try {
          const restored = await session.api.create(seed);
          session.notify({ message: `Restored “${name}”.` });
          navigate({ view: 'asset', id: restored.id });
        } catch (error) {
          session.notify({ message: `Undo failed: ${messageOf(error)}`, error: true });
        }
      },
    },
  });
}
