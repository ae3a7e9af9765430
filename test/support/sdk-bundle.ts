/**
 * The official SDK (`@pieces.app/pieces-os-client`) as one browser script, for pages in Chromium: the
 * e2e fixtures (test/e2e/fixtures.ts) and the bench (test/bench/sdk-creates.ts) inject it.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build, version as esbuildVersion } from 'esbuild';

const SDK = '@pieces.app/pieces-os-client';

let sdkSource: Promise<string> | undefined;

/**
 * The SDK as one IIFE defining `window.PiecesSDK`. Built once per test run: kept in memory per worker
 * process and in a file under node_modules/.cache keyed by the SDK's and esbuild's versions.
 */
export function sdkBundle(): Promise<string> {
  return (sdkSource ??= loadSdkBundle());
}

async function loadSdkBundle(): Promise<string> {
  const require = createRequire(import.meta.url);
  const { version } = require(`${SDK}/package.json`) as { version: string };
  // The folder holding node_modules, found from the package (this file is also bundled into .bench/).
  const repoRoot = require.resolve(`${SDK}/package.json`).split('/node_modules/')[0]! + '/';
  const dir = `${repoRoot}node_modules/.cache/tessera`;
  const file = `${dir}/pieces-os-client-${version}-esbuild-${esbuildVersion}.iife.js`;
  const cached = await readFile(file, 'utf8').catch(() => undefined);
  if (cached) return cached;
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [SDK],
    bundle: true,
    format: 'iife',
    globalName: 'PiecesSDK',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const source = result.outputFiles[0]!.text;
  await mkdir(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, source);
  await rename(partial, file); // atomic: two workers building at once both write a whole file
  return source;
}
