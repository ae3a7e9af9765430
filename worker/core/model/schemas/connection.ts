/** Wire-contract schemas: connection (see ../schemas.ts). */
import * as z from 'zod';
import { ApplicationNameEnumSchema, CapabilitiesEnumSchema, PlatformEnumSchema, PrivacyEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { IdSchema, type ShapeOf, base, opt } from './primitives.ts';
import { ApplicationSchema, SeededAssetEnrichmentSchema } from './content.ts';
import { UserProfileSchema } from './persons.ts';

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
