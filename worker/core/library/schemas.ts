import * as z from 'zod';
import { lazySchema } from '../model/lazy-schema.ts';

/** The answers of `/library` (Tessera's own API): schemas for their tests and types for their callers. */

export const LibraryRowSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    /** The original format's classification (`py`, `ts`, `png`, ...). */
    language: z.string(),
    /** `CODE`, `TEXT`, `IMAGE`, ... of the original format. */
    generic: z.string(),
    /** Lower-case, as the index matches them. */
    tags: z.array(z.string()),
    websites: z.array(z.string()),
    /** Epoch milliseconds. */
    created: z.number(),
    updated: z.number(),
    /** How much the asset was used: the sum of its score counters. */
    usage: z.number(),
  }),
);
export type LibraryRow = z.infer<typeof LibraryRowSchema>;

/** `total`: how many rows the whole list holds (more than `rows` when only the first were asked for). */
export const LibraryRowsSchema = lazySchema(() => z.object({ rows: z.array(LibraryRowSchema), total: z.number().int().nonnegative() }));
export type LibraryRows = z.infer<typeof LibraryRowsSchema>;

export const LibraryPreviewsSchema = lazySchema(() => z.object({ previews: z.record(z.string(), z.string()) }));
export type LibraryPreviews = z.infer<typeof LibraryPreviewsSchema>;
