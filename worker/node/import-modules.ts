/**
 * The Node host's `loadModule` (../core/lazy-modules.ts): the packages themselves, by `import()`, on
 * first use. The tests and the bench use it too.
 */
import type { LanguageDetectionLib } from '../core/assets/language/vscode-model.ts';
import type { LazyModules, LoadModule } from '../core/lazy-modules.ts';

type Lib = typeof import('@vscode/vscode-languagedetection');

async function languageDetection(): Promise<LanguageDetectionLib> {
  const [lib, chunk] = await Promise.all([
    import('@vscode/vscode-languagedetection') as Promise<Lib & { default?: Lib }>,
    // @ts-ignore: the chunk has no types.
    import('@vscode/vscode-languagedetection/dist/lib/979.js') as Promise<{ default: unknown }>,
  ]);
  // A CommonJS package: Node's ESM loader puts it on `default`, bundlers give the named exports.
  return { ModelOperations: (lib.default ?? lib).ModelOperations, cpuBackendChunk: chunk.default };
}

const IMPORTS: { [K in keyof LazyModules]: () => Promise<LazyModules[K]> } = {
  flexsearch: () => import('flexsearch'),
  languagedetection: languageDetection,
  transformers: () => import('../core/embed/transformers.ts'),
};

export const importModule: LoadModule = (name) => IMPORTS[name]();
