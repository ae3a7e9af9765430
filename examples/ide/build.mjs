// Builds the IDE example into a folder: its page (src/main.ts) and its service worker (sw.ts), bundled by
// esbuild with `tessera/…` resolved through the package's own `exports` (a self-reference: the example sits
// inside the package), beside index.html and styles.css.
//
//   node examples/ide/build.mjs [out folder, default examples/ide/dist]
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds into `out`; resolves once every file is written. */
export async function buildIdeExample(out = join(here, 'dist'), options = {}) {
  mkdirSync(out, { recursive: true });
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
