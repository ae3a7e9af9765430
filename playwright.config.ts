import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, TEST_CHROMIUM } from './test/support/chromium.ts';

// The e2e tests run against an already-built dist/ (`npm test` runs `vite build` first), served by
// scripts/serve.mjs on a fixed port of their own, so `npm start` on 4173 can run beside them.
const port = Number(process.env.TESSERA_E2E_PORT || 4174);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'test/e2e',
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  // Only a test whose browser process crashed under it runs again (fixtures.ts `retryOnlyIfBrowserGone`).
  retries: 1,
  timeout: 30_000,
  reporter: 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    // Playwright's own browser download does not work here: Debian's Chromium (its headless shell).
    launchOptions: {
      executablePath: TEST_CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
    // The app's page has a strict CSP (no inline script); tests that inject the SDK bundle into it need
    // this. The app specs turn it off again, so the policy is enforced there (app.spec.ts).
    bypassCSP: true,
  },
  webServer: {
    command: 'node scripts/serve.mjs',
    env: { PORT: String(port) },
    url: `${baseURL}/`,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore',
    stderr: 'pipe',
    timeout: 15_000,
  },
});
