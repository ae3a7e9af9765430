/**
 * Contract checks for end-to-end specs: every response a page receives through `window.recordingFetch`
 * (a `fetch` wrapper) is recorded, pulled to Node and run through `checkResponse()` from
 * test/support/responses.ts, the same table of contract schemas the Node route tests use.
 *
 * - `installRecordingFetch(page)`: defines `window.recordingFetch` and `window.__exchanges` in the page,
 *   now and after every navigation (an init script).
 * - `connectSdk(page)`: the official SDK's API classes on `window.apis`, all on one Configuration whose
 *   `fetchApi` is `recordingFetch`. Needs `window.PiecesSDK` (the `sdk` fixture); call it again after a
 *   navigation (re-inject the SDK first).
 * - `checkExchanges(page)`: takes the recorded exchanges out of the page and checks each one; throws on
 *   the first contract violation. Call it in an `afterEach`, and before anything that navigates (a
 *   reload drops what the page has not handed over).
 */
import type { Page } from '@playwright/test';
import { checkResponse, type Exchange } from '../support/responses.ts';

type SDK = typeof import('@pieces.app/pieces-os-client');

/** One request/response pair as the page saw it. */
export interface RecordedExchange extends Exchange {
  /** The query string, `?` included (empty when none). */
  query: string;
  /** The request body when it was a string of at most RECORDED_BODY_LIMIT characters. */
  requestBody?: string;
}

/** The official SDK's API classes, all sending through `recordingFetch`. */
export interface SdkApis {
  assets: InstanceType<SDK['AssetsApi']>;
  asset: InstanceType<SDK['AssetApi']>;
  tags: InstanceType<SDK['TagsApi']>;
  tag: InstanceType<SDK['TagApi']>;
  websites: InstanceType<SDK['WebsitesApi']>;
  summaries: InstanceType<SDK['WorkstreamSummariesApi']>;
  wellKnown: InstanceType<SDK['WellKnownApi']>;
  qgpt: InstanceType<SDK['QGPTApi']>;
}

declare global {
  interface Window {
    __exchanges: RecordedExchange[];
    recordingFetch: typeof fetch;
    apis: SdkApis;
  }
}

/** Runs in the page (so it must be self-contained). Idempotent. */
function defineRecordingFetch(base: string) {
  if (typeof window.recordingFetch === 'function') return;
  const RECORDED_BODY_LIMIT = 100_000;
  const realFetch = window.fetch.bind(window);
  window.__exchanges = [];
  window.recordingFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), location.href);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const requestBody = typeof init?.body === 'string' && init.body.length <= RECORDED_BODY_LIMIT ? init.body : undefined;
    const response = await realFetch(input, init);
    const body = await response.clone().text();
    const path = url.pathname === base || url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : url.pathname;
    window.__exchanges.push({
      method,
      path,
      query: url.search,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body,
      ...(requestBody === undefined ? {} : { requestBody }),
    });
    return response;
  };
}

const withInitScript = new WeakSet<Page>();

export async function installRecordingFetch(page: Page, base = '/api'): Promise<void> {
  if (!withInitScript.has(page)) {
    await page.addInitScript(defineRecordingFetch, base);
    withInitScript.add(page);
  }
  await page.evaluate(defineRecordingFetch, base);
}

/** Installs the recorder if needed and puts the SDK's API classes on `window.apis`. */
export async function connectSdk(page: Page, base = '/api'): Promise<void> {
  await installRecordingFetch(page, base);
  await page.evaluate((base) => {
    const { Configuration, AssetsApi, AssetApi, TagsApi, TagApi, WebsitesApi, WorkstreamSummariesApi, WellKnownApi, QGPTApi } = window.PiecesSDK;
    const config = new Configuration({ basePath: `${location.origin}${base}`, fetchApi: window.recordingFetch });
    window.apis = {
      assets: new AssetsApi(config),
      asset: new AssetApi(config),
      tags: new TagsApi(config),
      tag: new TagApi(config),
      websites: new WebsitesApi(config),
      summaries: new WorkstreamSummariesApi(config),
      wellKnown: new WellKnownApi(config),
      qgpt: new QGPTApi(config),
    };
  }, base);
}

/** Drains the page's recorded exchanges and checks each against the contract. Returns them. */
export async function checkExchanges(page: Page): Promise<RecordedExchange[]> {
  if (page.isClosed()) return [];
  const exchanges = await page.evaluate(() => {
    const taken = window.__exchanges ?? [];
    window.__exchanges = [];
    return taken;
  });
  const failures: string[] = [];
  for (const exchange of exchanges) {
    try {
      checkResponse(exchange);
    } catch (error) {
      failures.push(`${(error as Error).message}\n    request ${exchange.method} ${exchange.path}${exchange.query}` +
        (exchange.requestBody ? ` body ${exchange.requestBody.slice(0, 300)}` : '') +
        `\n    response body ${exchange.body.slice(0, 500)}`);
    }
  }
  if (failures.length) throw new Error(`${failures.length} of ${exchanges.length} responses break the contract:\n  ${failures.join('\n  ')}`);
  return exchanges;
}

/**
 * For a spec file whose tests all drive the SDK on one page: before each test, the fixtures' `appPage`
 * with the SDK injected and connected is handed to `use`; after each, every recorded response is
 * checked against the contract.
 */
export function useSdkPage(test: typeof import('./fixtures.ts').test, use: (page: Page) => void): void {
  test.beforeEach(async ({ appPage, sdk }) => {
    if (!sdk.source) throw new Error('the SDK bundle is empty');
    await connectSdk(appPage);
    use(appPage);
  });
  test.afterEach(async ({ page }) => {
    await checkExchanges(page);
  });
}
