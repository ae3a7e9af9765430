/**
 * The client's `base` reaches the worker (review M14): a page registering with `register({base:
 * '/tessera'})` gets the API under /tessera/ from the worker, and requests under /api/ go past the worker
 * to the server (its plain-text 404), not into the API; aliases are answered as the base.
 *
 * The pages open `/?ui=off&register=manual`, where the app leaves registering to the page's scripts.
 */
import type { Page } from '@playwright/test';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { expect, test } from './fixtures.ts';

type Register = (options: { base?: string; aliases?: string[] }) => Promise<void>;

async function registerWith(page: Page, options: { base: string; aliases?: string[] }): Promise<void> {
  await page.goto('/?ui=off&register=manual');
  await page.evaluate(async (options) => {
    await (window.tessera.register as Register)(options);
    await window.tessera.ready();
  }, options);
}

/** GET (or POST with a JSON body) from the page: status, content type and body text. */
function request(page: Page, path: string, body?: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const init: RequestInit = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
      const response = await fetch(path, { cache: 'no-store', ...init });
      return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
    },
    { path, body },
  );
}

test("register({base: '/tessera'}): the worker answers under /tessera/; /api/ reaches the server's 404", async ({ page }) => {
  await registerWith(page, { base: '/tessera' });
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js\?base=%2Ftessera$/);

  const health = await request(page, '/tessera/.well-known/health');
  expect(health.status).toBe(200);
  expect(health.text).toMatch(/^ok/);
  const created = await request(page, '/tessera/assets/create?transferables=false', fragmentSeed(PYTHON_SNIPPET, { name: 'under tessera' }));
  expect(created.status).toBe(200);
  const listed = await request(page, '/tessera/assets?transferables=false');
  expect(JSON.parse(listed.text).iterable.map((a: { name: string }) => a.name)).toEqual(['under tessera']);
  // An unknown route under the base is the worker's JSON 404.
  const unknown = await request(page, '/tessera/no-such-route');
  expect([unknown.status, JSON.parse(unknown.text).error.code]).toEqual([404, 'route_not_found']);

  // Under /api/ the worker does not answer: the server's plain-text 404 (scripts/serve.mjs).
  for (const path of ['/api/assets', '/api/.well-known/health']) {
    const passed = await request(page, path);
    expect(passed, path).toEqual({ status: 404, type: expect.stringContaining('text/plain'), text: 'not found\n' });
  }

  // The page's sockets follow the base too.
  const frame = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const socket = new WebSocket(`ws://${location.host}/tessera/.well-known/stream/health`);
        socket.onmessage = (event) => resolve(event.data as string);
        socket.onerror = () => reject(new Error('socket failed'));
      }),
  );
  expect(frame).toMatch(/^ok/);
});

test('aliases are answered as the base; other paths still pass to the server', async ({ page }) => {
  await registerWith(page, { base: '/tessera', aliases: ['/api'] });
  const created = await request(page, '/api/assets/create?transferables=false', fragmentSeed(PYTHON_SNIPPET, { name: 'through the alias' }));
  expect(created.status).toBe(200);
  const viaBase = await request(page, '/tessera/assets?transferables=false');
  const viaAlias = await request(page, '/api/assets?transferables=false');
  expect(viaAlias).toEqual(viaBase);
  expect(JSON.parse(viaBase.text).iterable.map((a: { name: string }) => a.name)).toEqual(['through the alias']);
  expect(JSON.parse((await request(page, '/api/nope')).text).error.code).toBe('route_not_found');
  expect(await request(page, '/elsewhere/assets')).toEqual({ status: 404, type: expect.stringContaining('text/plain'), text: 'not found\n' });
});
