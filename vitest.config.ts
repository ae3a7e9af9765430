import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Node-side tests only; the browser suites run under Playwright (playwright.config.ts).
export default defineConfig({
  test: {
    root: '.',
    include: ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts', 'test/node/**/*.test.ts'],
    environment: 'node',
    // Makes the initdb'd PGlite tarball once (cached under node_modules/.cache) before the files start.
    globalSetup: ['test/support/global-setup.ts'],
    // Before each file: what the support modules open for a file is closed after it (per-file.ts).
    setupFiles: ['test/support/per-file.ts'],
    // The first test of a file loads the language model and opens PGlite: seconds alone, and over 20 s on
    // a 2-core machine shared with other runs (both timed out there).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: on the 2-core CI machine, one file at a time,
    // and much of a file's time is waiting (child processes, PostgreSQL, PGlite, timers). Two files at a
    // time took the four passes of `npm test` from 618 s to 408 s in a clean-clone CI run there.
    maxWorkers: Math.max(2, availableParallelism()),
    // Each worker imports the modules once for all its files, not once a file: the core's module graph
    // took 0.7-2 s to import per file, about half of every pass (the fake-indexeddb pass of test/unit:
    // 61 s -> 24 s, PGlite over HTTP 135-144 s -> 49 s). Test files keep no state between them: every
    // store a test opens is new (IndexedDB names are random), and what a file opened is closed after it
    // (its own hooks, and per-file.ts for what the support modules open).
    isolate: false,
  },
});
