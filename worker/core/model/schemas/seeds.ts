/** Wire-contract schemas: create / update inputs (see ../schemas.ts). */
import * as z from 'zod';
import { AnnotationTypeEnumSchema, CapabilitiesEnumSchema, ClassificationSpecificEnumSchema, MechanismEnumSchema, SeedTypeEnumSchema, TagCategoryEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, type ShapeOf, UuidSchema, base, opt } from './primitives.ts';
import { ApplicationSchema, ClassificationSchema, FileFormatSchema, SeededAssetEnrichmentSchema, SeededFormatSchema } from './content.ts';
import { FlattenedAnchorsSchema, FlattenedConversationMessagesSchema, FlattenedConversationsSchema, FlattenedPersonsSchema, FlattenedRangesSchema, FlattenedTagsSchema, FlattenedUserProfileSchema, FlattenedWebsitesSchema, FlattenedWorkstreamEventsSchema, FlattenedWorkstreamSummariesSchema } from './references.ts';
import { FlattenedAssetsSchema } from './flattened.ts';
import { ModelSchema, PersonTypeSchema } from './persons.ts';
import { AssetSchema, AssetsSchema } from './assets.ts';

const SeededAssetTagFields = () => ({
  ...base(),
  text: z.string(),
  mechanism: opt(MechanismEnumSchema),
  category: opt(TagCategoryEnumSchema),
});
export interface SeededAssetTagShape extends ShapeOf<typeof SeededAssetTagFields> {}
export const SeededAssetTagSchema: z.ZodObject<SeededAssetTagShape> =
  lazySchema(() => z.object(SeededAssetTagFields()));
export type SeededAssetTag = z.infer<typeof SeededAssetTagSchema>;

const SeededAssetWebsiteFields = () => ({
  ...base(),
  url: z.string(),
  name: z.string(),
  mechanism: opt(MechanismEnumSchema),
});
export interface SeededAssetWebsiteShape extends ShapeOf<typeof SeededAssetWebsiteFields> {}
export const SeededAssetWebsiteSchema: z.ZodObject<SeededAssetWebsiteShape> =
  lazySchema(() => z.object(SeededAssetWebsiteFields()));
export type SeededAssetWebsite = z.infer<typeof SeededAssetWebsiteSchema>;

const SeededAnnotationFields = () => ({
  ...base(),
  type: AnnotationTypeEnumSchema,
  text: z.string(),
  mechanism: opt(MechanismEnumSchema),
  asset: opt(z.string()),
  person: opt(z.string()),
  model: opt(z.string()),
  pseudo: opt(z.boolean()),
  favorited: opt(z.boolean()),
  anchor: opt(z.string()),
  conversation: opt(z.string()),
  workstream_summary: opt(z.string()),
  messages: opt(FlattenedConversationMessagesSchema),
  assets: opt(FlattenedAssetsSchema),
  persons: opt(FlattenedPersonsSchema),
  anchors: opt(FlattenedAnchorsSchema),
  conversations: opt(FlattenedConversationsSchema),
  websites: opt(FlattenedWebsitesSchema),
  tags: opt(FlattenedTagsSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  workstream_events: opt(FlattenedWorkstreamEventsSchema),
});
export interface SeededAnnotationShape extends ShapeOf<typeof SeededAnnotationFields> {}
export const SeededAnnotationSchema: z.ZodObject<SeededAnnotationShape> =
  lazySchema(() => z.object(SeededAnnotationFields()));
export type SeededAnnotation = z.infer<typeof SeededAnnotationSchema>;

/** Not in §2; fields and required list from the SDK (`SeededPerson.d.ts`). */
const SeededPersonFields = () => ({
  ...base(),
  asset: opt(z.string()),
  mechanism: opt(MechanismEnumSchema),
  access: opt(z.unknown()),
  type: PersonTypeSchema,
  model: opt(z.unknown()),
  annotations: opt(z.array(SeededAnnotationSchema)),
  anchors: opt(FlattenedAnchorsSchema),
});
export interface SeededPersonShape extends ShapeOf<typeof SeededPersonFields> {}
export const SeededPersonSchema: z.ZodObject<SeededPersonShape> = lazySchema(() => z.object(SeededPersonFields()));
export type SeededPerson = z.infer<typeof SeededPersonSchema>;

const SeededAssetMetadataFields = () => ({
  ...base(),
  name: opt(z.string()),
  mechanism: opt(MechanismEnumSchema),
  tags: opt(z.array(SeededAssetTagSchema)),
  websites: opt(z.array(SeededAssetWebsiteSchema)),
  sensitives: opt(z.array(z.unknown())),
  persons: opt(z.array(SeededPersonSchema)),
  annotations: opt(z.array(SeededAnnotationSchema)),
  hints: opt(z.array(z.unknown())),
  anchors: opt(z.array(z.unknown())),
});
export interface SeededAssetMetadataShape extends ShapeOf<typeof SeededAssetMetadataFields> {}
export const SeededAssetMetadataSchema: z.ZodObject<SeededAssetMetadataShape> =
  lazySchema(() => z.object(SeededAssetMetadataFields()));
export type SeededAssetMetadata = z.infer<typeof SeededAssetMetadataSchema>;

const AvailableFormatsFields = () => ({
  ...base(),
  iterable: z.array(ClassificationSchema),
});
export interface AvailableFormatsShape extends ShapeOf<typeof AvailableFormatsFields> {}
export const AvailableFormatsSchema: z.ZodObject<AvailableFormatsShape> =
  lazySchema(() => z.object(AvailableFormatsFields()));
export type AvailableFormats = z.infer<typeof AvailableFormatsSchema>;

const SeededAssetFields = () => ({
  ...base(),
  application: ApplicationSchema,
  format: SeededFormatSchema,
  metadata: opt(SeededAssetMetadataSchema),
  discovered: opt(z.boolean()),
  available: opt(AvailableFormatsSchema),
  pseudo: opt(z.boolean()),
  enrichment: opt(SeededAssetEnrichmentSchema),
  demo: opt(z.boolean()),
});
export interface SeededAssetShape extends ShapeOf<typeof SeededAssetFields> {}
export const SeededAssetSchema: z.ZodObject<SeededAssetShape> = lazySchema(() => z.object(SeededAssetFields()));
export type SeededAsset = z.infer<typeof SeededAssetSchema>;

/** Not in §2; from the SDK (`SeededWebsite.d.ts`). Body of `POST /websites/create`. */
const SeededWebsiteFields = () => ({
  ...base(),
  asset: opt(z.string()),
  conversation: opt(z.string()),
  url: z.string(),
  name: z.string(),
  mechanism: opt(MechanismEnumSchema),
  person: opt(z.string()),
});
export interface SeededWebsiteShape extends ShapeOf<typeof SeededWebsiteFields> {}
export const SeededWebsiteSchema: z.ZodObject<SeededWebsiteShape> = lazySchema(() => z.object(SeededWebsiteFields()));
export type SeededWebsite = z.infer<typeof SeededWebsiteSchema>;

/** Not in §2; from the SDK (`SeededTag.d.ts`). Body of `POST /tags/create`. */
const SeededTagFields = () => ({
  ...base(),
  text: z.string(),
  asset: opt(z.string()),
  mechanism: opt(MechanismEnumSchema),
  category: opt(TagCategoryEnumSchema),
  person: opt(z.string()),
  tagsVector: opt(z.array(z.number())),
});
export interface SeededTagShape extends ShapeOf<typeof SeededTagFields> {}
export const SeededTagSchema: z.ZodObject<SeededTagShape> = lazySchema(() => z.object(SeededTagFields()));
export type SeededTag = z.infer<typeof SeededTagSchema>;

/** Not in §2; from the SDK (`SeededWorkstreamSummary.d.ts`). Body of `POST /workstream_summaries/create`. */
const SeededWorkstreamSummaryFields = () => ({
  ...base(),
  events: opt(FlattenedWorkstreamEventsSchema),
  name: z.string(),
  annotations: opt(z.array(SeededAnnotationSchema)),
  ranges: opt(FlattenedRangesSchema),
  model: ModelSchema,
  websites: opt(FlattenedWebsitesSchema),
  anchors: opt(FlattenedAnchorsSchema),
  assets: opt(FlattenedAssetsSchema),
  conversations: opt(FlattenedConversationsSchema),
  persons: opt(FlattenedPersonsSchema),
  tags: opt(FlattenedTagsSchema),
  applications: opt(z.unknown()),
  workstreamSummariesVector: opt(z.array(z.number())),
  processing: opt(CapabilitiesEnumSchema),
  favorited: opt(z.boolean()),
  mechanism: opt(MechanismEnumSchema),
});
export interface SeededWorkstreamSummaryShape extends ShapeOf<typeof SeededWorkstreamSummaryFields> {}
export const SeededWorkstreamSummarySchema: z.ZodObject<SeededWorkstreamSummaryShape> =
  lazySchema(() => z.object(SeededWorkstreamSummaryFields()));
export type SeededWorkstreamSummary = z.infer<typeof SeededWorkstreamSummarySchema>;

const SeedFields = () => ({
  ...base(),
  asset: opt(SeededAssetSchema),
  person: opt(SeededPersonSchema),
  anchor: opt(z.unknown()),
  website: opt(SeededWebsiteSchema),
  type: opt(SeedTypeEnumSchema),
});
export interface SeedShape extends ShapeOf<typeof SeedFields> {}
export const SeedSchema: z.ZodObject<SeedShape> = lazySchema(() => z.object(SeedFields()));
export type Seed = z.infer<typeof SeedSchema>;

const SeedsFields = () => ({
  ...base(),
  iterable: z.array(SeedSchema),
});
export interface SeedsShape extends ShapeOf<typeof SeedsFields> {}
export const SeedsSchema: z.ZodObject<SeedsShape> = lazySchema(() => z.object(SeedsFields()));
export type Seeds = z.infer<typeof SeedsSchema>;

const AssetReclassificationFields = () => ({
  ...base(),
  ext: ClassificationSpecificEnumSchema,
  asset: AssetSchema,
});
export interface AssetReclassificationShape extends ShapeOf<typeof AssetReclassificationFields> {}
export const AssetReclassificationSchema: z.ZodObject<AssetReclassificationShape> =
  lazySchema(() => z.object(AssetReclassificationFields()));
export type AssetReclassification = z.infer<typeof AssetReclassificationSchema>;

const SeededScoreFields = () => ({
  ...base(),
  reuse: opt(z.boolean()),
  update: opt(z.boolean()),
  reference: opt(z.boolean()),
  priority: opt(z.boolean()),
  searched: opt(z.boolean()),
});
export interface SeededScoreShape extends ShapeOf<typeof SeededScoreFields> {}
export const SeededScoreSchema: z.ZodObject<SeededScoreShape> = lazySchema(() => z.object(SeededScoreFields()));
export type SeededScore = z.infer<typeof SeededScoreSchema>;

const seededScore = lazySchema(() => opt(SeededScoreSchema));
const SeededScoreIncrementFields = () => ({
  ...base(),
  asset: seededScore,
  assets: seededScore,
  website: seededScore,
  websites: seededScore,
  anchor: seededScore,
  anchors: seededScore,
  anchorPoint: seededScore,
  anchorPoints: seededScore,
  annotation: seededScore,
  annotations: seededScore,
  conversation: seededScore,
  conversations: seededScore,
  conversationMessage: seededScore,
  conversationMessages: seededScore,
  share: seededScore,
  shares: seededScore,
  sensitive: seededScore,
  sensitives: seededScore,
  hint: seededScore,
  hints: seededScore,
  person: seededScore,
  persons: seededScore,
  tag: seededScore,
  tags: seededScore,
  workstream_summary: seededScore,
  workstream_summaries: seededScore,
  workstream_events: seededScore,
  workstream_event: seededScore,
  ranges: seededScore,
  range: seededScore,
  workstream_pattern_engine_sources: seededScore,
  workstream_pattern_engine_source: seededScore,
  models: seededScore,
  model: seededScore,
  workstream_pattern_engine_source_windows: seededScore,
  workstream_pattern_engine_source_window: seededScore,
});
export interface SeededScoreIncrementShape extends ShapeOf<typeof SeededScoreIncrementFields> {}
export const SeededScoreIncrementSchema: z.ZodObject<SeededScoreIncrementShape> =
  lazySchema(() => z.object(SeededScoreIncrementFields()));
export type SeededScoreIncrement = z.infer<typeof SeededScoreIncrementSchema>;

const SeededAccessorFields = () => ({
  ...base(),
  os: z.string(),
  share: z.string(),
  user: opt(FlattenedUserProfileSchema),
});
export interface SeededAccessorShape extends ShapeOf<typeof SeededAccessorFields> {}
export const SeededAccessorSchema: z.ZodObject<SeededAccessorShape> =
  lazySchema(() => z.object(SeededAccessorFields()));
export type SeededAccessor = z.infer<typeof SeededAccessorSchema>;

const InteractedAssetInteractionsFields = () => ({
  ...base(),
  viewed: z.string(),
  touched: opt(z.boolean()),
  scrolled: opt(z.boolean()),
});
export interface InteractedAssetInteractionsShape extends ShapeOf<typeof InteractedAssetInteractionsFields> {}
export const InteractedAssetInteractionsSchema: z.ZodObject<InteractedAssetInteractionsShape> =
  lazySchema(() => z.object(InteractedAssetInteractionsFields()));
export type InteractedAssetInteractions = z.infer<typeof InteractedAssetInteractionsSchema>;

const InteractedAssetFields = () => ({
  ...base(),
  asset: opt(UuidSchema),
  interactions: opt(InteractedAssetInteractionsSchema),
});
export interface InteractedAssetShape extends ShapeOf<typeof InteractedAssetFields> {}
export const InteractedAssetSchema: z.ZodObject<InteractedAssetShape> =
  lazySchema(() => z.object(InteractedAssetFields()));
export type InteractedAsset = z.infer<typeof InteractedAssetSchema>;

const InteractedAssetsFields = () => ({
  ...base(),
  iterable: z.array(InteractedAssetSchema),
});
export interface InteractedAssetsShape extends ShapeOf<typeof InteractedAssetsFields> {}
export const InteractedAssetsSchema: z.ZodObject<InteractedAssetsShape> =
  lazySchema(() => z.object(InteractedAssetsFields()));
export type InteractedAssets = z.infer<typeof InteractedAssetsSchema>;

const SeededAssetsRecommendationFields = () => ({
  ...base(),
  assets: AssetsSchema,
  interactions: InteractedAssetsSchema,
});
export interface SeededAssetsRecommendationShape extends ShapeOf<typeof SeededAssetsRecommendationFields> {}
export const SeededAssetsRecommendationSchema: z.ZodObject<SeededAssetsRecommendationShape> =
  lazySchema(() => z.object(SeededAssetsRecommendationFields()));
export type SeededAssetsRecommendation = z.infer<typeof SeededAssetsRecommendationSchema>;

const ExportedAssetFields = () => ({
  ...base(),
  name: z.string(),
  description: z.string(),
  created: GroupedTimestampSchema,
  raw: FileFormatSchema,
});
export interface ExportedAssetShape extends ShapeOf<typeof ExportedAssetFields> {}
export const ExportedAssetSchema: z.ZodObject<ExportedAssetShape> = lazySchema(() => z.object(ExportedAssetFields()));
export type ExportedAsset = z.infer<typeof ExportedAssetSchema>;
