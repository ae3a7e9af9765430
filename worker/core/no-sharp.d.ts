/**
 * What sharp's types are in the core's own typecheck (worker/core/tsconfig.json maps `sharp` here):
 * transformers.js's types import sharp's for its image pipelines, which the core never runs, and sharp's
 * load all of Node's types, which would let `process` or `Buffer` compile in the core.
 */
declare const sharp: unknown;
export default sharp;
