/** Wire-contract schemas: helpers and primitives (see ../schemas.ts). */
import * as z from 'zod';
import { EmbeddedModelSchemaSemanticVersionEnumSchema, MechanismEnumSchema } from '../enums.ts';
import { lazySchema } from '../lazy-schema.ts';

/**
 * No cycle support in parsing. Zod's default memoizer lets a parse follow reference cycles in its input,
 * and to learn whether a schema can be re-entered, the first parse of each walks the schema's whole graph,
 * which builds every lazy schema it reaches: the relevance input's first parse took 16 ms instead of 2.5
 * in Node (commit 64a00d5), paid by the first call of each kind in every new worker. Inputs are JSON
 * (no cycles) or structured clones from the page; `check` (service-input.ts) refuses a cyclic one as too
 * deeply nested, which is what parsing it becomes.
 */
z.config({ memoizer: { attach: () => undefined, guard: () => undefined, alloc: (_schema, _payload, empty) => empty } });

/** Optional field: missing, `undefined` or `null` are all accepted. */
export const opt = <T extends z.ZodType>(s: T) => s.nullish();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UuidSchema = lazySchema(() => z.string().regex(UUID_RE, 'expected a UUID'));

/** Non-UUID ids: any non-empty string. */
export const IdSchema = lazySchema(() => z.string().min(1));

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/;
/** ISO-8601 date-time string (`YYYY-MM-DDTHH:MM:SS(.sss)?(Z|±hh:mm)?`) that `new Date()` parses. */
export const IsoDateSchema = lazySchema(() =>
  z
    .string()
    .regex(ISO_RE, 'expected an ISO-8601 date-time')
    .refine((s) => !Number.isNaN(new Date(s).getTime()), 'invalid date'),
);

/** `map<string, number>` (id → position; -1 means removed). */
export const IndicesSchema = lazySchema(() => z.record(z.string(), z.number()));

export const MechanismsMapSchema = lazySchema(() => z.record(z.string(), MechanismEnumSchema));
export const LooseMapSchema = lazySchema(() => z.record(z.string(), z.unknown()));

/**
 * Each model is written as `XFields` (a function returning the shape), `interface XShape extends
 * ShapeOf<typeof XFields>` and `XSchema: z.ZodObject<XShape>`. The named interface keeps emitted
 * declarations small: nested schemas print as `z.ZodObject<XShape>` instead of being expanded at every use.
 * `lazySchema` builds a model (and its fields) on first use, not when the worker starts. Building a model
 * builds the models its fields call a method of (`opt(Y)`), so a field that refers back to a model being
 * built is written as a getter (see `AssetFilter.operations`).
 */
export type ShapeOf<F extends () => object> = ReturnType<F>;

const EmbeddedModelSchemaFields = () => ({
  migration: z.number(),
  semantic: EmbeddedModelSchemaSemanticVersionEnumSchema,
});
export interface EmbeddedModelSchemaShape extends ShapeOf<typeof EmbeddedModelSchemaFields> {}
export const EmbeddedModelSchemaSchema: z.ZodObject<EmbeddedModelSchemaShape> =
  lazySchema(() => z.object(EmbeddedModelSchemaFields()));
export type EmbeddedModelSchema = z.infer<typeof EmbeddedModelSchemaSchema>;

/** Every model carries an optional `schema` (a function: `opt()` builds the schema it wraps, so not at start). */
export const base = () => ({ schema: opt(EmbeddedModelSchemaSchema) });

const ScoreFields = () => ({
  ...base(),
  manual: z.number(),
  automatic: z.number(),
  priority: opt(z.number()),
  reuse: opt(z.number()),
  update: opt(z.number()),
  reference: opt(z.number()),
  searched: opt(z.number()),
});
export interface ScoreShape extends ShapeOf<typeof ScoreFields> {}
export const ScoreSchema: z.ZodObject<ScoreShape> = lazySchema(() => z.object(ScoreFields()));
export type Score = z.infer<typeof ScoreSchema>;

const GroupedTimestampFields = () => ({
  ...base(),
  value: z.union([IsoDateSchema, z.date()]),
  readable: opt(z.string()),
});
export interface GroupedTimestampShape extends ShapeOf<typeof GroupedTimestampFields> {}
export const GroupedTimestampSchema: z.ZodObject<GroupedTimestampShape> =
  lazySchema(() => z.object(GroupedTimestampFields()));
export type GroupedTimestamp = z.infer<typeof GroupedTimestampSchema>;

/** Shape of `Referenced<X>`: REQ `id` · opt `reference`. */
export const referencedFields = <R extends z.ZodType>(reference: R) => ({
  ...base(),
  id: IdSchema,
  reference: opt(reference),
});

/** `Referenced<X>` of a model we never flatten. */
export const OpaqueReferencedSchema = lazySchema(() => z.object(referencedFields(z.unknown())));

/** Shape of `Flattened<X>s` (and of most `<X>s`): REQ `iterable` · opt `indices`, `score`. */
export const flattenedFields = <R extends z.ZodType>(ref: R) => ({
  ...base(),
  iterable: z.array(ref),
  indices: opt(IndicesSchema),
  score: opt(ScoreSchema),
});
