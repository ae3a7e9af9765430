/**
 * What the worker answers for a live stream (see protocol.ts): the snapshot with the seq it reflects,
 * and the changes after a seq; each read in ONE read transaction, so seq and content agree.
 */
import type { ServiceContext } from '../deps.ts';
import { readChangesSince, readSeq } from '../feed/commit.ts';
import { assembleAsset, readAssets, readIdentifiers } from '../assets/read.ts';
import type { ReadTx } from '../store/store.ts';
import { identifiersSnapshot } from './frames.ts';
import type { StreamCatchUp, StreamChange, StreamFrame, StreamKind } from './protocol.ts';

export interface StreamSnapshot {
  seq: number;
  frame: StreamFrame;
}

/**
 * The snapshot frame. Pseudo assets are included: change events name them too, and a client must be
 * able to tell a known asset from an unknown one.
 */
function readSnapshot(ctx: ServiceContext, tx: ReadTx, kind: StreamKind, seq: number): Promise<StreamFrame> {
  if (kind === 'identifiers') return readIdentifiers(ctx, tx, seq, { pseudo: true }).then(identifiersSnapshot);
  return readAssets(tx, { pseudo: true, transferables: kind === 'transferables' });
}

export function streamSnapshot(ctx: ServiceContext, kind: StreamKind): Promise<StreamSnapshot> {
  return ctx.store.read(async (tx) => {
    const seq = await readSeq(tx);
    return { seq, frame: await readSnapshot(ctx, tx, kind, seq) };
  });
}

/**
 * The changes after `since`, in commit order, each created/updated one with the asset as it is now on
 * the asset streams; or a fresh snapshot when the change log no longer reaches back that far, or when
 * `since` is ahead of the store (the library was reset: the reader's state is not a prefix of ours).
 */
export function streamChanges(ctx: ServiceContext, kind: StreamKind, since: number): Promise<StreamCatchUp> {
  return ctx.store.read(async (tx) => {
    const seq = await readSeq(tx);
    const events = since > seq ? undefined : await readChangesSince(tx, since);
    if (!events) return { seq, snapshot: await readSnapshot(ctx, tx, kind, seq) };
    if (kind === 'identifiers') return { seq, changes: events };
    const transferables = kind === 'transferables';
    // One read of each changed asset, however many changes name it.
    const wanted = [...new Set(events.filter((e) => e.kind !== 'deleted').map((e) => e.asset))];
    const records = await tx.getMany('assets', wanted);
    const values = new Map(await Promise.all(records.map(async (r) => [r.id, await assembleAsset(tx, r, { transferables })] as const)));
    const changes: StreamChange[] = events.map((e) => {
      const value = e.kind === 'deleted' ? undefined : values.get(e.asset);
      return value ? { ...e, value } : { ...e };
    });
    return { seq, changes };
  });
}
