import { defineConfig } from 'vitest/config';

// Node-side tests only; the browser suites run under Playwright (playwright.config.ts).
export default defineConfig({
  test: {
    root: '.',
    include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts', 'test/node/**/*.test.ts'],
    environment: 'node',
    // Makes the initdb'd PGlite tarball once (cached under node_modules/.cache) before the files start.
    globalSetup: ['test/support/global-setup.ts'],
    // The first classify of a test file loads the language model (seconds on a loaded 2-core machine).
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
