/**
 * Zod schemas for the wire models of wire-contract.md §2 (JSON key names, REQ/opt as listed there).
 * Optional fields accept `null` as well as a missing key. Objects are non-strict: unknown keys are stripped.
 * Nested models we never populate are typed `unknown`.
 */
import * as z from 'zod';
import {
  AnnotationTypeEnumSchema,
  ApplicationNameEnumSchema,
  CapabilitiesEnumSchema,
  ClassificationGenericEnumSchema,
  ClassificationRenderingEnumSchema,
  ClassificationSpecificEnumSchema,
  ConversationMessageSentimentEnumSchema,
  ConversationTypeEnumSchema,
  EmbeddedModelSchemaSemanticVersionEnumSchema,
  FilterOperationTypeEnumSchema,
  HintTypeEnumSchema,
  MechanismEnumSchema,
  ModelTypeEnumSchema,
  ModelUsageEnumSchema,
  PlatformEnumSchema,
  PrivacyEnumSchema,
  QGPTConversationMessageRoleEnumSchema,
  QGPTStreamEnumSchema,
  RoleSchema,
  SearchedMatchEnumSchema,
  SeedTypeEnumSchema,
  TagCategoryEnumSchema,
} from './enums.ts';
import { lazySchema } from './lazy-schema.ts';

export * from './enums.ts';

// ---------------------------------------------------------------------------
// Helpers and primitives
// ---------------------------------------------------------------------------

/** Optional field: missing, `undefined` or `null` are all accepted. */
export const opt = <T extends z.ZodType>(s: T) => s.nullish();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UuidSchema = lazySchema(() => z.string().regex(UUID_RE, 'expected a UUID'));

/** Non-UUID ids: any non-empty string. */
export const IdSchema = lazySchema(() => z.string().min(1));

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/;
/** ISO-8601 date-time string (`YYYY-MM-DDTHH:MM:SS(.sss)?(Z|±hh:mm)?`) that `new Date()` parses. */
export const IsoDateSchema = lazySchema(() =>
  z
    .string()
    .regex(ISO_RE, 'expected an ISO-8601 date-time')
    .refine((s) => !Number.isNaN(new Date(s).getTime()), 'invalid date'),
);

/** `map<string, number>` (id → position; -1 means removed). */
export const IndicesSchema = lazySchema(() => z.record(z.string(), z.number()));

const MechanismsMapSchema = lazySchema(() => z.record(z.string(), MechanismEnumSchema));
const LooseMapSchema = lazySchema(() => z.record(z.string(), z.unknown()));

/**
 * Each model is written as `XFields` (a function returning the shape), `interface XShape extends
 * ShapeOf<typeof XFields>` and `XSchema: z.ZodObject<XShape>`. The named interface keeps emitted
 * declarations small: nested schemas print as `z.ZodObject<XShape>` instead of being expanded at every use.
 * `lazySchema` builds a model (and its fields) on first use, not when the worker starts. Building a model
 * builds the models its fields call a method of (`opt(Y)`), so a field that refers back to a model being
 * built is written as a getter (see `AssetFilter.operations`).
 */
type ShapeOf<F extends () => object> = ReturnType<F>;

const EmbeddedModelSchemaFields = () => ({
  migration: z.number(),
  semantic: EmbeddedModelSchemaSemanticVersionEnumSchema,
});
export interface EmbeddedModelSchemaShape extends ShapeOf<typeof EmbeddedModelSchemaFields> {}
export const EmbeddedModelSchemaSchema: z.ZodObject<EmbeddedModelSchemaShape> =
  lazySchema(() => z.object(EmbeddedModelSchemaFields()));
export type EmbeddedModelSchema = z.infer<typeof EmbeddedModelSchemaSchema>;

/** Every model carries an optional `schema` (a function: `opt()` builds the schema it wraps, so not at start). */
const base = () => ({ schema: opt(EmbeddedModelSchemaSchema) });

const ScoreFields = () => ({
  ...base(),
  manual: z.number(),
  automatic: z.number(),
  priority: opt(z.number()),
  reuse: opt(z.number()),
  update: opt(z.number()),
  reference: opt(z.number()),
  searched: opt(z.number()),
});
export interface ScoreShape extends ShapeOf<typeof ScoreFields> {}
export const ScoreSchema: z.ZodObject<ScoreShape> = lazySchema(() => z.object(ScoreFields()));
export type Score = z.infer<typeof ScoreSchema>;

const GroupedTimestampFields = () => ({
  ...base(),
  value: z.union([IsoDateSchema, z.date()]),
  readable: opt(z.string()),
});
export interface GroupedTimestampShape extends ShapeOf<typeof GroupedTimestampFields> {}
export const GroupedTimestampSchema: z.ZodObject<GroupedTimestampShape> =
  lazySchema(() => z.object(GroupedTimestampFields()));
export type GroupedTimestamp = z.infer<typeof GroupedTimestampSchema>;

/** Shape of `Referenced<X>`: REQ `id` · opt `reference`. */
const referencedFields = <R extends z.ZodType>(reference: R) => ({
  ...base(),
  id: IdSchema,
  reference: opt(reference),
});

/** `Referenced<X>` of a model we never flatten. */
const OpaqueReferencedSchema = lazySchema(() => z.object(referencedFields(z.unknown())));

/** Shape of `Flattened<X>s` (and of most `<X>s`): REQ `iterable` · opt `indices`, `score`. */
const flattenedFields = <R extends z.ZodType>(ref: R) => ({
  ...base(),
  iterable: z.array(ref),
  indices: opt(IndicesSchema),
  score: opt(ScoreSchema),
});

// ---------------------------------------------------------------------------
// Formats & content (leaves)
// ---------------------------------------------------------------------------

const ByteDescriptorFields = () => ({
  ...base(),
  value: z.number(),
  readable: z.string(),
});
export interface ByteDescriptorShape extends ShapeOf<typeof ByteDescriptorFields> {}
export const ByteDescriptorSchema: z.ZodObject<ByteDescriptorShape> =
  lazySchema(() => z.object(ByteDescriptorFields()));
export type ByteDescriptor = z.infer<typeof ByteDescriptorSchema>;

const ClassificationFields = () => ({
  ...base(),
  generic: ClassificationGenericEnumSchema,
  specific: ClassificationSpecificEnumSchema,
  rendering: opt(ClassificationRenderingEnumSchema),
});
export interface ClassificationShape extends ShapeOf<typeof ClassificationFields> {}
export const ClassificationSchema: z.ZodObject<ClassificationShape> =
  lazySchema(() => z.object(ClassificationFields()));
export type Classification = z.infer<typeof ClassificationSchema>;

const SeededClassificationFields = () => ({
  ...base(),
  generic: opt(ClassificationGenericEnumSchema),
  specific: opt(ClassificationSpecificEnumSchema),
  rendering: opt(ClassificationRenderingEnumSchema),
});
export interface SeededClassificationShape extends ShapeOf<typeof SeededClassificationFields> {}
export const SeededClassificationSchema: z.ZodObject<SeededClassificationShape> =
  lazySchema(() => z.object(SeededClassificationFields()));
export type SeededClassification = z.infer<typeof SeededClassificationSchema>;

const SeededAssetEnrichmentFields = () => ({
  ...base(),
  tags: opt(z.number()),
  websites: opt(z.number()),
  persons: opt(z.number()),
  hints: opt(z.number()),
});
export interface SeededAssetEnrichmentShape extends ShapeOf<typeof SeededAssetEnrichmentFields> {}
export const SeededAssetEnrichmentSchema: z.ZodObject<SeededAssetEnrichmentShape> =
  lazySchema(() => z.object(SeededAssetEnrichmentFields()));
export type SeededAssetEnrichment = z.infer<typeof SeededAssetEnrichmentSchema>;

const ApplicationFields = () => ({
  ...base(),
  id: IdSchema,
  name: ApplicationNameEnumSchema,
  version: z.string(),
  platform: PlatformEnumSchema,
  onboarded: z.boolean(),
  privacy: PrivacyEnumSchema,
  capabilities: opt(CapabilitiesEnumSchema),
  mechanism: opt(MechanismEnumSchema),
  automaticUnload: opt(z.boolean()),
  enrichment: opt(SeededAssetEnrichmentSchema),
});
export interface ApplicationShape extends ShapeOf<typeof ApplicationFields> {}
export const ApplicationSchema: z.ZodObject<ApplicationShape> = lazySchema(() => z.object(ApplicationFields()));
export type Application = z.infer<typeof ApplicationSchema>;

const TransferableStringFields = () => ({
  ...base(),
  raw: opt(z.string()),
  base64: opt(z.string()),
  base64_url: opt(z.string()),
  data_url: opt(z.string()),
});
export interface TransferableStringShape extends ShapeOf<typeof TransferableStringFields> {}
export const TransferableStringSchema: z.ZodObject<TransferableStringShape> =
  lazySchema(() => z.object(TransferableStringFields()));
export type TransferableString = z.infer<typeof TransferableStringSchema>;

const TransferableBytesFields = () => ({
  ...base(),
  raw: opt(z.array(z.number())),
  base64: opt(z.array(z.number())),
  base64_url: opt(z.array(z.number())),
  data_url: opt(z.array(z.number())),
});
export interface TransferableBytesShape extends ShapeOf<typeof TransferableBytesFields> {}
export const TransferableBytesSchema: z.ZodObject<TransferableBytesShape> =
  lazySchema(() => z.object(TransferableBytesFields()));
export type TransferableBytes = z.infer<typeof TransferableBytesSchema>;

const FragmentMetadataFields = () => ({
  ...base(),
  ext: opt(ClassificationSpecificEnumSchema),
});
export interface FragmentMetadataShape extends ShapeOf<typeof FragmentMetadataFields> {}
export const FragmentMetadataSchema: z.ZodObject<FragmentMetadataShape> =
  lazySchema(() => z.object(FragmentMetadataFields()));
export type FragmentMetadata = z.infer<typeof FragmentMetadataSchema>;

const FileMetadataFields = () => ({
  ...base(),
  name: opt(z.string()),
  ext: opt(ClassificationSpecificEnumSchema),
  size: opt(z.number()),
});
export interface FileMetadataShape extends ShapeOf<typeof FileMetadataFields> {}
export const FileMetadataSchema: z.ZodObject<FileMetadataShape> = lazySchema(() => z.object(FileMetadataFields()));
export type FileMetadata = z.infer<typeof FileMetadataSchema>;

const FragmentFormatFields = () => ({
  ...base(),
  string: opt(TransferableStringSchema),
  bytes: opt(TransferableBytesSchema),
  metadata: opt(FragmentMetadataSchema),
});
export interface FragmentFormatShape extends ShapeOf<typeof FragmentFormatFields> {}
export const FragmentFormatSchema: z.ZodObject<FragmentFormatShape> =
  lazySchema(() => z.object(FragmentFormatFields()));
export type FragmentFormat = z.infer<typeof FragmentFormatSchema>;

const FileFormatFields = () => ({
  ...base(),
  bytes: opt(TransferableBytesSchema),
  string: opt(TransferableStringSchema),
});
export interface FileFormatShape extends ShapeOf<typeof FileFormatFields> {}
export const FileFormatSchema: z.ZodObject<FileFormatShape> = lazySchema(() => z.object(FileFormatFields()));
export type FileFormat = z.infer<typeof FileFormatSchema>;

const SeededFragmentFields = () => ({
  ...base(),
  string: opt(TransferableStringSchema),
  bytes: opt(TransferableBytesSchema),
  metadata: opt(FragmentMetadataSchema),
});
export interface SeededFragmentShape extends ShapeOf<typeof SeededFragmentFields> {}
export const SeededFragmentSchema: z.ZodObject<SeededFragmentShape> =
  lazySchema(() => z.object(SeededFragmentFields()));
export type SeededFragment = z.infer<typeof SeededFragmentSchema>;

const SeededFileFields = () => ({
  ...base(),
  bytes: opt(TransferableBytesSchema),
  string: opt(TransferableStringSchema),
  metadata: opt(FileMetadataSchema),
});
export interface SeededFileShape extends ShapeOf<typeof SeededFileFields> {}
export const SeededFileSchema: z.ZodObject<SeededFileShape> = lazySchema(() => z.object(SeededFileFields()));
export type SeededFile = z.infer<typeof SeededFileSchema>;

const SeededFormatFields = () => ({
  ...base(),
  file: opt(SeededFileSchema),
  fragment: opt(SeededFragmentSchema),
  classification: opt(SeededClassificationSchema),
});
export interface SeededFormatShape extends ShapeOf<typeof SeededFormatFields> {}
export const SeededFormatSchema: z.ZodObject<SeededFormatShape> = lazySchema(() => z.object(SeededFormatFields()));
export type SeededFormat = z.infer<typeof SeededFormatSchema>;

// ---------------------------------------------------------------------------
// Reference collections (references to models we do not flatten are `unknown`)
// ---------------------------------------------------------------------------

const ReferencedTagFields = () => referencedFields(z.unknown());
export interface ReferencedTagShape extends ShapeOf<typeof ReferencedTagFields> {}
export const ReferencedTagSchema: z.ZodObject<ReferencedTagShape> = lazySchema(() => z.object(ReferencedTagFields()));
export type ReferencedTag = z.infer<typeof ReferencedTagSchema>;
const FlattenedTagsFields = () => flattenedFields(ReferencedTagSchema);
export interface FlattenedTagsShape extends ShapeOf<typeof FlattenedTagsFields> {}
export const FlattenedTagsSchema: z.ZodObject<FlattenedTagsShape> = lazySchema(() => z.object(FlattenedTagsFields()));
export type FlattenedTags = z.infer<typeof FlattenedTagsSchema>;

const ReferencedWebsiteFields = () => referencedFields(z.unknown());
export interface ReferencedWebsiteShape extends ShapeOf<typeof ReferencedWebsiteFields> {}
export const ReferencedWebsiteSchema: z.ZodObject<ReferencedWebsiteShape> =
  lazySchema(() => z.object(ReferencedWebsiteFields()));
export type ReferencedWebsite = z.infer<typeof ReferencedWebsiteSchema>;
const FlattenedWebsitesFields = () => flattenedFields(ReferencedWebsiteSchema);
export interface FlattenedWebsitesShape extends ShapeOf<typeof FlattenedWebsitesFields> {}
export const FlattenedWebsitesSchema: z.ZodObject<FlattenedWebsitesShape> =
  lazySchema(() => z.object(FlattenedWebsitesFields()));
export type FlattenedWebsites = z.infer<typeof FlattenedWebsitesSchema>;

const ReferencedWorkstreamSummaryFields = () => referencedFields(z.unknown());
export interface ReferencedWorkstreamSummaryShape extends ShapeOf<typeof ReferencedWorkstreamSummaryFields> {}
export const ReferencedWorkstreamSummarySchema: z.ZodObject<ReferencedWorkstreamSummaryShape> =
  lazySchema(() => z.object(ReferencedWorkstreamSummaryFields()));
export type ReferencedWorkstreamSummary = z.infer<typeof ReferencedWorkstreamSummarySchema>;
const FlattenedWorkstreamSummariesFields = () => flattenedFields(ReferencedWorkstreamSummarySchema);
export interface FlattenedWorkstreamSummariesShape extends ShapeOf<typeof FlattenedWorkstreamSummariesFields> {}
export const FlattenedWorkstreamSummariesSchema: z.ZodObject<FlattenedWorkstreamSummariesShape> =
  lazySchema(() => z.object(FlattenedWorkstreamSummariesFields()));
export type FlattenedWorkstreamSummaries = z.infer<typeof FlattenedWorkstreamSummariesSchema>;

const ReferencedPersonFields = () => referencedFields(z.unknown());
export interface ReferencedPersonShape extends ShapeOf<typeof ReferencedPersonFields> {}
export const ReferencedPersonSchema: z.ZodObject<ReferencedPersonShape> =
  lazySchema(() => z.object(ReferencedPersonFields()));
export type ReferencedPerson = z.infer<typeof ReferencedPersonSchema>;
const FlattenedPersonsFields = () => flattenedFields(ReferencedPersonSchema);
export interface FlattenedPersonsShape extends ShapeOf<typeof FlattenedPersonsFields> {}
export const FlattenedPersonsSchema: z.ZodObject<FlattenedPersonsShape> =
  lazySchema(() => z.object(FlattenedPersonsFields()));
export type FlattenedPersons = z.infer<typeof FlattenedPersonsSchema>;

const ReferencedAnnotationFields = () => referencedFields(z.unknown());
export interface ReferencedAnnotationShape extends ShapeOf<typeof ReferencedAnnotationFields> {}
export const ReferencedAnnotationSchema: z.ZodObject<ReferencedAnnotationShape> =
  lazySchema(() => z.object(ReferencedAnnotationFields()));
export type ReferencedAnnotation = z.infer<typeof ReferencedAnnotationSchema>;
const FlattenedAnnotationsFields = () => flattenedFields(ReferencedAnnotationSchema);
export interface FlattenedAnnotationsShape extends ShapeOf<typeof FlattenedAnnotationsFields> {}
export const FlattenedAnnotationsSchema: z.ZodObject<FlattenedAnnotationsShape> =
  lazySchema(() => z.object(FlattenedAnnotationsFields()));
export type FlattenedAnnotations = z.infer<typeof FlattenedAnnotationsSchema>;

const ReferencedActivityFields = () => referencedFields(z.unknown());
export interface ReferencedActivityShape extends ShapeOf<typeof ReferencedActivityFields> {}
export const ReferencedActivitySchema: z.ZodObject<ReferencedActivityShape> =
  lazySchema(() => z.object(ReferencedActivityFields()));
export type ReferencedActivity = z.infer<typeof ReferencedActivitySchema>;
const FlattenedActivitiesFields = () => flattenedFields(ReferencedActivitySchema);
export interface FlattenedActivitiesShape extends ShapeOf<typeof FlattenedActivitiesFields> {}
export const FlattenedActivitiesSchema: z.ZodObject<FlattenedActivitiesShape> =
  lazySchema(() => z.object(FlattenedActivitiesFields()));
export type FlattenedActivities = z.infer<typeof FlattenedActivitiesSchema>;

const ReferencedConversationFields = () => referencedFields(z.unknown());
export interface ReferencedConversationShape extends ShapeOf<typeof ReferencedConversationFields> {}
export const ReferencedConversationSchema: z.ZodObject<ReferencedConversationShape> =
  lazySchema(() => z.object(ReferencedConversationFields()));
export type ReferencedConversation = z.infer<typeof ReferencedConversationSchema>;
const FlattenedConversationsFields = () => flattenedFields(ReferencedConversationSchema);
export interface FlattenedConversationsShape extends ShapeOf<typeof FlattenedConversationsFields> {}
export const FlattenedConversationsSchema: z.ZodObject<FlattenedConversationsShape> =
  lazySchema(() => z.object(FlattenedConversationsFields()));
export type FlattenedConversations = z.infer<typeof FlattenedConversationsSchema>;

const ReferencedConversationMessageFields = () => referencedFields(z.unknown());
export interface ReferencedConversationMessageShape extends ShapeOf<typeof ReferencedConversationMessageFields> {}
export const ReferencedConversationMessageSchema: z.ZodObject<ReferencedConversationMessageShape> =
  lazySchema(() => z.object(ReferencedConversationMessageFields()));
export type ReferencedConversationMessage = z.infer<typeof ReferencedConversationMessageSchema>;
const FlattenedConversationMessagesFields = () => flattenedFields(ReferencedConversationMessageSchema);
export interface FlattenedConversationMessagesShape extends ShapeOf<typeof FlattenedConversationMessagesFields> {}
export const FlattenedConversationMessagesSchema: z.ZodObject<FlattenedConversationMessagesShape> =
  lazySchema(() => z.object(FlattenedConversationMessagesFields()));
export type FlattenedConversationMessages = z.infer<typeof FlattenedConversationMessagesSchema>;

const ReferencedAnchorFields = () => referencedFields(z.unknown());
export interface ReferencedAnchorShape extends ShapeOf<typeof ReferencedAnchorFields> {}
export const ReferencedAnchorSchema: z.ZodObject<ReferencedAnchorShape> =
  lazySchema(() => z.object(ReferencedAnchorFields()));
export type ReferencedAnchor = z.infer<typeof ReferencedAnchorSchema>;
const FlattenedAnchorsFields = () => flattenedFields(ReferencedAnchorSchema);
export interface FlattenedAnchorsShape extends ShapeOf<typeof FlattenedAnchorsFields> {}
export const FlattenedAnchorsSchema: z.ZodObject<FlattenedAnchorsShape> =
  lazySchema(() => z.object(FlattenedAnchorsFields()));
export type FlattenedAnchors = z.infer<typeof FlattenedAnchorsSchema>;

const ReferencedModelFields = () => referencedFields(z.unknown());
export interface ReferencedModelShape extends ShapeOf<typeof ReferencedModelFields> {}
export const ReferencedModelSchema: z.ZodObject<ReferencedModelShape> =
  lazySchema(() => z.object(ReferencedModelFields()));
export type ReferencedModel = z.infer<typeof ReferencedModelSchema>;

const FlattenedHintsFields = () => flattenedFields(OpaqueReferencedSchema);
export interface FlattenedHintsShape extends ShapeOf<typeof FlattenedHintsFields> {}
export const FlattenedHintsSchema: z.ZodObject<FlattenedHintsShape> =
  lazySchema(() => z.object(FlattenedHintsFields()));
export type FlattenedHints = z.infer<typeof FlattenedHintsSchema>;
const FlattenedSensitivesFields = () => flattenedFields(OpaqueReferencedSchema);
export interface FlattenedSensitivesShape extends ShapeOf<typeof FlattenedSensitivesFields> {}
export const FlattenedSensitivesSchema: z.ZodObject<FlattenedSensitivesShape> =
  lazySchema(() => z.object(FlattenedSensitivesFields()));
export type FlattenedSensitives = z.infer<typeof FlattenedSensitivesSchema>;
/** Not a collection object: `FlattenedShare[]`. */
export const FlattenedSharesSchema = lazySchema(() => z.array(z.unknown()));
export type FlattenedShares = z.infer<typeof FlattenedSharesSchema>;
const FlattenedRangesFields = () => ({
  ...flattenedFields(OpaqueReferencedSchema),
  continuous: opt(z.boolean()),
});
export interface FlattenedRangesShape extends ShapeOf<typeof FlattenedRangesFields> {}
export const FlattenedRangesSchema: z.ZodObject<FlattenedRangesShape> =
  lazySchema(() => z.object(FlattenedRangesFields()));
export type FlattenedRanges = z.infer<typeof FlattenedRangesSchema>;
const FlattenedAnchorPointsFields = () => flattenedFields(OpaqueReferencedSchema);
export interface FlattenedAnchorPointsShape extends ShapeOf<typeof FlattenedAnchorPointsFields> {}
export const FlattenedAnchorPointsSchema: z.ZodObject<FlattenedAnchorPointsShape> =
  lazySchema(() => z.object(FlattenedAnchorPointsFields()));
export type FlattenedAnchorPoints = z.infer<typeof FlattenedAnchorPointsSchema>;
const FlattenedWorkstreamEventsFields = () => flattenedFields(OpaqueReferencedSchema);
export interface FlattenedWorkstreamEventsShape extends ShapeOf<typeof FlattenedWorkstreamEventsFields> {}
export const FlattenedWorkstreamEventsSchema: z.ZodObject<FlattenedWorkstreamEventsShape> =
  lazySchema(() => z.object(FlattenedWorkstreamEventsFields()));
export type FlattenedWorkstreamEvents = z.infer<typeof FlattenedWorkstreamEventsSchema>;
const FlattenedIdentifiedWorkstreamPatternEngineSourcesFields = () => flattenedFields(OpaqueReferencedSchema);
export interface FlattenedIdentifiedWorkstreamPatternEngineSourcesShape
  extends ShapeOf<typeof FlattenedIdentifiedWorkstreamPatternEngineSourcesFields> {}
export const FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema: z.ZodObject<
  FlattenedIdentifiedWorkstreamPatternEngineSourcesShape
> =
  lazySchema(() => z.object(FlattenedIdentifiedWorkstreamPatternEngineSourcesFields()));
export type FlattenedIdentifiedWorkstreamPatternEngineSources = z.infer<
  typeof FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema
>;
const FlattenedWorkstreamPatternEngineSourceWindowsFields = () => flattenedFields(OpaqueReferencedSchema);
export interface FlattenedWorkstreamPatternEngineSourceWindowsShape
  extends ShapeOf<typeof FlattenedWorkstreamPatternEngineSourceWindowsFields> {}
export const FlattenedWorkstreamPatternEngineSourceWindowsSchema: z.ZodObject<
  FlattenedWorkstreamPatternEngineSourceWindowsShape
> =
  lazySchema(() => z.object(FlattenedWorkstreamPatternEngineSourceWindowsFields()));
export type FlattenedWorkstreamPatternEngineSourceWindows = z.infer<
  typeof FlattenedWorkstreamPatternEngineSourceWindowsSchema
>;

const FlattenedUserProfileFields = () => ({
  ...base(),
  id: IdSchema,
  email: opt(z.string()),
  name: opt(z.string()),
  username: opt(z.string()),
  picture: opt(z.string()),
  vanityname: opt(z.string()),
});
export interface FlattenedUserProfileShape extends ShapeOf<typeof FlattenedUserProfileFields> {}
export const FlattenedUserProfileSchema: z.ZodObject<FlattenedUserProfileShape> =
  lazySchema(() => z.object(FlattenedUserProfileFields()));
export type FlattenedUserProfile = z.infer<typeof FlattenedUserProfileSchema>;

// ---------------------------------------------------------------------------
// Flattened formats & assets
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Activities, formats
// ---------------------------------------------------------------------------

const trackedEvent = lazySchema(() => opt(LooseMapSchema));
const SeededConnectorTrackingFields = () => ({
  ...base(),
  format: trackedEvent,
  asset: trackedEvent,
  interaction: trackedEvent,
  keyboard: trackedEvent,
  session: trackedEvent,
  assets: trackedEvent,
  ml: trackedEvent,
  adoption: trackedEvent,
  conversation: trackedEvent,
  conversation_message: trackedEvent,
  workstream_summary: trackedEvent,
});
export interface SeededConnectorTrackingShape extends ShapeOf<typeof SeededConnectorTrackingFields> {}
export const SeededConnectorTrackingSchema: z.ZodObject<SeededConnectorTrackingShape> =
  lazySchema(() => z.object(SeededConnectorTrackingFields()));
export type SeededConnectorTracking = z.infer<typeof SeededConnectorTrackingSchema>;

const ActivityFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  event: SeededConnectorTrackingSchema,
  application: ApplicationSchema,
  mechanism: MechanismEnumSchema,
  deleted: opt(GroupedTimestampSchema),
  asset: opt(FlattenedAssetSchema),
  user: opt(FlattenedUserProfileSchema),
  format: opt(FlattenedFormatSchema),
  rank: opt(z.number()),
});
export interface ActivityShape extends ShapeOf<typeof ActivityFields> {}
export const ActivitySchema: z.ZodObject<ActivityShape> = lazySchema(() => z.object(ActivityFields()));
export type Activity = z.infer<typeof ActivitySchema>;

const ActivitiesFields = () => ({
  ...base(),
  iterable: z.array(ActivitySchema),
});
export interface ActivitiesShape extends ShapeOf<typeof ActivitiesFields> {}
export const ActivitiesSchema: z.ZodObject<ActivitiesShape> = lazySchema(() => z.object(ActivitiesFields()));
export type Activities = z.infer<typeof ActivitiesSchema>;

const FormatFields = () => ({
  ...base(),
  id: UuidSchema,
  creator: z.string(),
  classification: ClassificationSchema,
  role: RoleSchema,
  application: ApplicationSchema,
  asset: FlattenedAssetSchema,
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
  activities: opt(ActivitiesSchema),
});
export interface FormatShape extends ShapeOf<typeof FormatFields> {}
export const FormatSchema: z.ZodObject<FormatShape> = lazySchema(() => z.object(FormatFields()));
export type Format = z.infer<typeof FormatSchema>;

const FormatsFields = () => ({
  ...base(),
  iterable: z.array(FormatSchema),
});
export interface FormatsShape extends ShapeOf<typeof FormatsFields> {}
export const FormatsSchema: z.ZodObject<FormatsShape> = lazySchema(() => z.object(FormatsFields()));
export type Formats = z.infer<typeof FormatsSchema>;

// ---------------------------------------------------------------------------
// Models, users, persons
// ---------------------------------------------------------------------------

const ModelMaxTokensFields = () => ({
  ...base(),
  total: z.number().nullable(),
  input: opt(z.number()),
  output: opt(z.number()),
});
export interface ModelMaxTokensShape extends ShapeOf<typeof ModelMaxTokensFields> {}
export const ModelMaxTokensSchema: z.ZodObject<ModelMaxTokensShape> =
  lazySchema(() => z.object(ModelMaxTokensFields()));
export type ModelMaxTokens = z.infer<typeof ModelMaxTokensSchema>;

const ModelFields = () => ({
  ...base(),
  id: IdSchema,
  version: z.string(),
  created: GroupedTimestampSchema,
  name: z.string(),
  cloud: z.boolean(),
  type: ModelTypeEnumSchema,
  usage: ModelUsageEnumSchema,
  description: opt(z.string()),
  bytes: opt(ByteDescriptorSchema),
  ram: opt(ByteDescriptorSchema),
  quantization: opt(z.string()),
  foundation: opt(z.string()),
  downloaded: opt(z.boolean()),
  loaded: opt(z.boolean()),
  unique: opt(z.string()),
  parameters: opt(z.number()),
  provider: opt(z.string()),
  cpu: opt(z.boolean()),
  downloading: opt(z.boolean()),
  maxTokens: opt(ModelMaxTokensSchema),
  custom: opt(z.boolean()),
  capabilities: opt(z.unknown()),
  score: opt(ScoreSchema),
});
export interface ModelShape extends ShapeOf<typeof ModelFields> {}
export const ModelSchema: z.ZodObject<ModelShape> = lazySchema(() => z.object(ModelFields()));
export type Model = z.infer<typeof ModelSchema>;

const ModelsFields = () => ({
  ...base(),
  iterable: z.array(ModelSchema),
  score: opt(ScoreSchema),
});
export interface ModelsShape extends ShapeOf<typeof ModelsFields> {}
export const ModelsSchema: z.ZodObject<ModelsShape> = lazySchema(() => z.object(ModelsFields()));
export type Models = z.infer<typeof ModelsSchema>;

const UserProfileFields = () => ({
  ...base(),
  id: IdSchema,
  aesthetics: z.looseObject({}),
  picture: opt(z.string()),
  email: opt(z.string()),
  created: opt(GroupedTimestampSchema),
  updated: opt(GroupedTimestampSchema),
  username: opt(z.string()),
  name: opt(z.string()),
  vanityname: opt(z.string()),
  allocation: opt(z.unknown()),
  providers: opt(z.unknown()),
  auth0: opt(z.unknown()),
  descope: opt(z.unknown()),
});
export interface UserProfileShape extends ShapeOf<typeof UserProfileFields> {}
export const UserProfileSchema: z.ZodObject<UserProfileShape> = lazySchema(() => z.object(UserProfileFields()));
export type UserProfile = z.infer<typeof UserProfileSchema>;

const PersonBasicTypeFields = () => ({
  ...base(),
  username: opt(z.string()),
  name: opt(z.string()),
  picture: opt(z.string()),
  email: opt(z.string()),
  sourced: opt(z.unknown()),
  url: opt(z.string()),
  mailgun: opt(z.unknown()),
});
export interface PersonBasicTypeShape extends ShapeOf<typeof PersonBasicTypeFields> {}
export const PersonBasicTypeSchema: z.ZodObject<PersonBasicTypeShape, z.core.$loose> =
  lazySchema(() => z.looseObject(PersonBasicTypeFields()));
export type PersonBasicType = z.infer<typeof PersonBasicTypeSchema>;

const PersonTypeFields = () => ({
  ...base(),
  basic: opt(PersonBasicTypeSchema),
  platform: opt(UserProfileSchema),
});
export interface PersonTypeShape extends ShapeOf<typeof PersonTypeFields> {}
export const PersonTypeSchema: z.ZodObject<PersonTypeShape> = lazySchema(() => z.object(PersonTypeFields()));
export type PersonType = z.infer<typeof PersonTypeSchema>;

const PersonFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  type: PersonTypeSchema,
  deleted: opt(GroupedTimestampSchema),
  assets: opt(FlattenedAssetsSchema),
  mechanisms: opt(MechanismsMapSchema),
  interactions: opt(z.number()),
  access: opt(LooseMapSchema),
  tags: opt(FlattenedTagsSchema),
  websites: opt(FlattenedWebsitesSchema),
  models: opt(LooseMapSchema),
  annotations: opt(FlattenedAnnotationsSchema),
  score: opt(ScoreSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  anchors: opt(FlattenedAnchorsSchema),
  messages: opt(FlattenedConversationMessagesSchema),
  persons: opt(FlattenedPersonsSchema),
  workstream_events: opt(FlattenedWorkstreamEventsSchema),
  sources: opt(FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema),
});
export interface PersonShape extends ShapeOf<typeof PersonFields> {}
export const PersonSchema: z.ZodObject<PersonShape> = lazySchema(() => z.object(PersonFields()));
export type Person = z.infer<typeof PersonSchema>;

const PersonsFields = () => flattenedFields(PersonSchema);
export interface PersonsShape extends ShapeOf<typeof PersonsFields> {}
export const PersonsSchema: z.ZodObject<PersonsShape> = lazySchema(() => z.object(PersonsFields()));
export type Persons = z.infer<typeof PersonsSchema>;

// ---------------------------------------------------------------------------
// Asset sub-collections
// ---------------------------------------------------------------------------

const TagFields = () => ({
  ...base(),
  id: IdSchema,
  text: z.string(),
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  category: TagCategoryEnumSchema,
  mechanisms: opt(MechanismsMapSchema),
  assets: opt(FlattenedAssetsSchema),
  deleted: opt(GroupedTimestampSchema),
  relationship: opt(z.unknown()),
  interactions: opt(z.number()),
  persons: opt(FlattenedPersonsSchema),
  score: opt(ScoreSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  workstream_events: opt(FlattenedWorkstreamEventsSchema),
  messages: opt(FlattenedConversationMessagesSchema),
  annotations: opt(FlattenedAnnotationsSchema),
  tagsVector: opt(z.array(z.number())),
  source_windows: opt(FlattenedWorkstreamPatternEngineSourceWindowsSchema),
  websites: opt(FlattenedWebsitesSchema),
  anchors: opt(FlattenedAnchorsSchema),
});
export interface TagShape extends ShapeOf<typeof TagFields> {}
export const TagSchema: z.ZodObject<TagShape> = lazySchema(() => z.object(TagFields()));
export type Tag = z.infer<typeof TagSchema>;

const TagsFields = () => flattenedFields(TagSchema);
export interface TagsShape extends ShapeOf<typeof TagsFields> {}
export const TagsSchema: z.ZodObject<TagsShape> = lazySchema(() => z.object(TagsFields()));
export type Tags = z.infer<typeof TagsSchema>;

const WebsiteFields = () => ({
  ...base(),
  id: IdSchema,
  url: z.string(),
  name: z.string(),
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  assets: opt(FlattenedAssetsSchema),
  deleted: opt(GroupedTimestampSchema),
  mechanisms: opt(MechanismsMapSchema),
  interactions: opt(z.number()),
  persons: opt(FlattenedPersonsSchema),
  conversations: opt(FlattenedConversationsSchema),
  score: opt(ScoreSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  messages: opt(FlattenedConversationMessagesSchema),
  annotations: opt(FlattenedAnnotationsSchema),
  workstream_events: opt(FlattenedWorkstreamEventsSchema),
  sources: opt(FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema),
  source_windows: opt(FlattenedWorkstreamPatternEngineSourceWindowsSchema),
  tags: opt(FlattenedTagsSchema),
});
export interface WebsiteShape extends ShapeOf<typeof WebsiteFields> {}
export const WebsiteSchema: z.ZodObject<WebsiteShape> = lazySchema(() => z.object(WebsiteFields()));
export type Website = z.infer<typeof WebsiteSchema>;

const WebsitesFields = () => flattenedFields(WebsiteSchema);
export interface WebsitesShape extends ShapeOf<typeof WebsitesFields> {}
export const WebsitesSchema: z.ZodObject<WebsitesShape> = lazySchema(() => z.object(WebsitesFields()));
export type Websites = z.infer<typeof WebsitesSchema>;

const WorkstreamSummaryFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  name: z.string(),
  model: ModelSchema,
  score: opt(ScoreSchema),
  events: opt(FlattenedWorkstreamEventsSchema),
  annotations: opt(FlattenedAnnotationsSchema),
  ranges: opt(FlattenedRangesSchema),
  websites: opt(FlattenedWebsitesSchema),
  anchors: opt(FlattenedAnchorsSchema),
  assets: opt(FlattenedAssetsSchema),
  conversations: opt(FlattenedConversationsSchema),
  persons: opt(FlattenedPersonsSchema),
  applications: opt(z.unknown()),
  tags: opt(FlattenedTagsSchema),
  workstreamSummariesVector: opt(z.array(z.number())),
  sources: opt(FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema),
  processing: opt(CapabilitiesEnumSchema),
  favorited: opt(z.boolean()),
  messages: opt(FlattenedConversationMessagesSchema),
  mechanism: opt(MechanismEnumSchema),
});
export interface WorkstreamSummaryShape extends ShapeOf<typeof WorkstreamSummaryFields> {}
export const WorkstreamSummarySchema: z.ZodObject<WorkstreamSummaryShape> =
  lazySchema(() => z.object(WorkstreamSummaryFields()));
export type WorkstreamSummary = z.infer<typeof WorkstreamSummarySchema>;

const WorkstreamSummariesFields = () => flattenedFields(WorkstreamSummarySchema);
export interface WorkstreamSummariesShape extends ShapeOf<typeof WorkstreamSummariesFields> {}
export const WorkstreamSummariesSchema: z.ZodObject<WorkstreamSummariesShape> =
  lazySchema(() => z.object(WorkstreamSummariesFields()));
export type WorkstreamSummaries = z.infer<typeof WorkstreamSummariesSchema>;

const AnnotationFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  type: AnnotationTypeEnumSchema,
  text: z.string(),
  deleted: opt(GroupedTimestampSchema),
  mechanism: opt(MechanismEnumSchema),
  asset: opt(ReferencedAssetSchema),
  person: opt(ReferencedPersonSchema),
  model: opt(ReferencedModelSchema),
  pseudo: opt(z.boolean()),
  favorited: opt(z.boolean()),
  anchor: opt(ReferencedAnchorSchema),
  conversation: opt(ReferencedConversationSchema),
  score: opt(ScoreSchema),
  messages: opt(FlattenedConversationMessagesSchema),
  summary: opt(ReferencedWorkstreamSummarySchema),
  assets: opt(FlattenedAssetsSchema),
  persons: opt(FlattenedPersonsSchema),
  anchors: opt(FlattenedAnchorsSchema),
  conversations: opt(FlattenedConversationsSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  websites: opt(FlattenedWebsitesSchema),
  tags: opt(FlattenedTagsSchema),
  workstream_events: opt(FlattenedWorkstreamEventsSchema),
});
export interface AnnotationShape extends ShapeOf<typeof AnnotationFields> {}
export const AnnotationSchema: z.ZodObject<AnnotationShape> = lazySchema(() => z.object(AnnotationFields()));
export type Annotation = z.infer<typeof AnnotationSchema>;

const AnnotationsFields = () => flattenedFields(AnnotationSchema);
export interface AnnotationsShape extends ShapeOf<typeof AnnotationsFields> {}
export const AnnotationsSchema: z.ZodObject<AnnotationsShape> = lazySchema(() => z.object(AnnotationsFields()));
export type Annotations = z.infer<typeof AnnotationsSchema>;

const HintFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  type: HintTypeEnumSchema,
  text: z.string(),
  deleted: opt(GroupedTimestampSchema),
  mechanisms: opt(MechanismsMapSchema),
  assets: opt(FlattenedAssetsSchema),
  model: opt(ReferencedModelSchema),
  score: opt(ScoreSchema),
});
export interface HintShape extends ShapeOf<typeof HintFields> {}
export const HintSchema: z.ZodObject<HintShape> = lazySchema(() => z.object(HintFields()));
export type Hint = z.infer<typeof HintSchema>;

const HintsFields = () => flattenedFields(HintSchema);
export interface HintsShape extends ShapeOf<typeof HintsFields> {}
export const HintsSchema: z.ZodObject<HintsShape> = lazySchema(() => z.object(HintsFields()));
export type Hints = z.infer<typeof HintsSchema>;

/** Only `task` / `conversation` sub-pipelines; their contents are passed through. */
const QGPTPromptPipelineFields = () => ({
  ...base(),
  task: opt(z.unknown()),
  conversation: opt(z.unknown()),
});
export interface QGPTPromptPipelineShape extends ShapeOf<typeof QGPTPromptPipelineFields> {}
export const QGPTPromptPipelineSchema: z.ZodObject<QGPTPromptPipelineShape, z.core.$loose> =
  lazySchema(() => z.looseObject(QGPTPromptPipelineFields()));
export type QGPTPromptPipeline = z.infer<typeof QGPTPromptPipelineSchema>;

const ConversationFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  messages: FlattenedConversationMessagesSchema,
  type: ConversationTypeEnumSchema,
  name: opt(z.string()),
  deleted: opt(GroupedTimestampSchema),
  favorited: opt(z.boolean()),
  application: opt(ApplicationSchema),
  annotations: opt(FlattenedAnnotationsSchema),
  model: opt(ReferencedModelSchema),
  assets: opt(FlattenedAssetsSchema),
  websites: opt(FlattenedWebsitesSchema),
  anchors: opt(FlattenedAnchorsSchema),
  grounding: opt(z.unknown()),
  score: opt(ScoreSchema),
  pipeline: opt(QGPTPromptPipelineSchema),
  demo: opt(z.boolean()),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
});
export interface ConversationShape extends ShapeOf<typeof ConversationFields> {}
export const ConversationSchema: z.ZodObject<ConversationShape> = lazySchema(() => z.object(ConversationFields()));
export type Conversation = z.infer<typeof ConversationSchema>;

const ConversationsFields = () => flattenedFields(ConversationSchema);
export interface ConversationsShape extends ShapeOf<typeof ConversationsFields> {}
export const ConversationsSchema: z.ZodObject<ConversationsShape> = lazySchema(() => z.object(ConversationsFields()));
export type Conversations = z.infer<typeof ConversationsSchema>;

const ConversationMessageFields = () => ({
  ...base(),
  id: IdSchema,
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  conversation: ReferencedConversationSchema,
  role: QGPTConversationMessageRoleEnumSchema,
  deleted: opt(GroupedTimestampSchema),
  model: opt(ModelSchema),
  fragment: opt(FragmentFormatSchema),
  sentiment: opt(ConversationMessageSentimentEnumSchema),
  score: opt(ScoreSchema),
  annotations: opt(FlattenedAnnotationsSchema),
  websites: opt(FlattenedWebsitesSchema),
  persons: opt(FlattenedPersonsSchema),
  anchors: opt(FlattenedAnchorsSchema),
  assets: opt(FlattenedAssetsSchema),
  ranges: opt(FlattenedRangesSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
  tags: opt(FlattenedTagsSchema),
  messages: opt(FlattenedConversationMessagesSchema),
  workstream_events: opt(FlattenedWorkstreamEventsSchema),
  sources: opt(FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema),
});
export interface ConversationMessageShape extends ShapeOf<typeof ConversationMessageFields> {}
export const ConversationMessageSchema: z.ZodObject<ConversationMessageShape> =
  lazySchema(() => z.object(ConversationMessageFields()));
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;

const ConversationMessagesFields = () => flattenedFields(ConversationMessageSchema);
export interface ConversationMessagesShape extends ShapeOf<typeof ConversationMessagesFields> {}
export const ConversationMessagesSchema: z.ZodObject<ConversationMessagesShape> =
  lazySchema(() => z.object(ConversationMessagesFields()));
export type ConversationMessages = z.infer<typeof ConversationMessagesSchema>;

/** Placeholders: elements are not validated. */
const SharesFields = () => ({ ...base(), iterable: z.array(z.unknown()), score: opt(ScoreSchema) });
export interface SharesShape extends ShapeOf<typeof SharesFields> {}
export const SharesSchema: z.ZodObject<SharesShape> = lazySchema(() => z.object(SharesFields()));
export type Shares = z.infer<typeof SharesSchema>;
const SensitivesFields = () => ({ ...base(), iterable: z.array(z.unknown()), score: opt(ScoreSchema) });
export interface SensitivesShape extends ShapeOf<typeof SensitivesFields> {}
export const SensitivesSchema: z.ZodObject<SensitivesShape> = lazySchema(() => z.object(SensitivesFields()));
export type Sensitives = z.infer<typeof SensitivesSchema>;
const AnchorsFields = () => flattenedFields(z.unknown());
export interface AnchorsShape extends ShapeOf<typeof AnchorsFields> {}
export const AnchorsSchema: z.ZodObject<AnchorsShape> = lazySchema(() => z.object(AnchorsFields()));
export type Anchors = z.infer<typeof AnchorsSchema>;

// ---------------------------------------------------------------------------
// Assets
// ---------------------------------------------------------------------------

const AssetFields = () => ({
  ...base(),
  id: UuidSchema,
  creator: z.string(),
  created: GroupedTimestampSchema,
  updated: GroupedTimestampSchema,
  formats: FormatsSchema,
  preview: PreviewSchema,
  original: ReferencedFormatSchema,
  mechanism: MechanismEnumSchema,
  name: opt(z.string()),
  synced: opt(GroupedTimestampSchema),
  deleted: opt(GroupedTimestampSchema),
  shares: opt(SharesSchema),
  websites: opt(WebsitesSchema),
  interacted: opt(GroupedTimestampSchema),
  tags: opt(TagsSchema),
  sensitives: opt(SensitivesSchema),
  persons: opt(PersonsSchema),
  curated: opt(z.boolean()),
  discovered: opt(z.boolean()),
  activities: opt(ActivitiesSchema),
  score: opt(ScoreSchema),
  favorited: opt(z.boolean()),
  pseudo: opt(z.boolean()),
  annotations: opt(AnnotationsSchema),
  hints: opt(HintsSchema),
  anchors: opt(AnchorsSchema),
  conversations: opt(ConversationsSchema),
  summaries: opt(WorkstreamSummariesSchema),
  messages: opt(ConversationMessagesSchema),
  demo: opt(z.boolean()),
});
export interface AssetShape extends ShapeOf<typeof AssetFields> {}
export const AssetSchema: z.ZodObject<AssetShape> = lazySchema(() => z.object(AssetFields()));
export type Asset = z.infer<typeof AssetSchema>;

const AssetsFields = () => flattenedFields(AssetSchema);
export interface AssetsShape extends ShapeOf<typeof AssetsFields> {}
export const AssetsSchema: z.ZodObject<AssetsShape> = lazySchema(() => z.object(AssetsFields()));
export type Assets = z.infer<typeof AssetsSchema>;

// ---------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------

const SearchedAssetFields = () => ({
  ...base(),
  exact: z.boolean(),
  score: z.number(),
  match: SearchedMatchEnumSchema,
  identifier: z.string(),
  asset: opt(AssetSchema),
  pseudo: opt(z.boolean()),
});
export interface SearchedAssetShape extends ShapeOf<typeof SearchedAssetFields> {}
export const SearchedAssetSchema: z.ZodObject<SearchedAssetShape> = lazySchema(() => z.object(SearchedAssetFields()));
export type SearchedAsset = z.infer<typeof SearchedAssetSchema>;

const SearchedAssetsFields = () => ({
  ...base(),
  iterable: z.array(SearchedAssetSchema),
  suggested: z.number(),
  exact: z.number(),
});
export interface SearchedAssetsShape extends ShapeOf<typeof SearchedAssetsFields> {}
export const SearchedAssetsSchema: z.ZodObject<SearchedAssetsShape> =
  lazySchema(() => z.object(SearchedAssetsFields()));
export type SearchedAssets = z.infer<typeof SearchedAssetsSchema>;

/** Note the wire spelling `identifers`. */
const AssetSearchSpaceFields = () => ({
  ...base(),
  identifers: FlattenedAssetsSchema,
});
export interface AssetSearchSpaceShape extends ShapeOf<typeof AssetSearchSpaceFields> {}
export const AssetSearchSpaceSchema: z.ZodObject<AssetSearchSpaceShape> =
  lazySchema(() => z.object(AssetSearchSpaceFields()));
export type AssetSearchSpace = z.infer<typeof AssetSearchSpaceSchema>;

const AssetFilterPhraseOptionsFields = () => ({
  ...base(),
  annotation: opt(AnnotationTypeEnumSchema),
});
export interface AssetFilterPhraseOptionsShape extends ShapeOf<typeof AssetFilterPhraseOptionsFields> {}
export const AssetFilterPhraseOptionsSchema: z.ZodObject<AssetFilterPhraseOptionsShape> =
  lazySchema(() => z.object(AssetFilterPhraseOptionsFields()));
export type AssetFilterPhraseOptions = z.infer<typeof AssetFilterPhraseOptionsSchema>;

const AssetFilterPhraseFields = () => ({
  ...base(),
  value: opt(z.string()),
  annotation: opt(z.boolean()),
  title: opt(z.boolean()),
  content: opt(z.boolean()),
  options: opt(AssetFilterPhraseOptionsSchema),
});
export interface AssetFilterPhraseShape extends ShapeOf<typeof AssetFilterPhraseFields> {}
export const AssetFilterPhraseSchema: z.ZodObject<AssetFilterPhraseShape> =
  lazySchema(() => z.object(AssetFilterPhraseFields()));
export type AssetFilterPhrase = z.infer<typeof AssetFilterPhraseSchema>;

const AssetFilterTimestampFields = () => ({
  ...base(),
  from: opt(GroupedTimestampSchema),
  to: opt(GroupedTimestampSchema),
  between: opt(z.boolean()),
});
export interface AssetFilterTimestampShape extends ShapeOf<typeof AssetFilterTimestampFields> {}
export const AssetFilterTimestampSchema: z.ZodObject<AssetFilterTimestampShape> =
  lazySchema(() => z.object(AssetFilterTimestampFields()));
export type AssetFilterTimestamp = z.infer<typeof AssetFilterTimestampSchema>;

const AssetFilterFields = () => ({
  ...base(),
  classification: opt(ClassificationSpecificEnumSchema),
  tags: opt(z.array(z.string())),
  websites: opt(z.array(z.string())),
  persons: opt(z.array(z.string())),
  phrase: opt(AssetFilterPhraseSchema),
  created: opt(AssetFilterTimestampSchema),
  updated: opt(AssetFilterTimestampSchema),
  get operations() {
    return opt(AssetFiltersSchema);
  },
});
export interface AssetFilterShape extends ShapeOf<typeof AssetFilterFields> {}
export const AssetFilterSchema: z.ZodObject<AssetFilterShape> = lazySchema(() => z.object(AssetFilterFields()));
export type AssetFilter = z.infer<typeof AssetFilterSchema>;

const AssetFiltersFields = () => ({
  ...base(),
  iterable: z.array(AssetFilterSchema),
  type: opt(FilterOperationTypeEnumSchema),
});
export interface AssetFiltersShape extends ShapeOf<typeof AssetFiltersFields> {}
export const AssetFiltersSchema: z.ZodObject<AssetFiltersShape> = lazySchema(() => z.object(AssetFiltersFields()));
export type AssetFilters = z.infer<typeof AssetFiltersSchema>;

const AssetsSearchWithFiltersInputFields = () => ({
  ...base(),
  query: opt(z.string()),
  space: opt(AssetSearchSpaceSchema),
  filters: opt(AssetFiltersSchema),
  casing: opt(z.boolean()),
});
export interface AssetsSearchWithFiltersInputShape extends ShapeOf<typeof AssetsSearchWithFiltersInputFields> {}
export const AssetsSearchWithFiltersInputSchema: z.ZodObject<AssetsSearchWithFiltersInputShape> =
  lazySchema(() => z.object(AssetsSearchWithFiltersInputFields()));
export type AssetsSearchWithFiltersInput = z.infer<typeof AssetsSearchWithFiltersInputSchema>;

const AssetsSearchWithFiltersOutputFields = () => ({
  ...base(),
  results: SearchedAssetsSchema,
});
export interface AssetsSearchWithFiltersOutputShape extends ShapeOf<typeof AssetsSearchWithFiltersOutputFields> {}
export const AssetsSearchWithFiltersOutputSchema: z.ZodObject<AssetsSearchWithFiltersOutputShape> =
  lazySchema(() => z.object(AssetsSearchWithFiltersOutputFields()));
export type AssetsSearchWithFiltersOutput = z.infer<typeof AssetsSearchWithFiltersOutputSchema>;

// ---------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------

const StreamedIdentifierFields = () => ({
  ...base(),
  asset: opt(ReferencedAssetSchema),
  conversation: opt(ReferencedConversationSchema),
  annotation: opt(ReferencedAnnotationSchema),
  activity: opt(ReferencedActivitySchema),
  anchor: opt(ReferencedAnchorSchema),
  anchorPoint: opt(z.unknown()),
  hint: opt(z.unknown()),
  conversationMessage: opt(ReferencedConversationMessageSchema),
  format: opt(ReferencedFormatSchema),
  person: opt(ReferencedPersonSchema),
  range: opt(z.unknown()),
  sensitive: opt(z.unknown()),
  tag: opt(ReferencedTagSchema),
  website: opt(ReferencedWebsiteSchema),
  application: opt(z.unknown()),
  model: opt(ReferencedModelSchema),
  workstream_summary: opt(ReferencedWorkstreamSummarySchema),
  workstreamPatternEngineSource: opt(z.unknown()),
  workstreamPatternEngineSourceWindow: opt(z.unknown()),
  deleted: opt(z.boolean()),
});
export interface StreamedIdentifierShape extends ShapeOf<typeof StreamedIdentifierFields> {}
export const StreamedIdentifierSchema: z.ZodObject<StreamedIdentifierShape> =
  lazySchema(() => z.object(StreamedIdentifierFields()));
export type StreamedIdentifier = z.infer<typeof StreamedIdentifierSchema>;

const StreamedIdentifiersFields = () => ({
  ...base(),
  iterable: z.array(StreamedIdentifierSchema),
});
export interface StreamedIdentifiersShape extends ShapeOf<typeof StreamedIdentifiersFields> {}
export const StreamedIdentifiersSchema: z.ZodObject<StreamedIdentifiersShape> =
  lazySchema(() => z.object(StreamedIdentifiersFields()));
export type StreamedIdentifiers = z.infer<typeof StreamedIdentifiersSchema>;

// ---------------------------------------------------------------------------
// Create / update inputs
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// QGPT
// ---------------------------------------------------------------------------

/** Only `workstreams` is known; anything else is passed through. */
const TemporalRangeGroundingFields = () => ({
  ...base(),
  workstreams: opt(FlattenedRangesSchema),
});
export interface TemporalRangeGroundingShape extends ShapeOf<typeof TemporalRangeGroundingFields> {}
export const TemporalRangeGroundingSchema: z.ZodObject<TemporalRangeGroundingShape, z.core.$loose> =
  lazySchema(() => z.looseObject(TemporalRangeGroundingFields()));
export type TemporalRangeGrounding = z.infer<typeof TemporalRangeGroundingSchema>;

const QGPTRelevanceInputOptionsFields = () => ({
  ...base(),
  database: opt(z.boolean()),
  question: opt(z.boolean()),
  pipeline: opt(QGPTPromptPipelineSchema),
});
export interface QGPTRelevanceInputOptionsShape extends ShapeOf<typeof QGPTRelevanceInputOptionsFields> {}
export const QGPTRelevanceInputOptionsSchema: z.ZodObject<QGPTRelevanceInputOptionsShape> =
  lazySchema(() => z.object(QGPTRelevanceInputOptionsFields()));
export type QGPTRelevanceInputOptions = z.infer<typeof QGPTRelevanceInputOptionsSchema>;

const QGPTRelevanceInputFields = () => ({
  ...base(),
  query: z.string(),
  paths: opt(z.array(z.string())),
  seeds: opt(SeedsSchema),
  assets: opt(FlattenedAssetsSchema),
  messages: opt(FlattenedConversationMessagesSchema),
  options: opt(QGPTRelevanceInputOptionsSchema),
  application: opt(z.string()),
  model: opt(z.string()),
  temporal: opt(TemporalRangeGroundingSchema),
  anchors: opt(FlattenedAnchorsSchema),
  sources: opt(FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
});
export interface QGPTRelevanceInputShape extends ShapeOf<typeof QGPTRelevanceInputFields> {}
export const QGPTRelevanceInputSchema: z.ZodObject<QGPTRelevanceInputShape> =
  lazySchema(() => z.object(QGPTRelevanceInputFields()));
export type QGPTRelevanceInput = z.infer<typeof QGPTRelevanceInputSchema>;

const TextLocationFields = () => ({
  ...base(),
  text: z.string(),
  start: z.number(),
  end: z.number(),
});
export interface TextLocationShape extends ShapeOf<typeof TextLocationFields> {}
export const TextLocationSchema: z.ZodObject<TextLocationShape> = lazySchema(() => z.object(TextLocationFields()));
export type TextLocation = z.infer<typeof TextLocationSchema>;

const RelevantQGPTSeedFields = () => ({
  ...base(),
  id: opt(z.string()),
  seed: opt(SeedSchema),
  path: opt(z.string()),
  anchor: opt(ReferencedAnchorSchema),
  asset: opt(ReferencedAssetSchema),
  location: opt(TextLocationSchema),
});
export interface RelevantQGPTSeedShape extends ShapeOf<typeof RelevantQGPTSeedFields> {}
export const RelevantQGPTSeedSchema: z.ZodObject<RelevantQGPTSeedShape> =
  lazySchema(() => z.object(RelevantQGPTSeedFields()));
export type RelevantQGPTSeed = z.infer<typeof RelevantQGPTSeedSchema>;

const RelevantQGPTSeedsFields = () => ({
  ...base(),
  iterable: z.array(RelevantQGPTSeedSchema),
});
export interface RelevantQGPTSeedsShape extends ShapeOf<typeof RelevantQGPTSeedsFields> {}
export const RelevantQGPTSeedsSchema: z.ZodObject<RelevantQGPTSeedsShape> =
  lazySchema(() => z.object(RelevantQGPTSeedsFields()));
export type RelevantQGPTSeeds = z.infer<typeof RelevantQGPTSeedsSchema>;

const QGPTQuestionAnswerFields = () => ({
  ...base(),
  score: z.number(),
  text: z.string(),
});
export interface QGPTQuestionAnswerShape extends ShapeOf<typeof QGPTQuestionAnswerFields> {}
export const QGPTQuestionAnswerSchema: z.ZodObject<QGPTQuestionAnswerShape> =
  lazySchema(() => z.object(QGPTQuestionAnswerFields()));
export type QGPTQuestionAnswer = z.infer<typeof QGPTQuestionAnswerSchema>;

const QGPTQuestionAnswersFields = () => ({
  ...base(),
  iterable: z.array(QGPTQuestionAnswerSchema),
});
export interface QGPTQuestionAnswersShape extends ShapeOf<typeof QGPTQuestionAnswersFields> {}
export const QGPTQuestionAnswersSchema: z.ZodObject<QGPTQuestionAnswersShape> =
  lazySchema(() => z.object(QGPTQuestionAnswersFields()));
export type QGPTQuestionAnswers = z.infer<typeof QGPTQuestionAnswersSchema>;

const QGPTQuestionOutputFields = () => ({
  ...base(),
  answers: QGPTQuestionAnswersSchema,
});
export interface QGPTQuestionOutputShape extends ShapeOf<typeof QGPTQuestionOutputFields> {}
export const QGPTQuestionOutputSchema: z.ZodObject<QGPTQuestionOutputShape> =
  lazySchema(() => z.object(QGPTQuestionOutputFields()));
export type QGPTQuestionOutput = z.infer<typeof QGPTQuestionOutputSchema>;

const QGPTRelevanceOutputFields = () => ({
  ...base(),
  relevant: RelevantQGPTSeedsSchema,
  answer: opt(QGPTQuestionOutputSchema),
});
export interface QGPTRelevanceOutputShape extends ShapeOf<typeof QGPTRelevanceOutputFields> {}
export const QGPTRelevanceOutputSchema: z.ZodObject<QGPTRelevanceOutputShape> =
  lazySchema(() => z.object(QGPTRelevanceOutputFields()));
export type QGPTRelevanceOutput = z.infer<typeof QGPTRelevanceOutputSchema>;

const QGPTQuestionInputFields = () => ({
  ...base(),
  relevant: RelevantQGPTSeedsSchema,
  query: z.string(),
  application: opt(z.string()),
  model: opt(z.string()),
  messages: opt(FlattenedConversationMessagesSchema),
  pipeline: opt(QGPTPromptPipelineSchema),
  temporal: opt(TemporalRangeGroundingSchema),
  sources: opt(FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema),
  summaries: opt(FlattenedWorkstreamSummariesSchema),
});
export interface QGPTQuestionInputShape extends ShapeOf<typeof QGPTQuestionInputFields> {}
export const QGPTQuestionInputSchema: z.ZodObject<QGPTQuestionInputShape> =
  lazySchema(() => z.object(QGPTQuestionInputFields()));
export type QGPTQuestionInput = z.infer<typeof QGPTQuestionInputSchema>;

const QGPTHintsInputFields = () => ({
  ...base(),
  relevant: RelevantQGPTSeedsSchema,
  query: opt(z.string()),
  answer: opt(QGPTQuestionAnswerSchema),
  application: opt(z.string()),
  model: opt(z.string()),
});
export interface QGPTHintsInputShape extends ShapeOf<typeof QGPTHintsInputFields> {}
export const QGPTHintsInputSchema: z.ZodObject<QGPTHintsInputShape> =
  lazySchema(() => z.object(QGPTHintsInputFields()));
export type QGPTHintsInput = z.infer<typeof QGPTHintsInputSchema>;

const QGPTConversationMessageFields = () => ({
  ...base(),
  text: z.string(),
  role: QGPTConversationMessageRoleEnumSchema,
  timestamp: GroupedTimestampSchema,
});
export interface QGPTConversationMessageShape extends ShapeOf<typeof QGPTConversationMessageFields> {}
export const QGPTConversationMessageSchema: z.ZodObject<QGPTConversationMessageShape> =
  lazySchema(() => z.object(QGPTConversationMessageFields()));
export type QGPTConversationMessage = z.infer<typeof QGPTConversationMessageSchema>;

const QGPTConversationFields = () => ({
  ...base(),
  iterable: opt(z.array(QGPTConversationMessageSchema)),
});
export interface QGPTConversationShape extends ShapeOf<typeof QGPTConversationFields> {}
export const QGPTConversationSchema: z.ZodObject<QGPTConversationShape> =
  lazySchema(() => z.object(QGPTConversationFields()));
export type QGPTConversation = z.infer<typeof QGPTConversationSchema>;

const QGPTRepromptInputFields = () => ({
  ...base(),
  query: z.string(),
  conversation: QGPTConversationSchema,
  application: opt(z.string()),
  model: opt(z.string()),
  pipeline: opt(QGPTPromptPipelineSchema),
});
export interface QGPTRepromptInputShape extends ShapeOf<typeof QGPTRepromptInputFields> {}
export const QGPTRepromptInputSchema: z.ZodObject<QGPTRepromptInputShape> =
  lazySchema(() => z.object(QGPTRepromptInputFields()));
export type QGPTRepromptInput = z.infer<typeof QGPTRepromptInputSchema>;

const QGPTRepromptOutputFields = () => ({
  ...base(),
  query: z.string(),
});
export interface QGPTRepromptOutputShape extends ShapeOf<typeof QGPTRepromptOutputFields> {}
export const QGPTRepromptOutputSchema: z.ZodObject<QGPTRepromptOutputShape> =
  lazySchema(() => z.object(QGPTRepromptOutputFields()));
export type QGPTRepromptOutput = z.infer<typeof QGPTRepromptOutputSchema>;

const QGPTPersonsRelatedInputFields = () => ({
  ...base(),
  seed: opt(SeedSchema),
  conversation: opt(QGPTConversationSchema),
  application: opt(z.string()),
  model: opt(z.string()),
});
export interface QGPTPersonsRelatedInputShape extends ShapeOf<typeof QGPTPersonsRelatedInputFields> {}
export const QGPTPersonsRelatedInputSchema: z.ZodObject<QGPTPersonsRelatedInputShape> =
  lazySchema(() => z.object(QGPTPersonsRelatedInputFields()));
export type QGPTPersonsRelatedInput = z.infer<typeof QGPTPersonsRelatedInputSchema>;

const QGPTPersonsRelatedOutputFields = () => ({
  ...base(),
  persons: PersonsSchema,
  explanations: opt(z.record(z.string(), z.string())),
});
export interface QGPTPersonsRelatedOutputShape extends ShapeOf<typeof QGPTPersonsRelatedOutputFields> {}
export const QGPTPersonsRelatedOutputSchema: z.ZodObject<QGPTPersonsRelatedOutputShape> =
  lazySchema(() => z.object(QGPTPersonsRelatedOutputFields()));
export type QGPTPersonsRelatedOutput = z.infer<typeof QGPTPersonsRelatedOutputSchema>;

const QGPTStreamInputFields = () => ({
  ...base(),
  relevance: opt(QGPTRelevanceInputSchema),
  question: opt(QGPTQuestionInputSchema),
  request: opt(z.string()),
  conversation: opt(z.string()),
  stop: opt(z.boolean()),
  reset: opt(z.boolean()),
  agent: opt(z.boolean()),
});
export interface QGPTStreamInputShape extends ShapeOf<typeof QGPTStreamInputFields> {}
export const QGPTStreamInputSchema: z.ZodObject<QGPTStreamInputShape> =
  lazySchema(() => z.object(QGPTStreamInputFields()));
export type QGPTStreamInput = z.infer<typeof QGPTStreamInputSchema>;

const QGPTStreamOutputFields = () => ({
  ...base(),
  conversation: z.string(),
  request: opt(z.string()),
  relevance: opt(QGPTRelevanceOutputSchema),
  question: opt(QGPTQuestionOutputSchema),
  status: opt(QGPTStreamEnumSchema),
  statusCode: opt(z.number()),
  errorMessage: opt(z.string()),
  agentRoutes: opt(z.unknown()),
  extracted: opt(z.unknown()),
  migration: opt(z.unknown()),
});
export interface QGPTStreamOutputShape extends ShapeOf<typeof QGPTStreamOutputFields> {}
export const QGPTStreamOutputSchema: z.ZodObject<QGPTStreamOutputShape> =
  lazySchema(() => z.object(QGPTStreamOutputFields()));
export type QGPTStreamOutput = z.infer<typeof QGPTStreamOutputSchema>;

// ---------------------------------------------------------------------------
// Connection
// ---------------------------------------------------------------------------

const SeededTrackedApplicationFields = () => ({
  ...base(),
  name: ApplicationNameEnumSchema,
  version: z.string(),
  platform: PlatformEnumSchema,
  capabilities: opt(CapabilitiesEnumSchema),
  privacy: opt(PrivacyEnumSchema),
  automaticUnload: opt(z.boolean()),
  enrichment: opt(SeededAssetEnrichmentSchema),
});
export interface SeededTrackedApplicationShape extends ShapeOf<typeof SeededTrackedApplicationFields> {}
export const SeededTrackedApplicationSchema: z.ZodObject<SeededTrackedApplicationShape> =
  lazySchema(() => z.object(SeededTrackedApplicationFields()));
export type SeededTrackedApplication = z.infer<typeof SeededTrackedApplicationSchema>;

const SeededConnectorConnectionFields = () => ({
  ...base(),
  application: SeededTrackedApplicationSchema,
});
export interface SeededConnectorConnectionShape extends ShapeOf<typeof SeededConnectorConnectionFields> {}
export const SeededConnectorConnectionSchema: z.ZodObject<SeededConnectorConnectionShape> =
  lazySchema(() => z.object(SeededConnectorConnectionFields()));
export type SeededConnectorConnection = z.infer<typeof SeededConnectorConnectionSchema>;

const OSHealthFields = () => ({
  ...base(),
  id: IdSchema,
  version: z.string(),
});
export interface OSHealthShape extends ShapeOf<typeof OSHealthFields> {}
export const OSHealthSchema: z.ZodObject<OSHealthShape> = lazySchema(() => z.object(OSHealthFields()));
export type OSHealth = z.infer<typeof OSHealthSchema>;

const HealthFields = () => ({
  ...base(),
  os: OSHealthSchema,
});
export interface HealthShape extends ShapeOf<typeof HealthFields> {}
export const HealthSchema: z.ZodObject<HealthShape> = lazySchema(() => z.object(HealthFields()));
export type Health = z.infer<typeof HealthSchema>;

const ContextFields = () => ({
  ...base(),
  os: z.string(),
  application: ApplicationSchema,
  health: HealthSchema,
  user: opt(UserProfileSchema),
});
export interface ContextShape extends ShapeOf<typeof ContextFields> {}
export const ContextSchema: z.ZodObject<ContextShape> = lazySchema(() => z.object(ContextFields()));
export type Context = z.infer<typeof ContextSchema>;

const ReturnedUserProfileFields = () => ({
  ...base(),
  user: opt(UserProfileSchema),
});
export interface ReturnedUserProfileShape extends ShapeOf<typeof ReturnedUserProfileFields> {}
export const ReturnedUserProfileSchema: z.ZodObject<ReturnedUserProfileShape> =
  lazySchema(() => z.object(ReturnedUserProfileFields()));
export type ReturnedUserProfile = z.infer<typeof ReturnedUserProfileSchema>;
