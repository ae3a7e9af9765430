/** Wire-contract schemas: reference collections (references to models we do not flatten are `unknown`) (see ../schemas.ts). */
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { IdSchema, OpaqueReferencedSchema, type ShapeOf, base, flattenedFields, opt, referencedFields } from './primitives.ts';

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
