import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const appRoot = fileURLToPath(new URL('./app', import.meta.url));
const WORKER_ENTRY = 'worker/browser/sw.ts';
const WORKER_URL = '/sw.js';

/**
 * Bundles the service worker into ONE self-contained ES module (no chunks: a service worker may not
 * `import()`, and esbuild inlines dynamic imports when splitting is off). Used by dev and build alike.
 */
async function bundleServiceWorker(production: boolean): Promise<string> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [WORKER_ENTRY],
    bundle: true,
    format: 'esm',
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
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    // transformers.js imports onnxruntime-web's WebGPU build; the plain wasm build (its factory bundled
    // in, no `import()` of a separate .mjs) is the one a service worker can run.
    alias: { 'onnxruntime-web/webgpu': 'onnxruntime-web/wasm' },
  });
  const [output] = result.outputFiles;
  if (!output || result.outputFiles.length !== 1) throw new Error(`expected one worker bundle, got ${result.outputFiles.length}`);
  return output.text;
}

/** Serves `/sw.js` in `vite` dev (rebuilt on each request) and emits `sw.js` into the build output. */
function serviceWorker(): Plugin {
  return {
    name: 'tessera:service-worker',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (req.url?.split('?')[0] !== WORKER_URL) return next();
        try {
          const code = await bundleServiceWorker(false);
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.setHeader('Service-Worker-Allowed', '/');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(code);
        } catch (error) {
          server.config.logger.error(`[tessera] service worker bundle failed: ${String(error)}`);
          res.statusCode = 500;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end(String(error));
        }
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: WORKER_URL.slice(1), source: await bundleServiceWorker(true) });
    },
  };
}

/**
 * Files that ship inside npm packages and the worker fetches at run time, served from the package
 * (dev) and copied into the build, so no copy of them lives in the repository.
 */
const PACKAGED_FILES: { from: string; to: string; only?: string[] }[] = [
  { from: 'node_modules/@vscode/vscode-languagedetection/model', to: '/models/vscode-languagedetection/' },
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
  },
  plugins: [serviceWorker(), packagedFiles()],
});
