/**
 * The libraries the core loads on first use, by name, through its host (`Deps.loadModule`), as Hono's
 * adapters hand a runtime's specifics to a runtime-agnostic app. Each is big and rarely needed, so
 * where it comes from is the host's business: the service worker evaluates a hash-checked script of
 * its build (worker/browser/lazy-scripts.ts), Node imports the package (worker/node/import-modules.ts).
 * A host that provides none still answers every request: the features fall back (no typo lookups,
 * the hashing embedder), with a console warning.
 */
export interface LazyModules {
  /** FlexSearch, for typo lookups (search/fuzzy.ts). */
  flexsearch: Pick<typeof import('flexsearch'), 'Charset' | 'Index'>;
  /** transformers.js with onnxruntime (embed/select.ts). */
  transformers: typeof import('./embed/transformers.ts');
}

export type LazyModuleName = keyof LazyModules;

/** Loads a lazy module; rejects when the host cannot (the caller falls back). */
export type LoadModule = <K extends LazyModuleName>(name: K) => Promise<LazyModules[K]>;

/** The loader of a host that provides no lazy modules. */
export const NO_MODULES: LoadModule = (name) => Promise.reject(new Error(`${name}: this host provides no lazy modules`));
