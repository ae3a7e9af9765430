/**
 * Builds the npm package into pkg/ (`npm run package`; `npm pack` runs it as `prepack`):
 *
 * - `pkg/worker.js`: `tessera/worker` (worker/browser/install.ts), one ES module with every dependency
 *   bundled in, for a host's service worker bundler, classic or module (no top-level await, no `import()`);
 * - `pkg/client.js`: `tessera/client` (app/client/index.ts), the same for the page;
 * - `pkg/embedded.js`: `tessera/embedded` (app/client/embedded.ts) when that file exists;
 * - `pkg/assets/`: what the host serves at `assetsUrl`: the worker's lazy scripts, the language model's
 *   files and onnxruntime-web's wasm (scripts/worker-bundle.ts); and `sw.js`, Tessera's own worker (a
 *   classic script, without the app's shell) for a host that has none: its assets are its folder; and
 *   `tessera-embedded.js`, the embedded mode's Worker, which likewise finds them beside itself;
 * - `pkg/types/`: one self-contained declaration file per entry, `worker.d.ts`, `client.d.ts` and
 *   `embedded.d.ts` (./package-types.ts).
 *
 * Everything the modules need is inside them, so the package has no runtime dependencies and installs
 * offline.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { writeDeclarations } from './package-types.ts';
import { bundleServiceWorker, EMBEDDED_SCRIPT, PACKAGED_FILES, packagedNames, repoRoot } from './worker-bundle.ts';

const out = join(repoRoot, 'pkg');

/** Page-side entries: export name -> source. */
const PAGE_ENTRIES: Record<string, string> = { client: 'app/client/index.ts', embedded: 'app/client/embedded.ts' };

function write(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

rmSync(out, { recursive: true, force: true });

const worker = await bundleServiceWorker({ production: true, entry: 'worker/browser/install.ts', format: 'esm' });
write(join(out, 'worker.js'), worker.worker);
write(join(out, 'assets', EMBEDDED_SCRIPT), worker.embedded);
for (const [path, text] of worker.lazy) write(join(out, 'assets', path), text);
// Same sources, same lazy scripts: only the worker itself is kept.
write(join(out, 'assets', 'sw.js'), (await bundleServiceWorker({ production: true })).worker);
for (const entry of PACKAGED_FILES) {
  for (const name of packagedNames(entry)) {
    mkdirSync(join(out, 'assets', entry.to), { recursive: true });
    copyFileSync(join(repoRoot, entry.from, name), join(out, 'assets', entry.to, name));
  }
}

const pageEntries = Object.entries(PAGE_ENTRIES).filter(([, source]) => existsSync(join(repoRoot, source)));
for (const [name, source] of pageEntries) {
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [source],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    outfile: join(out, `${name}.js`),
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}

await writeDeclarations(
  [
    { name: 'worker', source: 'worker/browser/install.ts', lib: ['ES2022', 'WebWorker'] },
    ...pageEntries.map(([name, source]) => ({ name, source, lib: ['ES2022', 'DOM', 'DOM.Iterable'] })),
  ],
  join(out, 'types'),
);

console.log(`tessera package: pkg/ (${['worker', ...pageEntries.map(([name]) => name)].join(', ')}, assets, types)`);
