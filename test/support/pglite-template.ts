/** The initdb'd PGlite data folder the tests start from (no vitest import: global-setup.ts uses it). */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PGLITE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
const TEMPLATE = join(ROOT, 'node_modules', '.cache', 'tessera', `pglite-${PGLITE_VERSION}.tar`);

/** An initdb'd, empty PGlite data folder as a tarball, made once and kept. */
export async function pgliteTemplate(): Promise<Blob> {
  if (!existsSync(TEMPLATE)) {
    const db = await PGlite.create();
    const dump = await db.dumpDataDir('none');
    await db.close();
    await mkdir(dirname(TEMPLATE), { recursive: true });
    const part = `${TEMPLATE}.${process.pid}.part`;
    await writeFile(part, new Uint8Array(await dump.arrayBuffer()));
    await rename(part, TEMPLATE);
  }
  return new Blob([await readFile(TEMPLATE)]);
}

