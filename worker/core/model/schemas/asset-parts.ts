/** Wire-contract schemas: asset sub-collections (see ../schemas.ts). */
import * as z from 'zod';
import { AnnotationTypeEnumSchema, CapabilitiesEnumSchema, ConversationMessageSentimentEnumSchema, ConversationTypeEnumSchema, HintTypeEnumSchema, MechanismEnumSchema, QGPTConversationMessageRoleEnumSchema, TagCategoryEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, IdSchema, MechanismsMapSchema, ScoreSchema, type ShapeOf, base, flattenedFields, opt } from './primitives.ts';
import { ApplicationSchema, FragmentFormatSchema } from './content.ts';
import { FlattenedAnchorsSchema, FlattenedAnnotationsSchema, FlattenedConversationMessagesSchema, FlattenedConversationsSchema, FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema, FlattenedPersonsSchema, FlattenedRangesSchema, FlattenedTagsSchema, FlattenedWebsitesSchema, FlattenedWorkstreamEventsSchema, FlattenedWorkstreamPatternEngineSourceWindowsSchema, FlattenedWorkstreamSummariesSchema, ReferencedAnchorSchema, ReferencedConversationSchema, ReferencedModelSchema, ReferencedPersonSchema, ReferencedWorkstreamSummarySchema } from './references.ts';
import { FlattenedAssetsSchema, ReferencedAssetSchema } from './flattened.ts';
import { ModelSchema } from './persons.ts';

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
