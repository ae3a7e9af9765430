/**
 * One build of the npm package (pkg/) at a time across test workers: `npm pack` (its prepack rebuilds
 * pkg/) in test/e2e/package.spec.ts and the IDE example's build (examples/ide/build.mjs) each delete and
 * rewrite pkg/, then read it; two at once would read a half-written folder. Each holds this lock (a
 * directory, whose creation is atomic) from its build until it has read what it needs.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOCK = fileURLToPath(new URL('../../node_modules/.cache/tessera/package.lock', import.meta.url));
/** A lock older than this was left by a killed run. */
const STALE_MS = 10 * 60_000;

export async function withPackageLock<T>(run: () => Promise<T>): Promise<T> {
  await mkdir(dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(LOCK).then((info) => Date.now() - info.mtimeMs, () => 0);
      if (since > STALE_MS) await rm(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await run();
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}
