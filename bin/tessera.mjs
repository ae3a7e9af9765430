#!/usr/bin/env node
// `tessera serve …` (see worker/node/cli.ts). The Node host is TypeScript: it is bundled with esbuild
// (its npm packages left as imports) into node_modules/.cache/tessera/ at each start, which takes well
// under a second, so the command always runs the sources as they are.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// npm packs a package's command whatever `files` says; the package holds the browser modes only.
if (!existsSync(join(root, 'worker', 'node', 'cli.ts'))) {
  console.error(
    'tessera: the Node host runs from a clone of the Tessera repository (this npm package holds the browser modes only):\n' +
      '  git clone <the repository> tessera && cd tessera && npm ci && npx tessera serve',
  );
  process.exit(1);
}
const { build } = await import('esbuild');
const outfile = join(root, 'node_modules', '.cache', 'tessera', 'node', 'cli.mjs');

const result = await build({
  entryPoints: [join(root, 'worker', 'node', 'cli.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  write: false,
  outfile,
  logLevel: 'warning',
});
const code = result.outputFiles[0].contents;
let current;
try {
  current = readFileSync(outfile);
} catch {
  current = undefined;
}
// Several hosts may start at once: each writes its own file and renames it into place.
if (!current || !current.equals(code)) {
  mkdirSync(dirname(outfile), { recursive: true });
  const part = `${outfile}.${process.pid}.part`;
  writeFileSync(part, code);
  renameSync(part, outfile);
}
const { main } = await import(pathToFileURL(outfile).href);
try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(`tessera: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
