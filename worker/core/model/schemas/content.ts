/** Wire-contract schemas: formats & content (leaves) (see ../schemas.ts). */
import * as z from 'zod';
import { ApplicationNameEnumSchema, CapabilitiesEnumSchema, ClassificationGenericEnumSchema, ClassificationRenderingEnumSchema, ClassificationSpecificEnumSchema, MechanismEnumSchema, PlatformEnumSchema, PrivacyEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { IdSchema, type ShapeOf, base, opt } from './primitives.ts';

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
