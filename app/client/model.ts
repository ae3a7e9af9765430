/**
 * The wire models' types (`Asset`, `Seed`, `SearchedAssets`, …), which `tessera/client` exports. The
 * package declares them as plain types generated from their schemas (scripts/package-types.ts), so a host
 * project type-checks them without zod.
 */
export type * from '../../worker/core/model/schemas.ts';
