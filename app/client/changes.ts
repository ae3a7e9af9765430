/**
 * `watchAssets()`: the ids of assets created, updated or deleted anywhere on this origin (another tab,
 * another web app, the SDK), as they commit. Built on the identifiers stream through `TesseraSocket`, so
 * it sees exactly what an SDK client of the desktop server would; reconnects by itself.
 *
 * ```ts
 * const stop = watchAssets(({ changed, deleted }) => refresh(changed, deleted));
 * ```
 */
import { clientDefaults } from './defaults.ts';
import { TesseraSocket } from './socket.ts';

export interface AssetChanges {
  /** Created or updated. */
  changed: string[];
  deleted: string[];
  /** True for the first batch of a connection: every id there is (`changed`), to resync from. */
  snapshot: boolean;
}

interface StreamedIdentifiers {
  iterable?: { asset?: { id?: string }; deleted?: boolean }[];
}

const RECONNECT_MS = [250, 1000, 3000];

export function watchAssets(onChanges: (changes: AssetChanges) => void, options: { base?: string } = {}): () => void {
  const base = (options.base ?? clientDefaults.base).replace(/\/+$/, '');
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base}/assets/stream/identifiers`;
  let socket: TesseraSocket | undefined;
  let stopped = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    let first = true;
    const current = new TesseraSocket(url, undefined, { base });
    socket = current;
    current.onmessage = (event) => {
      failures = 0;
      const frame = JSON.parse(String(event.data)) as StreamedIdentifiers;
      const changes: AssetChanges = { changed: [], deleted: [], snapshot: first };
      first = false;
      for (const item of frame.iterable ?? []) {
        const id = item.asset?.id;
        if (id) (item.deleted ? changes.deleted : changes.changed).push(id);
      }
      onChanges(changes);
    };
    current.onclose = () => {
      if (stopped || socket !== current) return;
      timer = setTimeout(connect, RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]);
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
