/**
 * The Node host's `loadModule` (../core/lazy-modules.ts): the packages themselves, by `import()`, on
 * first use. The tests and the bench use it too.
 */
import type { LazyModules, LoadModule } from '../core/lazy-modules.ts';

const IMPORTS: { [K in keyof LazyModules]: () => Promise<LazyModules[K]> } = {
  flexsearch: () => import('flexsearch'),
  transformers: () => import('../core/embed/transformers.ts'),
};

export const importModule: LoadModule = (name) => IMPORTS[name]();
