/** The repository and a build of it served for a bench run: one way for run.ts and the sections run alone. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.ts';

/** The repository root: the nearest folder above this file (or its bundle) with Tessera's package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scripts', 'serve.mjs'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('bench: repository root not found');
    dir = up;
  }
}

/** The value after `name` on the command line (`--sizes 10000`), or undefined. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The build a bench serves: `--dist <folder>`, else TESSERA_DIST, else dist/ (relative to `root`). */
export function distFolder(root: string): string {
  return resolve(root, argValue('--dist') || process.env.TESSERA_DIST || 'dist');
}

/** Serves the build folder `dist` with scripts/serve.mjs on `port`; resolves once it listens (10 s at most). */
export function serveBuild(root: string, dist: string, port: number): Promise<ChildProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'serve.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), TESSERA_DIST: dist },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => fail(new Error(`serve.mjs did not start in 10 s: ${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Tessera at')) {
        clearTimeout(timer);
        resolvePromise(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => fail(new Error(`serve.mjs exited (${code}): ${output.trim()}`)));
    child.once('error', fail);
  });
}

/** A loopback port free at the moment of asking, for a section run alone. */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePromise(port));
    });
  });
}

/**
 * A section run on its own: serves the build (`distFolder`) on `port`, launches Chromium, runs `section`
 * with the browser and the origin, and stops both however it ends. The process's exit code: 0.
 */
export async function runSectionAlone(port: number, section: (browser: Browser, origin: string, dist: string) => Promise<void>): Promise<number> {
  const root = repoRoot();
  const dist = distFolder(root);
  const server = await serveBuild(root, dist, port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    await section(browser, `http://localhost:${port}`, dist);
    return 0;
  } finally {
    await browser.close();
    server.kill();
  }
}
