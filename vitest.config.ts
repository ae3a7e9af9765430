import { defineConfig } from 'vitest/config';

// Node-side tests only; the browser suites run under Playwright (playwright.config.ts).
export default defineConfig({
  test: {
    root: '.',
    include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'],
    environment: 'node',
  },
});
