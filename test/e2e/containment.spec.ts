/**
 * Containment (issue 13, "What to prove" 6). The service worker answers only under its base, `/api`:
 * any other request of the origin passes to the network untouched (scripts/serve.mjs answers it exactly
 * as it answers a request that never met the worker), and during a whole journey through the app (open,
 * create, search, open, edit) no request, the worker's own included, leaves the origin. (The automatic
 * `containment` fixture of fixtures.ts asserts the latter for every e2e test; here it is shown to see the
 * worker's requests too.)
 */
import type { Page, Response } from '@playwright/test';
import { openApp } from './app-support.ts';
import { CLIENT_PAGE, expect, test } from './fixtures.ts';

/** Paths outside the base, some made to look like it. */
const OUTSIDE = ['/nope.txt', '/apix', '/api-docs/assets', '/API/assets', '/%61pi/assets', '/x/api/assets', '/icon.svg', '/manifest.webmanifest'];

interface Seen {
  status: number;
  type: string | null;
  body: string;
}

/** Sends `method path` from the page (its fetch goes through the worker) and what came back, with whether the worker answered it. */
async function fromPage(page: Page, method: string, path: string): Promise<Seen & { fromWorker: boolean }> {
  const url = new URL(path, page.url()).href;
  const [response, seen] = await Promise.all([
    page.waitForResponse((r: Response) => r.url() === url && r.request().method() === method),
    page.evaluate(
      async ({ method, path }) => {
        const response = await fetch(path, { method, cache: 'no-store' });
        return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
      },
      { method, path },
    ),
  ]);
  return { ...seen, fromWorker: response.fromServiceWorker() };
}

test('the worker answers under /api only: every other path of the origin gets what the server answers, untouched', async ({ page, request }) => {
  await page.goto(CLIENT_PAGE);
  await page.evaluate(() => window.tessera.ready());

  for (const path of ['/api', '/api/', '/api/nope', '/api/assets/../nope']) {
    const seen = await fromPage(page, 'GET', path);
    expect(seen.fromWorker, path).toBe(true);
    expect(seen.status, path).toBe(404);
    expect(JSON.parse(seen.body).error.code, path).toBe('route_not_found');
  }

  for (const [method, path] of [...OUTSIDE.map((p) => ['GET', p] as const), ['POST', '/upload'] as const, ['DELETE', '/api-docs/assets'] as const]) {
    const seen = await fromPage(page, method, path);
    // What the server itself answers, asked directly (not through the browser, so no worker).
    const direct = await request.fetch(path, { method, failOnStatusCode: false });
    expect({ status: seen.status, type: seen.type, body: seen.body }, `${method} ${path}`).toEqual({ status: direct.status(), type: direct.headers()['content-type'] ?? null, body: await direct.text() });
    // Shell files (the icon, the manifest) are answered from the worker's copy of the server's answer, cached at install.
    if (!['/icon.svg', '/manifest.webmanifest'].includes(path)) expect(seen.fromWorker, `${method} ${path}`).toBe(false);
    if (seen.status === 404) expect(seen.body, `${method} ${path}`).toBe('not found\n');
  }
});

test('a journey through the app (open, create, search, open, edit) sends no request off the origin, the worker\'s included', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const requests: { url: string; fromWorker: boolean }[] = [];
  context.on('request', (r) => requests.push({ url: r.url(), fromWorker: r.serviceWorker() !== null }));

  await openApp(page);
  await page.getByRole('button', { name: /^New/ }).click();
  await page.getByRole('textbox', { name: 'Content' }).fill('def deploy(env):\n    return f"deploying to {env}"\n');
  await page.getByRole('textbox', { name: 'Name' }).fill('Deploy helper');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Deploy helper', level: 2 })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('deploying');
  const library = page.getByRole('list', { name: 'Library' });
  await expect(library.getByRole('button', { name: 'Deploy helper' })).toBeVisible();
  await library.getByRole('button', { name: 'Deploy helper' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Deploy helper, edited');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Deploy helper, edited', level: 2 })).toBeVisible();

  const network = requests.filter((r) => /^(https?|wss?):/.test(r.url));
  expect(network.length).toBeGreaterThan(5);
  // The log sees the worker's own requests (its install fetches the shell and lazy files).
  expect(network.some((r) => r.fromWorker)).toBe(true);
  expect(network.filter((r) => new URL(r.url).origin !== origin)).toEqual([]);
});

test.describe('the containment fixture', () => {
  // Expected to fail: the automatic fixture must catch a request that leaves the origin, the worker's too.
  test.fail();
  test('catches a request the worker sends off the origin (an endpoint the test did not allow)', async ({ page }) => {
    await page.goto(CLIENT_PAGE);
    await page.evaluate(() => window.tessera.ready());
    const answer = await page.evaluate(async () => {
      await fetch('/api/qgpt/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/v1', model: 'm' }) });
      return (await fetch('/api/qgpt/settings/test', { method: 'POST' })).json();
    });
    expect(answer.ok).toBe(false);
  });
});
