import type { ServiceContext } from '../deps.ts';
import type { Application } from '../model/schemas.ts';
import type { AssetRecord } from '../store/records.ts';
import type { WriteTx } from '../store/store.ts';

/** The application Tessera names as the actor of changes no client application made. */
export const TESSERA_APPLICATION: Application = {
  id: 'tessera',
  name: 'OPEN_SOURCE',
  version: '0.1.0',
  platform: 'WEB',
  onboarded: true,
  privacy: 'OPEN',
};

/** The wire names and values of SeededTrackedAssetEvent.identifier_description_pair. */
export const ASSET_EVENTS = {
  created: { asset_created: 'an_asset_was_created' },
  updated: { asset_updated: 'an_asset_was_updated' },
  renamed: { asset_name_updated: 'an_asset_was_renamed_by_the_user' },
  reclassified: {
    asset_format_specific_classification_updated: 'a_specific_classification_was_changed_on_a_format_within_an_asset',
  },
  exported: { asset_format_downloaded: 'an_asset_format_was_downloaded' },
  tagAdded: { asset_tag_added: 'a_tag_was_added_by_the_user' },
  tagDeleted: { asset_tag_deleted: 'a_tag_was_deleted_by_the_user' },
  linkAdded: { asset_link_added: 'a_link_was_added_by_the_user' },
  linkDeleted: { asset_link_deleted: 'a_link_was_deleted_by_the_user' },
} as const;

export type AssetEvent = keyof typeof ASSET_EVENTS;

/**
 * How many activity ids an asset record keeps, the newest: the wire Asset's `activities` lists these. Every
 * listing reads the asset record, so it stays bounded; `GET /asset/{id}/activities` reads all of them
 * through the `asset` index.
 */
export const ASSET_ACTIVITIES_KEPT = 20;

/**
 * Records an Activity for the asset inside the caller's transaction. It adds the activity's id to
 * `asset.activities` (keeping the newest ASSET_ACTIVITIES_KEPT) at once; the caller puts the asset record afterwards.
 */
export async function recordActivity(
  ctx: ServiceContext,
  tx: WriteTx,
  asset: AssetRecord,
  event: AssetEvent,
  application: Application = TESSERA_APPLICATION,
): Promise<void> {
  const now = ctx.now().toISOString();
  const id = ctx.newId();
  // Before the put, not after it: a caller may issue its asset's put without awaiting this one.
  asset.activities = [...asset.activities, id].slice(-ASSET_ACTIVITIES_KEPT);
  await tx.put('activities', {
    id,
    asset: asset.id,
    created: now,
    updated: now,
    event: { asset: { asset: { id: asset.id }, identifier_description_pair: { ...ASSET_EVENTS[event] } } },
    application,
    mechanism: 'AUTOMATIC',
  });
}
