// Builds the IDE example into a folder, as a host project that installed the `tessera` package would:
// first the package itself (`npm run package`: pkg/, what the tarball holds), then type-checks the
// example against the package's declarations (tsconfig.json, tsconfig.sw.json; a type error fails the
// build), then bundles the example's page (src/main.ts) and its service worker (sw.ts) with esbuild,
// `tessera/…` resolved through the package's `exports` (a self-reference: the example sits inside the
// package; tsc resolves it the same way), beside index.html,
// styles.css and the package's assets (`tessera-assets/`, the worker's `assetsUrl`).
//
//   node examples/ide/build.mjs [out folder, default examples/ide/dist]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds into `out`; resolves once every file is written. */
export async function buildIdeExample(out = join(here, 'dist'), options = {}) {
  const root = join(here, '../..');
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const config of ['tsconfig.json', 'tsconfig.sw.json']) {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, config)], { cwd: here, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  mkdirSync(out, { recursive: true });
  // The package's assets folder, found the way a host finds it: through the package's exports.
  const assets = dirname(createRequire(import.meta.url).resolve('tessera/assets/tessera-embedded.js'));
  cpSync(assets, join(out, 'tessera-assets'), { recursive: true });
  const common = { bundle: true, platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning', absWorkingDir: here, ...options };
  const page = await build({ ...common, entryPoints: [join(here, 'src/main.ts')], format: 'esm', outfile: join(out, 'main.js'), metafile: true });
  for (const file of ['index.html', 'styles.css']) copyFileSync(join(here, file), join(out, file));
  const hash = createHash('sha256').update(JSON.stringify(page.metafile.outputs));
  for (const file of ['index.html', 'styles.css']) hash.update(file);
  await build({
    ...common,
    entryPoints: [join(here, 'sw.ts')],
    // A classic script: Tessera's worker code loads no module after install.
    format: 'iife',
    outfile: join(out, 'sw.js'),
    define: { ...common.define, IDE_CACHE: JSON.stringify(`tessera-ide-${hash.digest('hex').slice(0, 10)}`) },
  });
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildIdeExample(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`IDE example built into ${out}`);
}
