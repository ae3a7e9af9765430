/**
 * Builders of stream frames (wire-contract.md §4). Pure functions, used by the worker (snapshots) and
 * by the page-side client (deltas).
 *
 * - `/assets/stream/identifiers`: a snapshot lists every asset id, `{"iterable":[{"asset":{"id":…}},…]}`
 *   (also when empty); a delta lists the one changed id, with `"deleted": true` for a removal.
 * - `/assets/stream` and `/assets/stream/transferables`: a snapshot is the Assets of the library (without
 *   or with content); a delta is the Assets of the one changed asset, or for a removal the last known
 *   state of the asset with its `deleted` timestamp set (Assets has no per-item flag).
 */
import { timestamp } from '../model/build.ts';
import type { Asset, Assets, StreamedIdentifiers } from '../model/schemas.ts';
import type { StreamChange } from './protocol.ts';

export function identifiersSnapshot(ids: readonly string[]): StreamedIdentifiers {
  return { iterable: ids.map((id) => ({ asset: { id } })) };
}

export function identifierDelta(change: Pick<StreamChange, 'asset' | 'kind'>): StreamedIdentifiers {
  return { iterable: [change.kind === 'deleted' ? { asset: { id: change.asset }, deleted: true } : { asset: { id: change.asset } }] };
}

export function assetsFrame(assets: readonly Asset[]): Assets {
  return { iterable: [...assets], indices: Object.fromEntries(assets.map((a, i) => [a.id, i])) };
}

/**
 * The delta frame of one change on an asset stream, given the last known state of each asset (kept up
 * to date here). `undefined` when there is nothing true to send: a change to an asset that no longer
 * existed when it was read (its removal comes next), or the removal of an asset this stream never saw.
 */
export function assetDelta(change: StreamChange, known: Map<string, Asset>, now: () => Date = () => new Date()): Assets | undefined {
  if (change.kind === 'deleted') {
    const last = known.get(change.asset);
    if (!last) return undefined;
    known.delete(change.asset);
    return assetsFrame([{ ...last, deleted: timestamp(now().toISOString()) }]);
  }
  if (!change.value) return undefined;
  known.set(change.asset, change.value);
  return assetsFrame([change.value]);
}
