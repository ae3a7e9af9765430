/**
 * The migration from id arrays to link records (IndexedDB version 7, PostgreSQL schema version 4). Before
 * it, an asset listed its tags, websites, summaries, persons and conversations by id, and each of those
 * listed its assets; now each linked pair is one `links` record (link-records.ts). Both store migrations
 * read the records in two passes and hand each record here:
 *
 * 1. every tag, website, summary, person and conversation (`fromOther`): a link for each asset its array
 *    names, at that array's position on its side;
 * 2. every asset (`fromAsset`, given the links pass 1 made for the pairs it names): its side's position
 *    from its array.
 *
 * So each side lists its links in the order its array had. A pair only one side named (records out of
 * step, or one side missing) is carried over too, listed after the ones the other side named; the wire
 * showed it from that side before. Each record comes back without its array.
 */
import { LINKED_KINDS, type AssetRecord, type LinkRecord, type LinkedKind } from '../store/records.ts';
import { linkId, linkRecord } from './link-records.ts';

/** Positions from here on list a pair after every position an array gave (arrays are far shorter). */
const UNNAMED_FROM = 1e12;

type WithArray<R> = R & { assets?: string[] };
type AssetWithArrays = AssetRecord & Partial<Record<LinkedKind, string[]>>;

export class LinkCarryOver {
  private unnamed = UNNAMED_FROM;

  /** Pass 1: the links an other-side record's array names, and the record without its array. */
  fromOther<R extends { id: string }>(kind: LinkedKind, stored: WithArray<R>): { record: R; links: LinkRecord[] } {
    const { assets = [], ...record } = stored;
    // Placeholder asset-side positions, replaced in pass 2 where the asset names the pair.
    const links = assets.map((asset, i) => linkRecord(kind, stored.id, asset, { asset: this.unnamed++, other: i }));
    return { record: record as unknown as R, links };
  }

  /** The link ids an asset's arrays name (what pass 2 needs read before `fromAsset`). */
  linkIdsOf(asset: AssetWithArrays): string[] {
    return LINKED_KINDS.flatMap((kind) => (asset[kind] ?? []).map((other) => linkId(kind, other, asset.id)));
  }

  /** Pass 2: the asset's links with its side's positions, and the record without its arrays. */
  fromAsset(stored: AssetWithArrays, existing: ReadonlyMap<string, LinkRecord>): { record: AssetRecord; links: LinkRecord[] } {
    const { tags: _t, websites: _w, summaries: _s, persons: _p, conversations: _c, ...record } = stored;
    const links = LINKED_KINDS.flatMap((kind) =>
      (stored[kind] ?? []).map((other, i) => {
        const made = existing.get(linkId(kind, other, stored.id));
        const own = linkRecord(kind, other, stored.id, { asset: i, other: this.unnamed++ });
        return made ? { ...made, assetKey: own.assetKey } : own;
      }),
    );
    return { record, links };
  }

  /** The link position counter after the carry-over, later than every position given; undefined when no link was made (a new store). */
  get next(): number | undefined {
    return this.unnamed > UNNAMED_FROM ? this.unnamed : undefined;
  }
}
