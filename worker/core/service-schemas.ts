/**
 * Input schemas of Tessera's own operations and of inputs it takes more loosely than the contract (the
 * wire-contract's are in model/schemas): checked by the services (service-input.ts), whoever calls.
 */
import * as z from 'zod';
import { lazySchema } from './model/lazy-schema.ts';
import { AssetSchema, InteractedAssetsSchema } from './model/schemas.ts';

/** The most texts one POST /embeddings may embed; more is a 422 (embed them in several calls). */
export const MAX_TEXTS_PER_CALL = 1024;

export const EmbedRequestSchema = lazySchema(() => z.object({ texts: z.array(z.string()).max(MAX_TEXTS_PER_CALL) }));
export type EmbedRequest = z.infer<typeof EmbedRequestSchema>;

/** GET /assets/search's parameters: a query, tags, or both. */
export const SearchParamsSchema = lazySchema(() => z.object({ query: z.string().nullish(), tags: z.array(z.string()).nullish() }));
export type SearchParams = z.infer<typeof SearchParamsSchema>;

/**
 * Related and recommended inputs name assets the client holds. Only `id` is required here (with the
 * other fields checked when present), so a client may send `{"iterable": [{"id": …}]}` as well as full assets.
 */
const AssetInputSchema = lazySchema(() => AssetSchema.partial().required({ id: true }));
export const RelatedInputSchema = lazySchema(() => z.object({ iterable: z.array(AssetInputSchema) }));
export type RelatedInput = z.infer<typeof RelatedInputSchema>;
export const RecommendationInputSchema = lazySchema(() => z.object({ assets: RelatedInputSchema, interactions: InteractedAssetsSchema }));
export type RecommendationInput = z.infer<typeof RecommendationInputSchema>;
