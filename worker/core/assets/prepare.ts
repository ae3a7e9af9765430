import type { ServiceContext } from '../deps.ts';
import { invalid } from '../errors.ts';
import type { Classification, FileMetadata, Seed, SeededAsset } from '../model/schemas.ts';
import type { Classification as Detected } from './classifier.ts';
import { genericOf, imageType, readSeededContent, specificOfFilename, type SeededContent } from './content.ts';
import { suggestName } from './suggest-name.ts';

/** A seed after preprocessing: what to store, how it is classified and what it is called. */
export interface PreparedSeed {
  seeded: SeededAsset;
  content: SeededContent;
  classification: Classification;
  name: string;
}

export function requireSeededAsset(seed: Seed | undefined): SeededAsset {
  if (!seed?.asset) throw invalid('The seed has no asset: send {"asset": {"application": …, "format": …}}.');
  return seed.asset;
}

/**
 * Classifies the content: the seed's own classification wins, then an extension or file name in
 * its metadata, then the bytes' image signature, then the language detector. Async work happens
 * here, before any transaction opens.
 */
export async function prepareSeed(ctx: ServiceContext, seed: Seed | undefined): Promise<PreparedSeed> {
  const seeded = requireSeededAsset(seed);
  const content = readSeededContent(seeded.format);
  const classification = await classify(ctx, seeded, content);
  const name = seeded.metadata?.name ?? (content.text !== undefined ? suggestName(content.text, classification) : fallbackName(classification, content));
  return { seeded, content, classification, name };
}

async function classify(ctx: ServiceContext, seeded: SeededAsset, content: SeededContent): Promise<Classification> {
  const given = seeded.format.classification;
  const metadata = content.metadata as FileMetadata | undefined;
  const specific =
    given?.specific ?? metadata?.ext ?? specificOfFilename(metadata?.name) ?? (content.bytes ? imageType(content.bytes) : undefined);
  if (specific && specific !== 'UNKNOWN') {
    return { generic: given?.generic ?? genericOf(specific), specific, ...(given?.rendering ? { rendering: given.rendering } : {}) };
  }
  if (content.text === undefined) {
    if (given?.generic === 'IMAGE') throw invalid('An IMAGE seed must hold image bytes (png, jpg, gif, webp, bmp, ico, tiff).');
    return { generic: 'FILE', specific: 'bin' };
  }
  const detected: Detected = await ctx.classifier.classify(content.text, { filename: metadata?.name ?? undefined });
  return { ...detected, generic: given?.generic && given.generic !== 'UNKNOWN' ? given.generic : detected.generic };
}

function fallbackName(classification: Classification, content: SeededContent): string {
  const file = (content.metadata as FileMetadata | undefined)?.name;
  if (file) return file;
  return classification.generic === 'IMAGE' ? `Image (${classification.specific})` : `File (${classification.specific})`;
}
