import { useEffect, useState } from 'preact/hooks';
import type { Asset } from '../client/api.ts';
import { messageOf } from './library-state.ts';
import { useSession } from './session.ts';

export interface AssetLoad {
  asset?: Asset;
  error?: string;
  /** The asset is known to be deleted (here or elsewhere). */
  gone?: boolean;
}

/**
 * The asset `id`, loaded, and loaded again whenever a change event names it (another tab, another app,
 * this one), so an open view always shows what is stored.
 */
export function useAsset(id: string): AssetLoad {
  const session = useSession();
  const version = session.assetVersions.value.get(id) ?? 0;
  const gone = session.deleted.value.has(id);
  const [state, setState] = useState<AssetLoad>({});
  useEffect(() => {
    let live = true;
    if (gone) {
      setState((s) => ({ ...s, gone: true }));
      return;
    }
    session.api.getAsset(id).then(
      (asset) => live && setState({ asset }),
      (error) => live && setState({ error: messageOf(error), gone: (error as { status?: number }).status === 404 }),
    );
    return () => {
      live = false;
    };
  }, [id, version, gone]);
  return state.asset && state.asset.id !== id ? {} : state;
}
