/**
 * How the service worker is bundled, for Tessera's own `/sw.js` (vite.config.ts) and for the package's
 * `tessera/worker` (scripts/package.ts): one self-contained script, its lazy scripts beside it, and the
 * files from npm packages it fetches at run time. Paths of lazy and packaged files are relative to where
 * they are served: the worker's folder for Tessera's own, the host's `assetsUrl` for the package.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type OutputFile, type Plugin } from 'esbuild';
import type { ShellFiles } from '../worker/browser/app-shell.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const WORKER_ENTRY = 'worker/browser/sw.ts';
/** The embedded mode's dedicated Worker (worker/embedded/worker.ts), for pages without a service worker. */
const EMBEDDED_ENTRY = 'worker/embedded/worker.ts';
/** Its file, beside the lazy scripts (relative to where the assets are served). */
export const EMBEDDED_SCRIPT = 'tessera-embedded.js';

/**
 * Refuses `import { z } from 'zod'` in worker sources: zod's `z` binding is a re-exported namespace object,
 * which esbuild must keep whole (every locale: 445 KB of the worker, compiled and evaluated at each start),
 * while `import * as z from 'zod'` used as `z.object(...)` is tree-shaken (about 85 KB).
 */
function zodNamespaceImports(): Plugin {
  const named = /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*(['"])zod\1/;
  return {
    name: 'tessera:zod-namespace-imports',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(join(repoRoot, 'worker'))) return undefined;
        if (!named.test(readFileSync(args.path, 'utf8'))) return undefined;
        return { errors: [{ text: `${args.path}: import zod as \`import * as z from 'zod'\` (the named \`z\` import pulls 370 KB of locales into the worker)` }] };
      });
    },
  };
}

/** esbuild settings shared by the worker and its lazy scripts. */
function workerBuildOptions(production: boolean) {
  return {
    plugins: [zodNamespaceImports()],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    splitting: false,
    minify: production,
    sourcemap: production ? false : 'inline',
    write: false,
    logLevel: 'silent',
    // transformers.js names Node built-ins in code paths that only run under Node; left external,
    // they are never required in the worker.
    external: ['crypto', 'fs', 'path', 'punycode', 'util', 'stream', 'http', 'url', 'https', 'zlib', 'encoding'],
    // transformers.js imports onnxruntime-web's WebGPU build; the plain wasm build (its factory bundled
    // in, no `import()` of a separate .mjs) is the one a service worker can run.
    alias: { 'onnxruntime-web/webgpu': 'onnxruntime-web/wasm' },
  } satisfies BuildOptions;
}

/**
 * The worker's lazy scripts (worker/browser/lazy-scripts.ts): big libraries it needs only sometimes, kept
 * out of `/sw.js` so that a worker start does not compile them. Each is a classic script (IIFE) that
 * leaves the exports of `source` in `globalThis.__tesseraLazy_<name>`.
 */
const LAZY_SCRIPTS: Record<string, string> = {
  // FlexSearch, for typo lookups (search/fuzzy.ts).
  flexsearch: "export { Charset, Index } from 'flexsearch';",
  // transformers.js and onnxruntime-web (embed/select.ts).
  transformers: "export * from './worker/core/embed/transformers.ts';",
};
/** Data files the worker reads, kept offline with the lazy scripts: the language model and the code vectors. */
const LAZY_DATA = [
  { from: 'node_modules/@vscode/vscode-languagedetection/model', to: 'models/vscode-languagedetection/' },
  // Trained by scripts/code-vectors (worker/models/code-vectors/README.md); read by worker/browser/embedder-host.ts.
  { from: 'worker/models/code-vectors', to: 'models/code-vectors/', only: ['python.tcv'] },
];

export interface WorkerBuild {
  /** The worker's script. */
  worker: string;
  /** The embedded mode's Worker script (a classic script, EMBEDDED_SCRIPT), loading the same lazy scripts. */
  embedded: string;
  /** Path (relative to where the assets are served) -> text of each lazy script. */
  lazy: Map<string, string>;
}

export interface WorkerBundleOptions {
  production: boolean;
  /** The entry: Tessera's own worker (the default) or the package's `tessera/worker`. */
  entry?: string;
  /** `iife` (a classic script, the default) or `esm` (a module for a host's bundler). */
  format?: 'iife' | 'esm';
  /** The build's app shell (Tessera's own worker, build only). */
  shell?: ShellFiles;
}

/**
 * Bundles the service worker into ONE self-contained classic script (IIFE; no chunks: a service worker may
 * not `import()`, nor `importScripts()` a file it did not load at install), and its lazy scripts beside it,
 * named by content hash; the
 * worker learns their names (and the cache that keeps them offline) through `TESSERA_LAZY`, and the
 * build's app shell through `TESSERA_SHELL` (build only: in dev there is none, and nothing is cached).
 * Used by dev and build alike.
 */
export async function bundleServiceWorker({ production, entry = WORKER_ENTRY, format = 'iife', shell }: WorkerBundleOptions): Promise<WorkerBuild> {
  const nodeEnv = JSON.stringify(production ? 'production' : 'development');
  const lazy = new Map<string, string>();
  const scripts: Record<string, { path: string; sha256: string }> = {};
  const hash = createHash('sha256');
  await Promise.all(
    Object.entries(LAZY_SCRIPTS).map(async ([name, source]) => {
      const result = await build({
        ...workerBuildOptions(production),
        stdin: { contents: source, resolveDir: repoRoot, sourcefile: `lazy-${name}.ts`, loader: 'ts' },
        format: 'iife',
        globalName: `__tesseraLazy_${name}`,
        define: { 'process.env.NODE_ENV': nodeEnv },
      });
      const text = only(result.outputFiles, `lazy script ${name}`);
      // The worker checks the script's bytes against the full hash before it runs it (worker/browser/lazy-scripts.ts).
      const sha256 = createHash('sha256').update(text).digest('hex');
      const path = `lazy/${name}-${sha256.slice(0, 10)}.js`;
      scripts[name] = { path, sha256 };
      lazy.set(path, text);
    }),
  );
  const data = LAZY_DATA.flatMap((entry) => packagedNames(entry).sort().map((name) => ({ path: `${entry.to}${name}`, file: join(repoRoot, entry.from, name) })));
  const precache = [...Object.values(scripts).map((s) => s.path).sort(), ...data.map((d) => d.path)];
  for (const path of precache) hash.update(path);
  for (const { file } of data) hash.update(readFileSync(file));
  const files = { cache: `tessera-lazy-${hash.digest('hex').slice(0, 10)}`, scripts, precache };
  const lazyDefines = { 'process.env.NODE_ENV': nodeEnv, TESSERA_LAZY: JSON.stringify(files) };
  const embedded = build({ ...workerBuildOptions(production), entryPoints: [EMBEDDED_ENTRY], format: 'iife', define: lazyDefines });
  const result = await build({
    ...workerBuildOptions(production),
    entryPoints: [entry],
    // A classic worker, not a module one: Chromium keeps a classic service worker's compiled code (V8 code
    // cache) and starts it about 13 ms sooner (interleaved A/B, worker stopped -> GET /api/__echo: 60 -> 47 ms).
    // The bundle has no top-level await; esbuild turns the `import.meta` of FlexSearch's unused worker mode into `{}`.
    format,
    define: { ...lazyDefines, ...(shell && { TESSERA_SHELL: JSON.stringify(shell) }) },
  });
  return { worker: only(result.outputFiles, 'worker bundle'), embedded: only((await embedded).outputFiles, 'embedded worker bundle'), lazy };
}

function only(outputs: OutputFile[], what: string): string {
  if (outputs.length !== 1) throw new Error(`expected one ${what}, got ${outputs.length}`);
  return outputs[0]!.text;
}

/**
 * Files the worker fetches at run time, served from where they are (dev) and copied into the build and the
 * package: the npm packages' own files (so no copy of them lives in the repository) and the code vectors.
 */
export const PACKAGED_FILES: { from: string; to: string; only?: string[] }[] = [
  ...LAZY_DATA,
  // onnxruntime-web's single-threaded wasm binary, for transformers.js in the worker (embedder-host.ts).
  { from: 'node_modules/onnxruntime-web/dist', to: 'ort/', only: ['ort-wasm-simd-threaded.wasm'] },
];

/** The file names an entry serves: all of its folder's, or those it lists. */
export const packagedNames = (entry: { from: string; only?: string[] }) => entry.only ?? readdirSync(join(repoRoot, entry.from));

