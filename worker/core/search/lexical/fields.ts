/**
 * The six fields of a document and how a posting packs a term's frequency in each: 5 bits a field in
 * one 32-bit number (a frequency above 31 counts as 31: BM25 has long saturated by then).
 */

/** `code` and `prose` are the two halves of an asset's content: code, and its comments, docstrings or text. */
export const FIELDS = ['name', 'code', 'prose', 'annotations', 'tags', 'websites'] as const;
export type FieldName = (typeof FIELDS)[number];
export const FIELD_COUNT = FIELDS.length;
/** Field f's frequency is (packed >>> (f * TF_BITS)) & TF_MAX. */
export const TF_BITS = 5;
export const TF_MAX = (1 << TF_BITS) - 1;
