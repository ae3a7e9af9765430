/** Wire-contract schemas: activities, formats (see ../schemas.ts). */
import * as z from 'zod';
import { MechanismEnumSchema, RoleSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, IdSchema, LooseMapSchema, type ShapeOf, UuidSchema, base, opt } from './primitives.ts';
import { ApplicationSchema, ByteDescriptorSchema, ClassificationSchema, FileFormatSchema, FragmentFormatSchema } from './content.ts';
import { FlattenedUserProfileSchema } from './references.ts';
import { FlattenedAssetSchema, FlattenedFormatSchema } from './flattened.ts';

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
