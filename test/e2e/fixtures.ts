/**
 * Playwright fixtures for pages served by the Tessera service worker.
 *
 * - `appPage`: a page at `/` that has awaited the client's `ready()` (the app exposes the client as
 *   `window.tessera`).
 * - `sdk`: injects a browser bundle of the official SDK into `appPage` as `window.PiecesSDK`; the
 *   fixture's `inject(page)` adds it to another page or again after a navigation.
 * - `stopServiceWorkers(page)`: stops every service worker through CDP (Chromium never stops an idle
 *   worker while Playwright is attached); the next request under the base restarts it.
 * - `hardReload(page)`: Shift+Reload, which leaves the page uncontrolled though the worker is active.
 * - Containment, for every test (an automatic fixture): each request of the test's context, the service
 *   worker's included, goes to the test server's origin, or to an endpoint the test configured and named
 *   with `allowEndpoint(url)`; the test fails otherwise, naming the requests that left.
 * - A retry, for every test (an automatic fixture): it runs only when Chromium's browser process went away
 *   under the attempt before (`retryOnlyIfBrowserGone`).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test as base, expect, type CDPSession, type Page, type TestInfo } from '@playwright/test';
import { chatServersPerTest, type startChatServer } from '../support/chat-server.ts';
import { sdkBundle } from '../support/sdk-bundle.ts';

export { sdkBundle };

declare global {
  interface Window {
    tessera: {
      register(options?: { base?: string; scriptUrl?: string }): Promise<void>;
      ready(): Promise<void>;
    };
    PiecesSDK: typeof import('@pieces.app/pieces-os-client');
  }
}

async function withCdp<T>(page: Page, run: (cdp: CDPSession) => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    return await run(cdp);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** The running status (`stopped`, `starting`, `running`, `stopping`) of every worker version known. */
export function serviceWorkerStatuses(page: Page): Promise<string[]> {
  return withCdp(page, async (cdp) => {
    const statuses = new Map<string, string>();
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) statuses.set(v.versionId, v.runningStatus);
    });
    await cdp.send('ServiceWorker.enable');
    // enable() reports the known versions as events; let them arrive.
    await expect.poll(() => statuses.size, { timeout: 5_000 }).toBeGreaterThan(0);
    return [...statuses.values()];
  });
}

/** Stops all service workers (CDP `ServiceWorker.stopAllWorkers`) and waits until they report stopped. */
export function stopServiceWorkers(page: Page): Promise<void> {
  return withCdp(page, async (cdp) => {
    const statuses = new Map<string, string>();
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) statuses.set(v.versionId, v.runningStatus);
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await expect
      .poll(() => statuses.size > 0 && [...statuses.values()].every((s) => s === 'stopped'), {
        message: 'service workers did not stop',
        // A worker busy (say, precaching at install) on a loaded 2-core machine can take seconds to stop.
        timeout: 15_000,
      })
      .toBe(true);
  });
}

/**
 * Shift+Reload: CDP `Page.reload` with `ignoreCache`. Chromium sends such a navigation past the service
 * worker, so the reloaded page is uncontrolled while the worker stays active. (`page.reload()` is a
 * normal reload and stays controlled.)
 */
export function hardReload(page: Page): Promise<void> {
  return withCdp(page, async (cdp) => {
    await Promise.all([page.waitForEvent('load'), cdp.send('Page.reload', { ignoreCache: true })]);
  });
}

/**
 * The app's page with the client alone (`window.tessera`), no UI: the page tests of the worker and the API
 * use, quiet between their requests (the live UI fetches after every change, which would restart a worker
 * a test has just stopped). app.spec.ts tests the UI.
 */
export const CLIENT_PAGE = '/?ui=off';

/** Origins the running test configured as endpoints (a chat stand-in); cleared after each test. */
const allowedOrigins = new Set<string>();

/** Lets the running test's requests reach `url`'s origin (an endpoint the test itself configured). */
export function allowEndpoint(url: string): void {
  allowedOrigins.add(new URL(url).origin);
}

/** Schemes that never reach a network. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:', 'chrome:', 'chrome-extension:', 'devtools:']);

interface Fixtures {
  /** The client page ({@link CLIENT_PAGE}) that has awaited `window.tessera.ready()`. */
  appPage: Page;
  /** Requesting it injects the SDK into `appPage`; `inject` adds it to another page or after a navigation. */
  sdk: { source: string; inject(page: Page): Promise<void> };
  stopServiceWorkers: (page: Page) => Promise<void>;
  /** Automatic: fails the test when one of its context's requests left the origin (see the header). */
  containment: void;
  /**
   * Automatic: a test whose browser process went away under it may run once more, and no other failed
   * test does (docs/developing.md, "Stopping the worker").
   */
  retryOnlyIfBrowserGone: void;
}

/**
 * Where attempt `retry` of a test notes that the browser process went away under it: the next attempt (a
 * new worker process) reads it there, and deletes it, so a later attempt or run never reads it again.
 */
const browserGoneMarker = (testInfo: TestInfo, retry: number) =>
  join(testInfo.project.outputDir, '.browser-gone', `${testInfo.testId}.${retry}`);

export const test = base.extend<Fixtures>({
  /*
   * Chromium's browser process crashes now and then when a worker is stopped through CDP under load
   * (docs/developing.md, "Stopping the worker"). The config gives each test one retry; this fixture lets
   * it run only when the attempt before ended with the browser gone, so a failed assertion still fails the
   * run. Declared first: set up before the page's context and torn down after it, so a browser that
   * goes away while the context closes is seen too. A test expected to fail (`test.fail()`) is retried
   * only when it passed, and must fail again for the run to pass, so it is let run.
   */
  retryOnlyIfBrowserGone: [
    async ({ browser }, use, testInfo) => {
      // One left by an earlier run (UI mode keeps the output folder) must not let this attempt's retry run.
      rmSync(browserGoneMarker(testInfo, testInfo.retry), { force: true });
      if (testInfo.retry > 0) {
        const before = browserGoneMarker(testInfo, testInfo.retry - 1);
        const browserWentAway = existsSync(before);
        rmSync(before, { force: true });
        if (!browserWentAway && testInfo.expectedStatus === 'passed') {
          throw new Error('not retried: the attempt before failed with the browser still running (only a crashed browser process is retried)');
        }
      }
      await use();
      if (!browser.isConnected()) {
        const marker = browserGoneMarker(testInfo, testInfo.retry);
        mkdirSync(dirname(marker), { recursive: true });
        writeFileSync(marker, '');
        console.error(`the browser process went away during "${testInfo.title}" (attempt ${testInfo.retry + 1}); DEBUG=pw:browser shows its exit code`);
        testInfo.annotations.push({ type: 'browser gone', description: `attempt ${testInfo.retry + 1}` });
      }
    },
    { auto: true },
  ],
  appPage: async ({ page }, use) => {
    await page.goto(CLIENT_PAGE);
    await page.evaluate(() => window.tessera.ready());
    await use(page);
  },
  sdk: async ({ appPage }, use) => {
    const source = await sdkBundle();
    const inject = async (page: Page) => {
      await page.addScriptTag({ content: source });
    };
    await inject(appPage);
    await use({ source, inject });
  },
  // eslint-disable-next-line no-empty-pattern
  stopServiceWorkers: async ({}, use) => {
    await use(stopServiceWorkers);
  },
  containment: [
    async ({ context, baseURL }, use) => {
      const origin = new URL(baseURL!).origin;
      const left: string[] = [];
      const onRequest = (request: import('@playwright/test').Request) => {
        const url = new URL(request.url());
        if (LOCAL_SCHEMES.has(url.protocol) || url.origin === origin || allowedOrigins.has(url.origin)) return;
        left.push(`${request.method()} ${request.url()}${request.serviceWorker() ? ' (from the service worker)' : ''}`);
      };
      context.on('request', onRequest);
      try {
        await use();
      } finally {
        context.off('request', onRequest);
        allowedOrigins.clear();
      }
      expect(left, `requests that left ${origin}`).toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Chat stand-ins a test configures as its endpoint: started on demand, closed after the test, and the
 * one origin besides the app's that the test's requests may reach (see `containment`).
 */
export function allowedChatServers(): typeof startChatServer {
  const start = chatServersPerTest((hook) => test.afterEach(hook));
  return async (options) => {
    const server = await start(options);
    allowEndpoint(server.url);
    return server;
  };
}

export { expect };
