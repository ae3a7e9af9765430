/**
 * Zod schemas for the wire models of wire-contract.md §2 (JSON key names, REQ/opt as listed there).
 * Optional fields accept `null` as well as a missing key. Objects are non-strict: unknown keys are stripped.
 * Nested models we never populate are typed `unknown`.
 *
 * One module per part of the contract, in schemas/; this module is their one entry point.
 */
export * from './schemas/primitives.ts';
export * from './schemas/content.ts';
export * from './schemas/references.ts';
export * from './schemas/flattened.ts';
export * from './schemas/formats.ts';
export * from './schemas/persons.ts';
export * from './schemas/asset-parts.ts';
export * from './schemas/assets.ts';
export * from './schemas/search.ts';
export * from './schemas/streams.ts';
export * from './schemas/seeds.ts';
export * from './schemas/qgpt.ts';
export * from './schemas/connection.ts';
export * from './enums.ts';
