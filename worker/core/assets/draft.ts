import type { ServiceContext } from '../deps.ts';
import type { Seed } from '../model/schemas.ts';
import { prepareSeed } from './prepare.ts';

/**
 * The seed as it would be stored, nothing persisted: classification and name filled in.
 * An image seed comes back unchanged.
 */
export async function draftSeed(ctx: ServiceContext, seed: Seed | undefined): Promise<Seed> {
  const { seeded, classification, name } = await prepareSeed(ctx, seed);
  if (classification.generic === 'IMAGE') return seed!;
  return {
    ...seed,
    type: seed!.type ?? 'SEEDED_ASSET',
    asset: {
      ...seeded,
      format: { ...seeded.format, classification },
      metadata: { ...seeded.metadata, name },
    },
  };
}
