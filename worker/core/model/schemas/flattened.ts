/** Wire-contract schemas: flattened formats & assets (see ../schemas.ts). */
import * as z from 'zod';
import { MechanismEnumSchema, RoleSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, IdSchema, IndicesSchema, ScoreSchema, type ShapeOf, UuidSchema, base, opt, referencedFields } from './primitives.ts';
import { ApplicationSchema, ByteDescriptorSchema, ClassificationSchema, FileFormatSchema, FragmentFormatSchema } from './content.ts';
import { FlattenedActivitiesSchema, FlattenedAnchorsSchema, FlattenedAnnotationsSchema, FlattenedConversationMessagesSchema, FlattenedConversationsSchema, FlattenedHintsSchema, FlattenedPersonsSchema, FlattenedSensitivesSchema, FlattenedSharesSchema, FlattenedTagsSchema, FlattenedWebsitesSchema, FlattenedWorkstreamSummariesSchema } from './references.ts';

const FlattenedPreviewFields = () => ({
  ...base(),
  base: IdSchema,
  overlay: opt(IdSchema),
});
export interface FlattenedPreviewShape extends ShapeOf<typeof FlattenedPreviewFields> {}
export const FlattenedPreviewSchema: z.ZodObject<FlattenedPreviewShape> =
  lazySchema(() => z.object(FlattenedPreviewFields()));
export type FlattenedPreview = z.infer<typeof FlattenedPreviewSchema>;

const FlattenedFormatFields = () => ({
  ...base(),
  id: UuidSchema,
  creator: z.string(),
  classification: ClassificationSchema,
  role: RoleSchema,
  application: ApplicationSchema,
  asset: UuidSchema,
  bytes: ByteDescriptorSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  icon: opt(z.string()),
  deleted: opt(GroupedTimestampSchema),
  synced: opt(GroupedTimestampSchema),
  cloud: opt(z.string()),
  fragment: opt(FragmentFormatSchema),
  file: opt(FileFormatSchema),
  analysis: opt(z.unknown()),
  relationship: opt(z.unknown()),
  activities: opt(FlattenedActivitiesSchema),
});
export interface FlattenedFormatShape extends ShapeOf<typeof FlattenedFormatFields> {}
export const FlattenedFormatSchema: z.ZodObject<FlattenedFormatShape> =
  lazySchema(() => z.object(FlattenedFormatFields()));
export type FlattenedFormat = z.infer<typeof FlattenedFormatSchema>;

const ReferencedFormatFields = () => referencedFields(FlattenedFormatSchema);
export interface ReferencedFormatShape extends ShapeOf<typeof ReferencedFormatFields> {}
export const ReferencedFormatSchema: z.ZodObject<ReferencedFormatShape> =
  lazySchema(() => z.object(ReferencedFormatFields()));
export type ReferencedFormat = z.infer<typeof ReferencedFormatSchema>;

const FlattenedFormatsFields = () => ({
  ...base(),
  iterable: z.array(ReferencedFormatSchema),
});
export interface FlattenedFormatsShape extends ShapeOf<typeof FlattenedFormatsFields> {}
export const FlattenedFormatsSchema: z.ZodObject<FlattenedFormatsShape> =
  lazySchema(() => z.object(FlattenedFormatsFields()));
export type FlattenedFormats = z.infer<typeof FlattenedFormatsSchema>;

const FlattenedAssetFields = () => ({
  ...base(),
  id: UuidSchema,
  creator: z.string(),
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  formats: FlattenedFormatsSchema,
  preview: FlattenedPreviewSchema,
  original: IdSchema,
  mechanism: MechanismEnumSchema,
  name: opt(z.string()),
  synced: opt(GroupedTimestampSchema),
  deleted: opt(GroupedTimestampSchema),
  shares: opt(FlattenedSharesSchema),
  websites: opt(FlattenedWebsitesSchema),
  interacted: opt(GroupedTimestampSchema),
  tags: opt(FlattenedTagsSchema),
  sensitives: opt(FlattenedSensitivesSchema),
  persons: opt(FlattenedPersonsSchema),
  curated: opt(z.boolean()),
  discovered: opt(z.boolean()),
  activities: opt(FlattenedActivitiesSchema),
  score: opt(ScoreSchema),
  favorited: opt(z.boolean()),
  pseudo: opt(z.boolean()),
  annotations: opt(FlattenedAnnotationsSchema),
  hints: opt(FlattenedHintsSchema),
  anchors: opt(FlattenedAnchorsSchema),
  conversations: opt(FlattenedConversationsSchema),
  demo: opt(z.boolean()),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  messages: opt(FlattenedConversationMessagesSchema),
});
export interface FlattenedAssetShape extends ShapeOf<typeof FlattenedAssetFields> {}
export const FlattenedAssetSchema: z.ZodObject<FlattenedAssetShape> =
  lazySchema(() => z.object(FlattenedAssetFields()));
export type FlattenedAsset = z.infer<typeof FlattenedAssetSchema>;

const ReferencedAssetFields = () => ({
  ...base(),
  id: UuidSchema,
  reference: opt(FlattenedAssetSchema),
});
export interface ReferencedAssetShape extends ShapeOf<typeof ReferencedAssetFields> {}
export const ReferencedAssetSchema: z.ZodObject<ReferencedAssetShape> =
  lazySchema(() => z.object(ReferencedAssetFields()));
export type ReferencedAsset = z.infer<typeof ReferencedAssetSchema>;

/** The one Flattened collection whose `iterable` is optional. */
const FlattenedAssetsFields = () => ({
  ...base(),
  iterable: opt(z.array(ReferencedAssetSchema)),
  indices: opt(IndicesSchema),
  score: opt(ScoreSchema),
});
export interface FlattenedAssetsShape extends ShapeOf<typeof FlattenedAssetsFields> {}
export const FlattenedAssetsSchema: z.ZodObject<FlattenedAssetsShape> =
  lazySchema(() => z.object(FlattenedAssetsFields()));
export type FlattenedAssets = z.infer<typeof FlattenedAssetsSchema>;

const PseudoAssetsFields = () => ({
  ...base(),
  identifiers: opt(FlattenedAssetsSchema),
});
export interface PseudoAssetsShape extends ShapeOf<typeof PseudoAssetsFields> {}
export const PseudoAssetsSchema: z.ZodObject<PseudoAssetsShape> = lazySchema(() => z.object(PseudoAssetsFields()));
export type PseudoAssets = z.infer<typeof PseudoAssetsSchema>;

const PreviewFields = () => ({
  ...base(),
  base: ReferencedFormatSchema,
  overlay: opt(ReferencedFormatSchema),
});
export interface PreviewShape extends ShapeOf<typeof PreviewFields> {}
export const PreviewSchema: z.ZodObject<PreviewShape> = lazySchema(() => z.object(PreviewFields()));
export type Preview = z.infer<typeof PreviewSchema>;
