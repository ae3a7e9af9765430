import { expect, hardReload, serviceWorkerStatuses, test } from './fixtures.ts';

/** What a page sees for a GET: status, content type and body text. */
async function get(page: import('@playwright/test').Page, path: string) {
  return page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
  }, path);
}

const controlled = (page: import('@playwright/test').Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

test('the first visit is controlled and the worker answers health', async ({ appPage }) => {
  expect(await controlled(appPage)).toBe(true);
  const health = await get(appPage, '/api/.well-known/health');
  expect(health.status).toBe(200);
  expect(health.body.startsWith('ok')).toBe(true);
});

test('an unknown route under the base is a JSON 404 from the worker', async ({ appPage }) => {
  const nope = await get(appPage, '/api/nope');
  expect(nope.status).toBe(404);
  expect(nope.type).toContain('application/json');
  expect(JSON.parse(nope.body)).toMatchObject({ error: { status: 404 } });
});

test('the echo route answers {} without the app, to a GET and to a POST with a body', async ({ appPage }) => {
  const echo = await get(appPage, '/api/__echo');
  expect(echo.status).toBe(200);
  expect(echo.type).toContain('application/json');
  expect(JSON.parse(echo.body)).toEqual({});
  const posted = await appPage.evaluate(async () => {
    const response = await fetch('/api/__echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 'y'.repeat(5000) }) });
    return { status: response.status, body: await response.text() };
  });
  expect(posted).toEqual({ status: 200, body: '{}' });
  // Not an API route: the app's 404 for other methods.
  expect(await appPage.evaluate(async () => (await fetch('/api/__echo', { method: 'PUT', body: 'x' })).status)).toBe(404);
});

test('requests outside the base pass through to the network', async ({ appPage }) => {
  const manifest = await get(appPage, '/manifest.webmanifest');
  expect(manifest.status).toBe(200);
  expect(JSON.parse(manifest.body)).toMatchObject({ name: 'Tessera', start_url: '/' });
  // served by scripts/serve.mjs: its 404 is plain text, not the worker's JSON
  const missing = await get(appPage, '/apix');
  expect(missing.status).toBe(404);
  expect(missing.type).toContain('text/plain');
});

test('a reload stays controlled', async ({ appPage }) => {
  await appPage.reload();
  expect(await controlled(appPage)).toBe(true);
  await appPage.evaluate(() => window.tessera.ready());
  expect((await get(appPage, '/api/.well-known/health')).body.startsWith('ok')).toBe(true);
});

test('a hard reload leaves the page uncontrolled until ready() has the worker claim it', async ({ appPage }) => {
  // Record the state before the page's own script runs (it calls register() and ready() at once).
  await appPage.addInitScript(() => {
    const w = window as unknown as { initial: object };
    w.initial = {
      controlled: navigator.serviceWorker.controller !== null,
      health: fetch('/api/.well-known/health').then((r) => r.status),
    };
  });
  await hardReload(appPage);
  const initial = await appPage.evaluate(async () => {
    const { controlled, health } = (window as unknown as { initial: { controlled: boolean; health: Promise<number> } }).initial;
    const registration = await navigator.serviceWorker.getRegistration();
    return { controlled, health: await health, active: registration?.active?.state ?? null };
  });
  // uncontrolled with an active worker: a request under the base went to the network (serve.mjs: 404)
  expect(initial).toEqual({ controlled: false, health: 404, active: 'activated' });

  await appPage.evaluate(() => window.tessera.ready());
  expect(await controlled(appPage)).toBe(true);
  expect((await get(appPage, '/api/.well-known/health')).body.startsWith('ok')).toBe(true);
  expect((await get(appPage, '/api/nope')).status).toBe(404);
  expect((await get(appPage, '/api/nope')).type).toContain('application/json');
});

test('a stopped worker restarts on the next request', async ({ appPage, stopServiceWorkers }) => {
  await stopServiceWorkers(appPage);
  expect(await serviceWorkerStatuses(appPage)).toEqual(['stopped']);
  expect(await controlled(appPage)).toBe(true);
  const health = await get(appPage, '/api/.well-known/health');
  expect(health.body.startsWith('ok')).toBe(true);
  expect(await serviceWorkerStatuses(appPage)).toEqual(['running']);
  expect((await get(appPage, '/api/__echo')).body).toBe('{}');
});

test('the official SDK reaches the worker', async ({ appPage, sdk }) => {
  expect(sdk.source.length).toBeGreaterThan(1000);
  const health = await appPage.evaluate(async () => {
    const { Configuration, WellKnownApi } = window.PiecesSDK;
    const api = new WellKnownApi(new Configuration({ basePath: `${location.origin}/api` }));
    return api.getWellKnownHealth();
  });
  expect(health.startsWith('ok')).toBe(true);
});
