/** Wire-contract schemas: assets (see ../schemas.ts). */
import * as z from 'zod';
import { MechanismEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, ScoreSchema, type ShapeOf, UuidSchema, base, flattenedFields, opt } from './primitives.ts';
import { PreviewSchema, ReferencedFormatSchema } from './flattened.ts';
import { ActivitiesSchema, FormatsSchema } from './formats.ts';
import { PersonsSchema } from './persons.ts';
import { AnchorsSchema, AnnotationsSchema, ConversationMessagesSchema, ConversationsSchema, HintsSchema, SensitivesSchema, SharesSchema, TagsSchema, WebsitesSchema, WorkstreamSummariesSchema } from './asset-parts.ts';

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
