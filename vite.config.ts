import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type OutputFile, type Plugin as Plugin_ } from 'esbuild';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import type { ShellFiles } from './worker/browser/app-shell.ts';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const appRoot = fileURLToPath(new URL('./app', import.meta.url));
const WORKER_ENTRY = 'worker/browser/sw.ts';
const WORKER_URL = '/sw.js';
/** The embedded mode's dedicated Worker (worker/embedded/worker.ts), for pages without a service worker. */
const EMBEDDED_ENTRY = 'worker/embedded/worker.ts';
const EMBEDDED_URL = '/tessera-embedded.js';

/**
 * Refuses `import { z } from 'zod'` in worker sources: zod's `z` binding is a re-exported namespace object,
 * which esbuild must keep whole (every locale: 445 KB of the worker, compiled and evaluated at each start),
 * while `import * as z from 'zod'` used as `z.object(...)` is tree-shaken (about 85 KB).
 */
function zodNamespaceImports(): Plugin_ {
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
    // @vscode/vscode-languagedetection's bundle names Node built-ins in code paths that only run
    // under Node; left external, they are never required in the worker.
    external: ['crypto', 'fs', 'path', 'punycode', 'util', 'stream', 'http', 'url', 'https', 'zlib', 'encoding'],
    // transformers.js imports onnxruntime-web's WebGPU build; the plain wasm build (its factory bundled
    // in, no `import()` of a separate .mjs) is the one a service worker can run.
    alias: { 'onnxruntime-web/webgpu': 'onnxruntime-web/wasm' },
  } satisfies BuildOptions;
}

/**
 * The worker's lazy scripts (worker/core/lazy-script.ts): big libraries it needs only sometimes, kept
 * out of `/sw.js` so that a worker start does not compile them. Each is a classic script (IIFE) that
 * leaves the exports of `source` in `globalThis.__tesseraLazy_<name>`.
 */
const LAZY_SCRIPTS: Record<string, string> = {
  // The language model's TF.js code (assets/language/vscode-model.ts, LanguageDetectionLib).
  languagedetection: [
    "export { ModelOperations } from '@vscode/vscode-languagedetection';",
    "export { default as cpuBackendChunk } from '@vscode/vscode-languagedetection/dist/lib/979.js';",
  ].join('\n'),
  // FlexSearch, for typo lookups (search/fuzzy.ts).
  flexsearch: "export { Charset, Index } from 'flexsearch';",
  // transformers.js and onnxruntime-web (embed/select.ts).
  transformers: "export * from './worker/core/embed/transformers.ts';",
};
/** Data files the lazy scripts read, kept offline with them: the language model. */
const LAZY_DATA = { from: 'node_modules/@vscode/vscode-languagedetection/model', to: '/models/vscode-languagedetection/' };

interface WorkerBuild {
  /** `/sw.js`. */
  worker: string;
  /** `/tessera-embedded.js`. */
  embedded: string;
  /** URL path -> text of each lazy script. */
  lazy: Map<string, string>;
}

/**
 * Bundles the service worker into ONE self-contained classic script (IIFE; no chunks: a service worker may
 * not `import()`, nor `importScripts()` a file it did not load at install), and its lazy scripts beside it,
 * named by content hash; the
 * worker learns their names (and the cache that keeps them offline) through `TESSERA_LAZY`, and the
 * build's app shell through `TESSERA_SHELL` (build only: in dev there is none, and nothing is cached).
 * Used by dev and build alike.
 */
async function bundleServiceWorker(production: boolean, shell?: ShellFiles): Promise<WorkerBuild> {
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
      // The worker checks the script's bytes against the full hash before it runs it (worker/core/lazy-script.ts).
      const sha256 = createHash('sha256').update(text).digest('hex');
      const path = `/lazy/${name}-${sha256.slice(0, 10)}.js`;
      scripts[name] = { path, sha256 };
      lazy.set(path, text);
    }),
  );
  const precache = [...Object.values(scripts).map((s) => s.path).sort(), ...readdirSync(join(repoRoot, LAZY_DATA.from)).sort().map((name) => `${LAZY_DATA.to}${name}`)];
  for (const path of precache) hash.update(path);
  for (const name of readdirSync(join(repoRoot, LAZY_DATA.from)).sort()) hash.update(readFileSync(join(repoRoot, LAZY_DATA.from, name)));
  const files = { cache: `tessera-lazy-${hash.digest('hex').slice(0, 10)}`, scripts, precache };
  const lazyDefines = { 'process.env.NODE_ENV': nodeEnv, TESSERA_LAZY_SCRIPTS: 'true', TESSERA_LAZY: JSON.stringify(files) };
  // The embedded Worker loads the same lazy scripts (from the service worker's cache when one has it).
  const embedded = build({ ...workerBuildOptions(production), entryPoints: [EMBEDDED_ENTRY], format: 'iife', define: lazyDefines });
  const result = await build({
    ...workerBuildOptions(production),
    entryPoints: [WORKER_ENTRY],
    // A classic worker, not a module one: Chromium keeps a classic service worker's compiled code (V8 code
    // cache) and starts it about 13 ms sooner (interleaved A/B, worker stopped -> GET /api/__echo: 60 -> 47 ms).
    // The bundle has no top-level await; esbuild turns the `import.meta` of FlexSearch's unused worker mode into `{}`.
    format: 'iife',
    define: { ...lazyDefines, ...(shell && { TESSERA_SHELL: JSON.stringify(shell) }) },
  });
  return { worker: only(result.outputFiles, 'worker bundle'), embedded: only((await embedded).outputFiles, 'embedded worker bundle'), lazy };
}

function only(outputs: OutputFile[], what: string): string {
  if (outputs.length !== 1) throw new Error(`expected one ${what}, got ${outputs.length}`);
  return outputs[0]!.text;
}

/**
 * The app shell (worker/browser/app-shell.ts) of a build: the page, the files it loads and public/'s
 * top-level files (manifest, icon; its folders, such as model files, are not part of the shell).
 * Required: index.html and the `/assets/` files it links (the entry script, its preloads and styles);
 * optional: the other emitted `/assets/` files (dynamic chunks) and the public files. The cache name
 * is a hash of every path and content, so a new build gets a new cache.
 */
function appShell(bundle: Rollup.OutputBundle, publicDir: string): ShellFiles {
  const content = new Map<string, string | Uint8Array>();
  for (const file of Object.values(bundle)) {
    if (file.fileName === 'index.html' || file.fileName.startsWith('assets/')) {
      content.set(`/${file.fileName}`, file.type === 'chunk' ? file.code : file.source);
    }
  }
  const page = content.get('/index.html');
  if (typeof page !== 'string') throw new Error('app shell: the build emitted no index.html');
  for (const name of publicDir ? readdirSync(publicDir) : []) {
    if (statSync(join(publicDir, name)).isFile()) content.set(`/${name}`, readFileSync(join(publicDir, name)));
  }
  const linked = new Set([...page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!));
  const paths = [...content.keys()].sort();
  const hash = createHash('sha256');
  for (const path of paths) hash.update(path).update(content.get(path)!);
  return {
    cache: `tessera-shell-${hash.digest('hex').slice(0, 10)}`,
    required: paths.filter((path) => path === '/index.html' || linked.has(path)),
    optional: paths.filter((path) => path !== '/index.html' && !linked.has(path)),
  };
}

/** Serves `/sw.js` in `vite` dev (rebuilt on each request) and emits `sw.js` into the build output. */
function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'tessera:service-worker',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    configureServer(server) {
      // The lazy scripts of the latest worker bundle served (their names come with the worker).
      let lazy = new Map<string, string>();
      server.middlewares.use(async (req, res, next) => {
        const path = req.url?.split('?')[0];
        const lazyScript = path && lazy.get(path);
        if (lazyScript) {
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.end(lazyScript);
          return;
        }
        if (path !== WORKER_URL && path !== EMBEDDED_URL) return next();
        try {
          const built = await bundleServiceWorker(false);
          lazy = built.lazy;
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.setHeader('Service-Worker-Allowed', '/');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(path === WORKER_URL ? built.worker : built.embedded);
        } catch (error) {
          server.config.logger.error(`[tessera] service worker bundle failed: ${String(error)}`);
          res.statusCode = 500;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end(String(error));
        }
      });
    },
    // 'post': after Vite has emitted index.html and the page's assets, which make the shell.
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const built = await bundleServiceWorker(true, appShell(bundle, publicDir));
        this.emitFile({ type: 'asset', fileName: WORKER_URL.slice(1), source: built.worker });
        this.emitFile({ type: 'asset', fileName: EMBEDDED_URL.slice(1), source: built.embedded });
        for (const [path, source] of built.lazy) this.emitFile({ type: 'asset', fileName: path.slice(1), source });
      },
    },
  };
}

/**
 * Files that ship inside npm packages and the worker fetches at run time, served from the package
 * (dev) and copied into the build, so no copy of them lives in the repository.
 */
const PACKAGED_FILES: { from: string; to: string; only?: string[] }[] = [
  LAZY_DATA,
  // onnxruntime-web's single-threaded wasm binary, for transformers.js in the worker (embedder-host.ts).
  { from: 'node_modules/onnxruntime-web/dist', to: '/ort/', only: ['ort-wasm-simd-threaded.wasm'] },
];

const CONTENT_TYPES: Record<string, string> = { '.json': 'application/json', '.bin': 'application/octet-stream', '.wasm': 'application/wasm' };

/** The file names an entry serves: all of its folder's, or those it lists. */
const packagedNames = (entry: (typeof PACKAGED_FILES)[number]) => entry.only ?? readdirSync(join(repoRoot, entry.from));

function packagedFiles(): Plugin {
  return {
    name: 'tessera:packaged-files',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        const entry = PACKAGED_FILES.find((e) => path.startsWith(e.to));
        const name = entry && path.slice(entry.to.length);
        if (!entry || !name || !packagedNames(entry).includes(name)) return next();
        res.setHeader('Content-Type', CONTENT_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream');
        res.end(readFileSync(join(repoRoot, entry.from, name)));
      });
    },
    generateBundle() {
      for (const entry of PACKAGED_FILES) {
        for (const name of packagedNames(entry)) {
          this.emitFile({ type: 'asset', fileName: `${entry.to.slice(1)}${name}`, source: readFileSync(join(repoRoot, entry.from, name)) });
        }
      }
    },
  };
}

// The page root is app/ so that app/index.html is served at `/` and the worker at `/sw.js`.
// appType 'mpa': an unknown path is a 404 in dev too (no index.html fallback), like scripts/serve.mjs,
// so a request under /api from a page that is not yet controlled never gets HTML with a 200.
export default defineConfig({
  root: appRoot,
  appType: 'mpa',
  publicDir: `${repoRoot}public`,
  envDir: repoRoot,
  build: {
    outDir: `${repoRoot}dist`,
    emptyOutDir: true,
    // The app, and the embedded mode's page (the client alone, no service worker: its e2e tests and bench use it).
    rollupOptions: { input: { index: `${appRoot}/index.html`, embedded: `${appRoot}/embedded.html` } },
  },
  // The app's components are Preact TSX (app/ui).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [serviceWorker(), packagedFiles()],
});
