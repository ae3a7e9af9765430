/** Wire-contract schemas: streams (see ../schemas.ts). */
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { type ShapeOf, base, opt } from './primitives.ts';
import { ReferencedActivitySchema, ReferencedAnchorSchema, ReferencedAnnotationSchema, ReferencedConversationMessageSchema, ReferencedConversationSchema, ReferencedModelSchema, ReferencedPersonSchema, ReferencedTagSchema, ReferencedWebsiteSchema, ReferencedWorkstreamSummarySchema } from './references.ts';
import { ReferencedAssetSchema, ReferencedFormatSchema } from './flattened.ts';

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
