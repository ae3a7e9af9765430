/** Wire-contract schemas: qGPT (see ../schemas.ts). */
import * as z from 'zod';
import { QGPTConversationMessageRoleEnumSchema, QGPTStreamEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, type ShapeOf, base, opt } from './primitives.ts';
import { FlattenedAnchorsSchema, FlattenedConversationMessagesSchema, FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema, FlattenedRangesSchema, FlattenedWorkstreamSummariesSchema, ReferencedAnchorSchema } from './references.ts';
import { FlattenedAssetsSchema, ReferencedAssetSchema } from './flattened.ts';
import { PersonsSchema } from './persons.ts';
import { QGPTPromptPipelineSchema } from './asset-parts.ts';
import { SeedSchema, SeedsSchema } from './seeds.ts';

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
