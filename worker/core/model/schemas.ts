/**
 * Zod schemas for the wire models of wire-contract.md §2 (JSON key names, REQ/opt as listed there).
 * Optional fields accept `null` as well as a missing key. Objects are non-strict: unknown keys are stripped.
 * Nested models we never populate are typed `unknown`.
 */
import { z } from 'zod';
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

export * from './enums.ts';

// ---------------------------------------------------------------------------
// Helpers and primitives
// ---------------------------------------------------------------------------

/** Optional field: missing, `undefined` or `null` are all accepted. */
export const opt = <T extends z.ZodType>(s: T) => s.nullish();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UuidSchema = z.string().regex(UUID_RE, 'expected a UUID');

/** Non-UUID ids: any non-empty string. */
export const IdSchema = z.string().min(1);

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/;
/** ISO-8601 date-time string (`YYYY-MM-DDTHH:MM:SS(.sss)?(Z|±hh:mm)?`) that `new Date()` parses. */
export const IsoDateSchema = z
  .string()
  .regex(ISO_RE, 'expected an ISO-8601 date-time')
  .refine((s) => !Number.isNaN(new Date(s).getTime()), 'invalid date');

/** `map<string, number>` (id → position; -1 means removed). */
export const IndicesSchema = z.record(z.string(), z.number());

const MechanismsMapSchema = z.record(z.string(), MechanismEnumSchema);
const LooseMapSchema = z.record(z.string(), z.unknown());

export const EmbeddedModelSchemaSchema = z.object({
  migration: z.number(),
  semantic: EmbeddedModelSchemaSemanticVersionEnumSchema,
});
export type EmbeddedModelSchema = z.infer<typeof EmbeddedModelSchemaSchema>;

/** Every model carries an optional `schema`. */
const base = { schema: opt(EmbeddedModelSchemaSchema) };

export const ScoreSchema = z.object({
  ...base,
  manual: z.number(),
  automatic: z.number(),
  priority: opt(z.number()),
  reuse: opt(z.number()),
  update: opt(z.number()),
  reference: opt(z.number()),
  searched: opt(z.number()),
});
export type Score = z.infer<typeof ScoreSchema>;

export const GroupedTimestampSchema = z.object({
  ...base,
  value: z.union([IsoDateSchema, z.date()]),
  readable: opt(z.string()),
});
export type GroupedTimestamp = z.infer<typeof GroupedTimestampSchema>;

/** `Referenced<X>`: REQ `id` · opt `reference`. */
const referenced = <R extends z.ZodType>(reference: R) =>
  z.object({ ...base, id: IdSchema, reference: opt(reference) });

/** `Flattened<X>s`: REQ `iterable` · opt `indices`, `score`. */
const flattened = <R extends z.ZodType>(ref: R) =>
  z.object({ ...base, iterable: z.array(ref), indices: opt(IndicesSchema), score: opt(ScoreSchema) });

// ---------------------------------------------------------------------------
// Formats & content (leaves)
// ---------------------------------------------------------------------------

export const ByteDescriptorSchema = z.object({
  ...base,
  value: z.number(),
  readable: z.string(),
});
export type ByteDescriptor = z.infer<typeof ByteDescriptorSchema>;

export const ClassificationSchema = z.object({
  ...base,
  generic: ClassificationGenericEnumSchema,
  specific: ClassificationSpecificEnumSchema,
  rendering: opt(ClassificationRenderingEnumSchema),
});
export type Classification = z.infer<typeof ClassificationSchema>;

export const SeededClassificationSchema = z.object({
  ...base,
  generic: opt(ClassificationGenericEnumSchema),
  specific: opt(ClassificationSpecificEnumSchema),
  rendering: opt(ClassificationRenderingEnumSchema),
});
export type SeededClassification = z.infer<typeof SeededClassificationSchema>;

export const SeededAssetEnrichmentSchema = z.object({
  ...base,
  tags: opt(z.number()),
  websites: opt(z.number()),
  persons: opt(z.number()),
  hints: opt(z.number()),
});
export type SeededAssetEnrichment = z.infer<typeof SeededAssetEnrichmentSchema>;

export const ApplicationSchema = z.object({
  ...base,
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
export type Application = z.infer<typeof ApplicationSchema>;

export const TransferableStringSchema = z.object({
  ...base,
  raw: opt(z.string()),
  base64: opt(z.string()),
  base64_url: opt(z.string()),
  data_url: opt(z.string()),
});
export type TransferableString = z.infer<typeof TransferableStringSchema>;

export const TransferableBytesSchema = z.object({
  ...base,
  raw: opt(z.array(z.number())),
  base64: opt(z.array(z.number())),
  base64_url: opt(z.array(z.number())),
  data_url: opt(z.array(z.number())),
});
export type TransferableBytes = z.infer<typeof TransferableBytesSchema>;

export const FragmentMetadataSchema = z.object({
  ...base,
  ext: opt(ClassificationSpecificEnumSchema),
});
export type FragmentMetadata = z.infer<typeof FragmentMetadataSchema>;

export const FileMetadataSchema = z.object({
  ...base,
  name: opt(z.string()),
  ext: opt(ClassificationSpecificEnumSchema),
  size: opt(z.number()),
});
export type FileMetadata = z.infer<typeof FileMetadataSchema>;

export const FragmentFormatSchema = z.object({
  ...base,
  string: opt(TransferableStringSchema),
  bytes: opt(TransferableBytesSchema),
  metadata: opt(FragmentMetadataSchema),
});
export type FragmentFormat = z.infer<typeof FragmentFormatSchema>;

export const FileFormatSchema = z.object({
  ...base,
  bytes: opt(TransferableBytesSchema),
  string: opt(TransferableStringSchema),
});
export type FileFormat = z.infer<typeof FileFormatSchema>;

export const SeededFragmentSchema = z.object({
  ...base,
  string: opt(TransferableStringSchema),
  bytes: opt(TransferableBytesSchema),
  metadata: opt(FragmentMetadataSchema),
});
export type SeededFragment = z.infer<typeof SeededFragmentSchema>;

export const SeededFileSchema = z.object({
  ...base,
  bytes: opt(TransferableBytesSchema),
  string: opt(TransferableStringSchema),
  metadata: opt(FileMetadataSchema),
});
export type SeededFile = z.infer<typeof SeededFileSchema>;

export const SeededFormatSchema = z.object({
  ...base,
  file: opt(SeededFileSchema),
  fragment: opt(SeededFragmentSchema),
  classification: opt(SeededClassificationSchema),
});
export type SeededFormat = z.infer<typeof SeededFormatSchema>;

// ---------------------------------------------------------------------------
// Reference collections (references to models we do not flatten are `unknown`)
// ---------------------------------------------------------------------------

export const ReferencedTagSchema = referenced(z.unknown());
export type ReferencedTag = z.infer<typeof ReferencedTagSchema>;
export const FlattenedTagsSchema = flattened(ReferencedTagSchema);
export type FlattenedTags = z.infer<typeof FlattenedTagsSchema>;

export const ReferencedWebsiteSchema = referenced(z.unknown());
export type ReferencedWebsite = z.infer<typeof ReferencedWebsiteSchema>;
export const FlattenedWebsitesSchema = flattened(ReferencedWebsiteSchema);
export type FlattenedWebsites = z.infer<typeof FlattenedWebsitesSchema>;

export const ReferencedWorkstreamSummarySchema = referenced(z.unknown());
export type ReferencedWorkstreamSummary = z.infer<typeof ReferencedWorkstreamSummarySchema>;
export const FlattenedWorkstreamSummariesSchema = flattened(ReferencedWorkstreamSummarySchema);
export type FlattenedWorkstreamSummaries = z.infer<typeof FlattenedWorkstreamSummariesSchema>;

export const ReferencedPersonSchema = referenced(z.unknown());
export type ReferencedPerson = z.infer<typeof ReferencedPersonSchema>;
export const FlattenedPersonsSchema = flattened(ReferencedPersonSchema);
export type FlattenedPersons = z.infer<typeof FlattenedPersonsSchema>;

export const ReferencedAnnotationSchema = referenced(z.unknown());
export type ReferencedAnnotation = z.infer<typeof ReferencedAnnotationSchema>;
export const FlattenedAnnotationsSchema = flattened(ReferencedAnnotationSchema);
export type FlattenedAnnotations = z.infer<typeof FlattenedAnnotationsSchema>;

export const ReferencedActivitySchema = referenced(z.unknown());
export type ReferencedActivity = z.infer<typeof ReferencedActivitySchema>;
export const FlattenedActivitiesSchema = flattened(ReferencedActivitySchema);
export type FlattenedActivities = z.infer<typeof FlattenedActivitiesSchema>;

export const ReferencedConversationSchema = referenced(z.unknown());
export type ReferencedConversation = z.infer<typeof ReferencedConversationSchema>;
export const FlattenedConversationsSchema = flattened(ReferencedConversationSchema);
export type FlattenedConversations = z.infer<typeof FlattenedConversationsSchema>;

export const ReferencedConversationMessageSchema = referenced(z.unknown());
export type ReferencedConversationMessage = z.infer<typeof ReferencedConversationMessageSchema>;
export const FlattenedConversationMessagesSchema = flattened(ReferencedConversationMessageSchema);
export type FlattenedConversationMessages = z.infer<typeof FlattenedConversationMessagesSchema>;

export const ReferencedAnchorSchema = referenced(z.unknown());
export type ReferencedAnchor = z.infer<typeof ReferencedAnchorSchema>;
export const FlattenedAnchorsSchema = flattened(ReferencedAnchorSchema);
export type FlattenedAnchors = z.infer<typeof FlattenedAnchorsSchema>;

export const ReferencedModelSchema = referenced(z.unknown());
export type ReferencedModel = z.infer<typeof ReferencedModelSchema>;

export const FlattenedHintsSchema = flattened(referenced(z.unknown()));
export type FlattenedHints = z.infer<typeof FlattenedHintsSchema>;
export const FlattenedSensitivesSchema = flattened(referenced(z.unknown()));
export type FlattenedSensitives = z.infer<typeof FlattenedSensitivesSchema>;
/** Not a collection object: `FlattenedShare[]`. */
export const FlattenedSharesSchema = z.array(z.unknown());
export type FlattenedShares = z.infer<typeof FlattenedSharesSchema>;
export const FlattenedRangesSchema = flattened(referenced(z.unknown()));
export type FlattenedRanges = z.infer<typeof FlattenedRangesSchema>;
export const FlattenedAnchorPointsSchema = flattened(referenced(z.unknown()));
export type FlattenedAnchorPoints = z.infer<typeof FlattenedAnchorPointsSchema>;
export const FlattenedWorkstreamEventsSchema = flattened(referenced(z.unknown()));
export type FlattenedWorkstreamEvents = z.infer<typeof FlattenedWorkstreamEventsSchema>;
export const FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema = flattened(referenced(z.unknown()));
export type FlattenedIdentifiedWorkstreamPatternEngineSources = z.infer<
  typeof FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema
>;
export const FlattenedWorkstreamPatternEngineSourceWindowsSchema = flattened(referenced(z.unknown()));
export type FlattenedWorkstreamPatternEngineSourceWindows = z.infer<
  typeof FlattenedWorkstreamPatternEngineSourceWindowsSchema
>;

export const FlattenedUserProfileSchema = z.object({
  ...base,
  id: IdSchema,
  email: opt(z.string()),
  name: opt(z.string()),
  username: opt(z.string()),
  picture: opt(z.string()),
  vanityname: opt(z.string()),
});
export type FlattenedUserProfile = z.infer<typeof FlattenedUserProfileSchema>;

// ---------------------------------------------------------------------------
// Flattened formats & assets
// ---------------------------------------------------------------------------

export const FlattenedPreviewSchema = z.object({
  ...base,
  base: IdSchema,
  overlay: opt(IdSchema),
});
export type FlattenedPreview = z.infer<typeof FlattenedPreviewSchema>;

export const FlattenedFormatSchema = z.object({
  ...base,
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
export type FlattenedFormat = z.infer<typeof FlattenedFormatSchema>;

export const ReferencedFormatSchema = referenced(FlattenedFormatSchema);
export type ReferencedFormat = z.infer<typeof ReferencedFormatSchema>;

export const FlattenedFormatsSchema = z.object({
  ...base,
  iterable: z.array(ReferencedFormatSchema),
});
export type FlattenedFormats = z.infer<typeof FlattenedFormatsSchema>;

export const FlattenedAssetSchema = z.object({
  ...base,
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
export type FlattenedAsset = z.infer<typeof FlattenedAssetSchema>;

export const ReferencedAssetSchema = z.object({
  ...base,
  id: UuidSchema,
  reference: opt(FlattenedAssetSchema),
});
export type ReferencedAsset = z.infer<typeof ReferencedAssetSchema>;

/** The one Flattened collection whose `iterable` is optional. */
export const FlattenedAssetsSchema = z.object({
  ...base,
  iterable: opt(z.array(ReferencedAssetSchema)),
  indices: opt(IndicesSchema),
  score: opt(ScoreSchema),
});
export type FlattenedAssets = z.infer<typeof FlattenedAssetsSchema>;

export const PseudoAssetsSchema = z.object({
  ...base,
  identifiers: opt(FlattenedAssetsSchema),
});
export type PseudoAssets = z.infer<typeof PseudoAssetsSchema>;

export const PreviewSchema = z.object({
  ...base,
  base: ReferencedFormatSchema,
  overlay: opt(ReferencedFormatSchema),
});
export type Preview = z.infer<typeof PreviewSchema>;

// ---------------------------------------------------------------------------
// Activities, formats
// ---------------------------------------------------------------------------

const trackedEvent = opt(LooseMapSchema);
export const SeededConnectorTrackingSchema = z.object({
  ...base,
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
export type SeededConnectorTracking = z.infer<typeof SeededConnectorTrackingSchema>;

export const ActivitySchema = z.object({
  ...base,
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
export type Activity = z.infer<typeof ActivitySchema>;

export const ActivitiesSchema = z.object({
  ...base,
  iterable: z.array(ActivitySchema),
});
export type Activities = z.infer<typeof ActivitiesSchema>;

export const FormatSchema = z.object({
  ...base,
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
export type Format = z.infer<typeof FormatSchema>;

export const FormatsSchema = z.object({
  ...base,
  iterable: z.array(FormatSchema),
});
export type Formats = z.infer<typeof FormatsSchema>;

// ---------------------------------------------------------------------------
// Models, users, persons
// ---------------------------------------------------------------------------

export const ModelMaxTokensSchema = z.object({
  ...base,
  total: z.number().nullable(),
  input: opt(z.number()),
  output: opt(z.number()),
});
export type ModelMaxTokens = z.infer<typeof ModelMaxTokensSchema>;

export const ModelSchema = z.object({
  ...base,
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
export type Model = z.infer<typeof ModelSchema>;

export const ModelsSchema = z.object({
  ...base,
  iterable: z.array(ModelSchema),
  score: opt(ScoreSchema),
});
export type Models = z.infer<typeof ModelsSchema>;

export const UserProfileSchema = z.object({
  ...base,
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
export type UserProfile = z.infer<typeof UserProfileSchema>;

export const PersonBasicTypeSchema = z.looseObject({
  ...base,
  username: opt(z.string()),
  name: opt(z.string()),
  picture: opt(z.string()),
  email: opt(z.string()),
  sourced: opt(z.unknown()),
  url: opt(z.string()),
  mailgun: opt(z.unknown()),
});
export type PersonBasicType = z.infer<typeof PersonBasicTypeSchema>;

export const PersonTypeSchema = z.object({
  ...base,
  basic: opt(PersonBasicTypeSchema),
  platform: opt(UserProfileSchema),
});
export type PersonType = z.infer<typeof PersonTypeSchema>;

export const PersonSchema = z.object({
  ...base,
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
export type Person = z.infer<typeof PersonSchema>;

export const PersonsSchema = flattened(PersonSchema);
export type Persons = z.infer<typeof PersonsSchema>;

// ---------------------------------------------------------------------------
// Asset sub-collections
// ---------------------------------------------------------------------------

export const TagSchema = z.object({
  ...base,
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
export type Tag = z.infer<typeof TagSchema>;

export const TagsSchema = flattened(TagSchema);
export type Tags = z.infer<typeof TagsSchema>;

export const WebsiteSchema = z.object({
  ...base,
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
export type Website = z.infer<typeof WebsiteSchema>;

export const WebsitesSchema = flattened(WebsiteSchema);
export type Websites = z.infer<typeof WebsitesSchema>;

export const WorkstreamSummarySchema = z.object({
  ...base,
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
export type WorkstreamSummary = z.infer<typeof WorkstreamSummarySchema>;

export const WorkstreamSummariesSchema = flattened(WorkstreamSummarySchema);
export type WorkstreamSummaries = z.infer<typeof WorkstreamSummariesSchema>;

export const AnnotationSchema = z.object({
  ...base,
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
export type Annotation = z.infer<typeof AnnotationSchema>;

export const AnnotationsSchema = flattened(AnnotationSchema);
export type Annotations = z.infer<typeof AnnotationsSchema>;

export const HintSchema = z.object({
  ...base,
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
export type Hint = z.infer<typeof HintSchema>;

export const HintsSchema = flattened(HintSchema);
export type Hints = z.infer<typeof HintsSchema>;

/** Only `task` / `conversation` sub-pipelines; their contents are passed through. */
export const QGPTPromptPipelineSchema = z.looseObject({
  ...base,
  task: opt(z.unknown()),
  conversation: opt(z.unknown()),
});
export type QGPTPromptPipeline = z.infer<typeof QGPTPromptPipelineSchema>;

export const ConversationSchema = z.object({
  ...base,
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
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationsSchema = flattened(ConversationSchema);
export type Conversations = z.infer<typeof ConversationsSchema>;

export const ConversationMessageSchema = z.object({
  ...base,
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
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;

export const ConversationMessagesSchema = flattened(ConversationMessageSchema);
export type ConversationMessages = z.infer<typeof ConversationMessagesSchema>;

/** Placeholders: elements are not validated. */
export const SharesSchema = z.object({ ...base, iterable: z.array(z.unknown()), score: opt(ScoreSchema) });
export type Shares = z.infer<typeof SharesSchema>;
export const SensitivesSchema = z.object({ ...base, iterable: z.array(z.unknown()), score: opt(ScoreSchema) });
export type Sensitives = z.infer<typeof SensitivesSchema>;
export const AnchorsSchema = flattened(z.unknown());
export type Anchors = z.infer<typeof AnchorsSchema>;

// ---------------------------------------------------------------------------
// Assets
// ---------------------------------------------------------------------------

export const AssetSchema = z.object({
  ...base,
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
export type Asset = z.infer<typeof AssetSchema>;

export const AssetsSchema = flattened(AssetSchema);
export type Assets = z.infer<typeof AssetsSchema>;

// ---------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------

export const SearchedAssetSchema = z.object({
  ...base,
  exact: z.boolean(),
  score: z.number(),
  match: SearchedMatchEnumSchema,
  identifier: z.string(),
  asset: opt(AssetSchema),
  pseudo: opt(z.boolean()),
});
export type SearchedAsset = z.infer<typeof SearchedAssetSchema>;

export const SearchedAssetsSchema = z.object({
  ...base,
  iterable: z.array(SearchedAssetSchema),
  suggested: z.number(),
  exact: z.number(),
});
export type SearchedAssets = z.infer<typeof SearchedAssetsSchema>;

/** Note the wire spelling `identifers`. */
export const AssetSearchSpaceSchema = z.object({
  ...base,
  identifers: FlattenedAssetsSchema,
});
export type AssetSearchSpace = z.infer<typeof AssetSearchSpaceSchema>;

export const AssetFilterPhraseOptionsSchema = z.object({
  ...base,
  annotation: opt(AnnotationTypeEnumSchema),
});
export type AssetFilterPhraseOptions = z.infer<typeof AssetFilterPhraseOptionsSchema>;

export const AssetFilterPhraseSchema = z.object({
  ...base,
  value: opt(z.string()),
  annotation: opt(z.boolean()),
  title: opt(z.boolean()),
  content: opt(z.boolean()),
  options: opt(AssetFilterPhraseOptionsSchema),
});
export type AssetFilterPhrase = z.infer<typeof AssetFilterPhraseSchema>;

export const AssetFilterTimestampSchema = z.object({
  ...base,
  from: opt(GroupedTimestampSchema),
  to: opt(GroupedTimestampSchema),
  between: opt(z.boolean()),
});
export type AssetFilterTimestamp = z.infer<typeof AssetFilterTimestampSchema>;

const assetFilterFields = {
  ...base,
  classification: opt(ClassificationSpecificEnumSchema),
  tags: opt(z.array(z.string())),
  websites: opt(z.array(z.string())),
  persons: opt(z.array(z.string())),
  phrase: opt(AssetFilterPhraseSchema),
  created: opt(AssetFilterTimestampSchema),
  updated: opt(AssetFilterTimestampSchema),
};
type Id<T> = T;
/** Declared so that the recursion through `operations` type-checks. */
export interface AssetFilterShape extends Id<typeof assetFilterFields> {
  readonly operations: z.ZodOptional<z.ZodNullable<typeof AssetFiltersSchema>>;
}
export const AssetFilterSchema: z.ZodObject<AssetFilterShape> = z.object({
  ...assetFilterFields,
  get operations() {
    return opt(AssetFiltersSchema);
  },
});
export type AssetFilter = z.infer<typeof AssetFilterSchema>;

export const AssetFiltersSchema = z.object({
  ...base,
  iterable: z.array(AssetFilterSchema),
  type: opt(FilterOperationTypeEnumSchema),
});
export type AssetFilters = z.infer<typeof AssetFiltersSchema>;

export const AssetsSearchWithFiltersInputSchema = z.object({
  ...base,
  query: opt(z.string()),
  space: opt(AssetSearchSpaceSchema),
  filters: opt(AssetFiltersSchema),
  casing: opt(z.boolean()),
});
export type AssetsSearchWithFiltersInput = z.infer<typeof AssetsSearchWithFiltersInputSchema>;

export const AssetsSearchWithFiltersOutputSchema = z.object({
  ...base,
  results: SearchedAssetsSchema,
});
export type AssetsSearchWithFiltersOutput = z.infer<typeof AssetsSearchWithFiltersOutputSchema>;

// ---------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------

export const StreamedIdentifierSchema = z.object({
  ...base,
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
export type StreamedIdentifier = z.infer<typeof StreamedIdentifierSchema>;

export const StreamedIdentifiersSchema = z.object({
  ...base,
  iterable: z.array(StreamedIdentifierSchema),
});
export type StreamedIdentifiers = z.infer<typeof StreamedIdentifiersSchema>;

// ---------------------------------------------------------------------------
// Create / update inputs
// ---------------------------------------------------------------------------

export const SeededAssetTagSchema = z.object({
  ...base,
  text: z.string(),
  mechanism: opt(MechanismEnumSchema),
  category: opt(TagCategoryEnumSchema),
});
export type SeededAssetTag = z.infer<typeof SeededAssetTagSchema>;

export const SeededAssetWebsiteSchema = z.object({
  ...base,
  url: z.string(),
  name: z.string(),
  mechanism: opt(MechanismEnumSchema),
});
export type SeededAssetWebsite = z.infer<typeof SeededAssetWebsiteSchema>;

export const SeededAnnotationSchema = z.object({
  ...base,
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
export type SeededAnnotation = z.infer<typeof SeededAnnotationSchema>;

/** Not in §2; fields and required list from the SDK (`SeededPerson.d.ts`). */
export const SeededPersonSchema = z.object({
  ...base,
  asset: opt(z.string()),
  mechanism: opt(MechanismEnumSchema),
  access: opt(z.unknown()),
  type: PersonTypeSchema,
  model: opt(z.unknown()),
  annotations: opt(z.array(SeededAnnotationSchema)),
  anchors: opt(FlattenedAnchorsSchema),
});
export type SeededPerson = z.infer<typeof SeededPersonSchema>;

export const SeededAssetMetadataSchema = z.object({
  ...base,
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
export type SeededAssetMetadata = z.infer<typeof SeededAssetMetadataSchema>;

export const AvailableFormatsSchema = z.object({
  ...base,
  iterable: z.array(ClassificationSchema),
});
export type AvailableFormats = z.infer<typeof AvailableFormatsSchema>;

export const SeededAssetSchema = z.object({
  ...base,
  application: ApplicationSchema,
  format: SeededFormatSchema,
  metadata: opt(SeededAssetMetadataSchema),
  discovered: opt(z.boolean()),
  available: opt(AvailableFormatsSchema),
  pseudo: opt(z.boolean()),
  enrichment: opt(SeededAssetEnrichmentSchema),
  demo: opt(z.boolean()),
});
export type SeededAsset = z.infer<typeof SeededAssetSchema>;

/** Not in §2; from the SDK (`SeededWebsite.d.ts`). Body of `POST /websites/create`. */
export const SeededWebsiteSchema = z.object({
  ...base,
  asset: opt(z.string()),
  conversation: opt(z.string()),
  url: z.string(),
  name: z.string(),
  mechanism: opt(MechanismEnumSchema),
  person: opt(z.string()),
});
export type SeededWebsite = z.infer<typeof SeededWebsiteSchema>;

/** Not in §2; from the SDK (`SeededTag.d.ts`). Body of `POST /tags/create`. */
export const SeededTagSchema = z.object({
  ...base,
  text: z.string(),
  asset: opt(z.string()),
  mechanism: opt(MechanismEnumSchema),
  category: opt(TagCategoryEnumSchema),
  person: opt(z.string()),
  tagsVector: opt(z.array(z.number())),
});
export type SeededTag = z.infer<typeof SeededTagSchema>;

/** Not in §2; from the SDK (`SeededWorkstreamSummary.d.ts`). Body of `POST /workstream_summaries/create`. */
export const SeededWorkstreamSummarySchema = z.object({
  ...base,
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
export type SeededWorkstreamSummary = z.infer<typeof SeededWorkstreamSummarySchema>;

export const SeedSchema = z.object({
  ...base,
  asset: opt(SeededAssetSchema),
  person: opt(SeededPersonSchema),
  anchor: opt(z.unknown()),
  website: opt(SeededWebsiteSchema),
  type: opt(SeedTypeEnumSchema),
});
export type Seed = z.infer<typeof SeedSchema>;

export const SeedsSchema = z.object({
  ...base,
  iterable: z.array(SeedSchema),
});
export type Seeds = z.infer<typeof SeedsSchema>;

export const AssetReclassificationSchema = z.object({
  ...base,
  ext: ClassificationSpecificEnumSchema,
  asset: AssetSchema,
});
export type AssetReclassification = z.infer<typeof AssetReclassificationSchema>;

export const SeededScoreSchema = z.object({
  ...base,
  reuse: opt(z.boolean()),
  update: opt(z.boolean()),
  reference: opt(z.boolean()),
  priority: opt(z.boolean()),
  searched: opt(z.boolean()),
});
export type SeededScore = z.infer<typeof SeededScoreSchema>;

const seededScore = opt(SeededScoreSchema);
export const SeededScoreIncrementSchema = z.object({
  ...base,
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
export type SeededScoreIncrement = z.infer<typeof SeededScoreIncrementSchema>;

export const SeededAccessorSchema = z.object({
  ...base,
  os: z.string(),
  share: z.string(),
  user: opt(FlattenedUserProfileSchema),
});
export type SeededAccessor = z.infer<typeof SeededAccessorSchema>;

export const InteractedAssetInteractionsSchema = z.object({
  ...base,
  viewed: z.string(),
  touched: opt(z.boolean()),
  scrolled: opt(z.boolean()),
});
export type InteractedAssetInteractions = z.infer<typeof InteractedAssetInteractionsSchema>;

export const InteractedAssetSchema = z.object({
  ...base,
  asset: opt(UuidSchema),
  interactions: opt(InteractedAssetInteractionsSchema),
});
export type InteractedAsset = z.infer<typeof InteractedAssetSchema>;

export const InteractedAssetsSchema = z.object({
  ...base,
  iterable: z.array(InteractedAssetSchema),
});
export type InteractedAssets = z.infer<typeof InteractedAssetsSchema>;

export const SeededAssetsRecommendationSchema = z.object({
  ...base,
  assets: AssetsSchema,
  interactions: InteractedAssetsSchema,
});
export type SeededAssetsRecommendation = z.infer<typeof SeededAssetsRecommendationSchema>;

export const ExportedAssetSchema = z.object({
  ...base,
  name: z.string(),
  description: z.string(),
  created: GroupedTimestampSchema,
  raw: FileFormatSchema,
});
export type ExportedAsset = z.infer<typeof ExportedAssetSchema>;

// ---------------------------------------------------------------------------
// QGPT
// ---------------------------------------------------------------------------

/** Only `workstreams` is known; anything else is passed through. */
export const TemporalRangeGroundingSchema = z.looseObject({
  ...base,
  workstreams: opt(FlattenedRangesSchema),
});
export type TemporalRangeGrounding = z.infer<typeof TemporalRangeGroundingSchema>;

export const QGPTRelevanceInputOptionsSchema = z.object({
  ...base,
  database: opt(z.boolean()),
  question: opt(z.boolean()),
  pipeline: opt(QGPTPromptPipelineSchema),
});
export type QGPTRelevanceInputOptions = z.infer<typeof QGPTRelevanceInputOptionsSchema>;

export const QGPTRelevanceInputSchema = z.object({
  ...base,
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
export type QGPTRelevanceInput = z.infer<typeof QGPTRelevanceInputSchema>;

export const TextLocationSchema = z.object({
  ...base,
  text: z.string(),
  start: z.number(),
  end: z.number(),
});
export type TextLocation = z.infer<typeof TextLocationSchema>;

export const RelevantQGPTSeedSchema = z.object({
  ...base,
  id: opt(z.string()),
  seed: opt(SeedSchema),
  path: opt(z.string()),
  anchor: opt(ReferencedAnchorSchema),
  asset: opt(ReferencedAssetSchema),
  location: opt(TextLocationSchema),
});
export type RelevantQGPTSeed = z.infer<typeof RelevantQGPTSeedSchema>;

export const RelevantQGPTSeedsSchema = z.object({
  ...base,
  iterable: z.array(RelevantQGPTSeedSchema),
});
export type RelevantQGPTSeeds = z.infer<typeof RelevantQGPTSeedsSchema>;

export const QGPTQuestionAnswerSchema = z.object({
  ...base,
  score: z.number(),
  text: z.string(),
});
export type QGPTQuestionAnswer = z.infer<typeof QGPTQuestionAnswerSchema>;

export const QGPTQuestionAnswersSchema = z.object({
  ...base,
  iterable: z.array(QGPTQuestionAnswerSchema),
});
export type QGPTQuestionAnswers = z.infer<typeof QGPTQuestionAnswersSchema>;

export const QGPTQuestionOutputSchema = z.object({
  ...base,
  answers: QGPTQuestionAnswersSchema,
});
export type QGPTQuestionOutput = z.infer<typeof QGPTQuestionOutputSchema>;

export const QGPTRelevanceOutputSchema = z.object({
  ...base,
  relevant: RelevantQGPTSeedsSchema,
  answer: opt(QGPTQuestionOutputSchema),
});
export type QGPTRelevanceOutput = z.infer<typeof QGPTRelevanceOutputSchema>;

export const QGPTQuestionInputSchema = z.object({
  ...base,
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
export type QGPTQuestionInput = z.infer<typeof QGPTQuestionInputSchema>;

export const QGPTHintsInputSchema = z.object({
  ...base,
  relevant: RelevantQGPTSeedsSchema,
  query: opt(z.string()),
  answer: opt(QGPTQuestionAnswerSchema),
  application: opt(z.string()),
  model: opt(z.string()),
});
export type QGPTHintsInput = z.infer<typeof QGPTHintsInputSchema>;

export const QGPTConversationMessageSchema = z.object({
  ...base,
  text: z.string(),
  role: QGPTConversationMessageRoleEnumSchema,
  timestamp: GroupedTimestampSchema,
});
export type QGPTConversationMessage = z.infer<typeof QGPTConversationMessageSchema>;

export const QGPTConversationSchema = z.object({
  ...base,
  iterable: opt(z.array(QGPTConversationMessageSchema)),
});
export type QGPTConversation = z.infer<typeof QGPTConversationSchema>;

export const QGPTRepromptInputSchema = z.object({
  ...base,
  query: z.string(),
  conversation: QGPTConversationSchema,
  application: opt(z.string()),
  model: opt(z.string()),
  pipeline: opt(QGPTPromptPipelineSchema),
});
export type QGPTRepromptInput = z.infer<typeof QGPTRepromptInputSchema>;

export const QGPTRepromptOutputSchema = z.object({
  ...base,
  query: z.string(),
});
export type QGPTRepromptOutput = z.infer<typeof QGPTRepromptOutputSchema>;

export const QGPTPersonsRelatedInputSchema = z.object({
  ...base,
  seed: opt(SeedSchema),
  conversation: opt(QGPTConversationSchema),
  application: opt(z.string()),
  model: opt(z.string()),
});
export type QGPTPersonsRelatedInput = z.infer<typeof QGPTPersonsRelatedInputSchema>;

export const QGPTPersonsRelatedOutputSchema = z.object({
  ...base,
  persons: PersonsSchema,
  explanations: opt(z.record(z.string(), z.string())),
});
export type QGPTPersonsRelatedOutput = z.infer<typeof QGPTPersonsRelatedOutputSchema>;

export const QGPTStreamInputSchema = z.object({
  ...base,
  relevance: opt(QGPTRelevanceInputSchema),
  question: opt(QGPTQuestionInputSchema),
  request: opt(z.string()),
  conversation: opt(z.string()),
  stop: opt(z.boolean()),
  reset: opt(z.boolean()),
  agent: opt(z.boolean()),
});
export type QGPTStreamInput = z.infer<typeof QGPTStreamInputSchema>;

export const QGPTStreamOutputSchema = z.object({
  ...base,
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
export type QGPTStreamOutput = z.infer<typeof QGPTStreamOutputSchema>;

// ---------------------------------------------------------------------------
// Connection
// ---------------------------------------------------------------------------

export const SeededTrackedApplicationSchema = z.object({
  ...base,
  name: ApplicationNameEnumSchema,
  version: z.string(),
  platform: PlatformEnumSchema,
  capabilities: opt(CapabilitiesEnumSchema),
  privacy: opt(PrivacyEnumSchema),
  automaticUnload: opt(z.boolean()),
  enrichment: opt(SeededAssetEnrichmentSchema),
});
export type SeededTrackedApplication = z.infer<typeof SeededTrackedApplicationSchema>;

export const SeededConnectorConnectionSchema = z.object({
  ...base,
  application: SeededTrackedApplicationSchema,
});
export type SeededConnectorConnection = z.infer<typeof SeededConnectorConnectionSchema>;

export const OSHealthSchema = z.object({
  ...base,
  id: IdSchema,
  version: z.string(),
});
export type OSHealth = z.infer<typeof OSHealthSchema>;

export const HealthSchema = z.object({
  ...base,
  os: OSHealthSchema,
});
export type Health = z.infer<typeof HealthSchema>;

export const ContextSchema = z.object({
  ...base,
  os: z.string(),
  application: ApplicationSchema,
  health: HealthSchema,
  user: opt(UserProfileSchema),
});
export type Context = z.infer<typeof ContextSchema>;

export const ReturnedUserProfileSchema = z.object({
  ...base,
  user: opt(UserProfileSchema),
});
export type ReturnedUserProfile = z.infer<typeof ReturnedUserProfileSchema>;
