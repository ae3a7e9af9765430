/** Wire-contract schemas: search (see ../schemas.ts). */
import * as z from 'zod';
import { AnnotationTypeEnumSchema, ClassificationSpecificEnumSchema, FilterOperationTypeEnumSchema, SearchedMatchEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';
import { GroupedTimestampSchema, type ShapeOf, base, opt } from './primitives.ts';
import { FlattenedAssetsSchema } from './flattened.ts';
import { AssetSchema } from './assets.ts';

const SearchedAssetFields = () => ({
  ...base(),
  exact: z.boolean(),
  score: z.number(),
  match: SearchedMatchEnumSchema,
  identifier: z.string(),
  asset: opt(AssetSchema),
  pseudo: opt(z.boolean()),
});
export interface SearchedAssetShape extends ShapeOf<typeof SearchedAssetFields> {}
export const SearchedAssetSchema: z.ZodObject<SearchedAssetShape> = lazySchema(() => z.object(SearchedAssetFields()));
export type SearchedAsset = z.infer<typeof SearchedAssetSchema>;

const SearchedAssetsFields = () => ({
  ...base(),
  iterable: z.array(SearchedAssetSchema),
  suggested: z.number(),
  exact: z.number(),
});
export interface SearchedAssetsShape extends ShapeOf<typeof SearchedAssetsFields> {}
export const SearchedAssetsSchema: z.ZodObject<SearchedAssetsShape> =
  lazySchema(() => z.object(SearchedAssetsFields()));
export type SearchedAssets = z.infer<typeof SearchedAssetsSchema>;

/** Note the wire spelling `identifers`. */
const AssetSearchSpaceFields = () => ({
  ...base(),
  identifers: FlattenedAssetsSchema,
});
export interface AssetSearchSpaceShape extends ShapeOf<typeof AssetSearchSpaceFields> {}
export const AssetSearchSpaceSchema: z.ZodObject<AssetSearchSpaceShape> =
  lazySchema(() => z.object(AssetSearchSpaceFields()));
export type AssetSearchSpace = z.infer<typeof AssetSearchSpaceSchema>;

const AssetFilterPhraseOptionsFields = () => ({
  ...base(),
  annotation: opt(AnnotationTypeEnumSchema),
});
export interface AssetFilterPhraseOptionsShape extends ShapeOf<typeof AssetFilterPhraseOptionsFields> {}
export const AssetFilterPhraseOptionsSchema: z.ZodObject<AssetFilterPhraseOptionsShape> =
  lazySchema(() => z.object(AssetFilterPhraseOptionsFields()));
export type AssetFilterPhraseOptions = z.infer<typeof AssetFilterPhraseOptionsSchema>;

const AssetFilterPhraseFields = () => ({
  ...base(),
  value: opt(z.string()),
  annotation: opt(z.boolean()),
  title: opt(z.boolean()),
  content: opt(z.boolean()),
  options: opt(AssetFilterPhraseOptionsSchema),
});
export interface AssetFilterPhraseShape extends ShapeOf<typeof AssetFilterPhraseFields> {}
export const AssetFilterPhraseSchema: z.ZodObject<AssetFilterPhraseShape> =
  lazySchema(() => z.object(AssetFilterPhraseFields()));
export type AssetFilterPhrase = z.infer<typeof AssetFilterPhraseSchema>;

const AssetFilterTimestampFields = () => ({
  ...base(),
  from: opt(GroupedTimestampSchema),
  to: opt(GroupedTimestampSchema),
  between: opt(z.boolean()),
});
export interface AssetFilterTimestampShape extends ShapeOf<typeof AssetFilterTimestampFields> {}
export const AssetFilterTimestampSchema: z.ZodObject<AssetFilterTimestampShape> =
  lazySchema(() => z.object(AssetFilterTimestampFields()));
export type AssetFilterTimestamp = z.infer<typeof AssetFilterTimestampSchema>;

const AssetFilterFields = () => ({
  ...base(),
  classification: opt(ClassificationSpecificEnumSchema),
  tags: opt(z.array(z.string())),
  websites: opt(z.array(z.string())),
  persons: opt(z.array(z.string())),
  phrase: opt(AssetFilterPhraseSchema),
  created: opt(AssetFilterTimestampSchema),
  updated: opt(AssetFilterTimestampSchema),
  get operations() {
    return opt(AssetFiltersSchema);
  },
});
export interface AssetFilterShape extends ShapeOf<typeof AssetFilterFields> {}
export const AssetFilterSchema: z.ZodObject<AssetFilterShape> = lazySchema(() => z.object(AssetFilterFields()));
export type AssetFilter = z.infer<typeof AssetFilterSchema>;

const AssetFiltersFields = () => ({
  ...base(),
  iterable: z.array(AssetFilterSchema),
  type: opt(FilterOperationTypeEnumSchema),
});
export interface AssetFiltersShape extends ShapeOf<typeof AssetFiltersFields> {}
export const AssetFiltersSchema: z.ZodObject<AssetFiltersShape> = lazySchema(() => z.object(AssetFiltersFields()));
export type AssetFilters = z.infer<typeof AssetFiltersSchema>;

const AssetsSearchWithFiltersInputFields = () => ({
  ...base(),
  query: opt(z.string()),
  space: opt(AssetSearchSpaceSchema),
  filters: opt(AssetFiltersSchema),
  casing: opt(z.boolean()),
});
export interface AssetsSearchWithFiltersInputShape extends ShapeOf<typeof AssetsSearchWithFiltersInputFields> {}
export const AssetsSearchWithFiltersInputSchema: z.ZodObject<AssetsSearchWithFiltersInputShape> =
  lazySchema(() => z.object(AssetsSearchWithFiltersInputFields()));
export type AssetsSearchWithFiltersInput = z.infer<typeof AssetsSearchWithFiltersInputSchema>;

const AssetsSearchWithFiltersOutputFields = () => ({
  ...base(),
  results: SearchedAssetsSchema,
});
export interface AssetsSearchWithFiltersOutputShape extends ShapeOf<typeof AssetsSearchWithFiltersOutputFields> {}
export const AssetsSearchWithFiltersOutputSchema: z.ZodObject<AssetsSearchWithFiltersOutputShape> =
  lazySchema(() => z.object(AssetsSearchWithFiltersOutputFields()));
export type AssetsSearchWithFiltersOutput = z.infer<typeof AssetsSearchWithFiltersOutputSchema>;
