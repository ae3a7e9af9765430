/**
 * Runs before each test file (vitest.config.ts `setupFiles`): what the support modules opened for the
 * file is closed after it. A vitest worker runs many files one after another without importing the
 * modules again (`isolate: false`), so a module's own top-level hook would run for its first file only.
 */
import { afterAll } from 'vitest';
import { closeFileDatabases } from './pg.ts';
import { closeFileHosts } from './test-api.ts';

afterAll(async () => {
  await closeFileHosts();
  await closeFileDatabases();
});
