import { pgliteTemplate } from './pglite-template.ts';

/** Once per vitest run, before the test files: the PGlite template every file starts from (pglite-template.ts). */
export default async function setup(): Promise<void> {
  await pgliteTemplate();
}
