/** Wire-contract schemas: models, users, persons (see ../schemas.ts). */
import * as z from 'zod';
import { ModelTypeEnumSchema, ModelUsageEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, IdSchema, LooseMapSchema, MechanismsMapSchema, ScoreSchema, type ShapeOf, base, flattenedFields, opt } from './primitives.ts';
import { ByteDescriptorSchema } from './content.ts';
import { FlattenedAnchorsSchema, FlattenedAnnotationsSchema, FlattenedConversationMessagesSchema, FlattenedIdentifiedWorkstreamPatternEngineSourcesSchema, FlattenedPersonsSchema, FlattenedTagsSchema, FlattenedWebsitesSchema, FlattenedWorkstreamEventsSchema, FlattenedWorkstreamSummariesSchema } from './references.ts';
import { FlattenedAssetsSchema } from './flattened.ts';

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
