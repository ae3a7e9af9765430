import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import type { ShellFiles } from './worker/browser/app-shell.ts';
import { bundleServiceWorker, EMBEDDED_SCRIPT, PACKAGED_FILES, packagedNames, repoRoot } from './scripts/worker-bundle.ts';

const appRoot = fileURLToPath(new URL('./app', import.meta.url));
const WORKER_URL = '/sw.js';
/** The embedded mode's Worker, beside the lazy scripts it loads. */
const EMBEDDED_URL = `/${EMBEDDED_SCRIPT}`;
const CONTENT_TYPES: Record<string, string> = { '.json': 'application/json', '.bin': 'application/octet-stream', '.wasm': 'application/wasm' };

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

/** Serves `/sw.js` and the embedded Worker in `vite` dev (rebuilt on each request) and emits them into the build output. */
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
        const lazyScript = path && lazy.get(path.slice(1));
        if (lazyScript) {
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.end(lazyScript);
          return;
        }
        if (path !== WORKER_URL && path !== EMBEDDED_URL) return next();
        try {
          const built = await bundleServiceWorker({ production: false });
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
        const built = await bundleServiceWorker({ production: true, shell: appShell(bundle, publicDir) });
        this.emitFile({ type: 'asset', fileName: WORKER_URL.slice(1), source: built.worker });
        this.emitFile({ type: 'asset', fileName: EMBEDDED_SCRIPT, source: built.embedded });
        for (const [path, source] of built.lazy) this.emitFile({ type: 'asset', fileName: path, source });
      },
    },
  };
}

function packagedFiles(): Plugin {
  return {
    name: 'tessera:packaged-files',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        const entry = PACKAGED_FILES.find((e) => path.startsWith(`/${e.to}`));
        const name = entry && path.slice(entry.to.length + 1);
        if (!entry || !name || !packagedNames(entry).includes(name)) return next();
        res.setHeader('Content-Type', CONTENT_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream');
        res.end(readFileSync(join(repoRoot, entry.from, name)));
      });
    },
    generateBundle() {
      for (const entry of PACKAGED_FILES) {
        for (const name of packagedNames(entry)) {
          this.emitFile({ type: 'asset', fileName: `${entry.to}${name}`, source: readFileSync(join(repoRoot, entry.from, name)) });
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
    rolldownOptions: {
      input: { index: `${appRoot}/index.html`, embedded: `${appRoot}/embedded.html` },
      // The grammars each language loads on demand, one chunk per family rather than one per language
      // (2-8 kB each): the worker keeps every shell file offline at install, which a first visit waits
      // for, and each file is a request (the shell went from 75 files to 37; docs/architecture.md).
      output: {
        codeSplitting: {
          groups: [
            { name: 'highlight-grammars', test: /node_modules[\\/]highlight\.js[\\/](?:lib|es)[\\/]languages[\\/]/ },
            { name: 'editor-modes', test: /node_modules[\\/]@codemirror[\\/]legacy-modes[\\/]/ },
          ],
        },
      },
    },
  },
  // The app's components are Preact TSX (app/ui).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [serviceWorker(), packagedFiles()],
});
