/**
 * The offline app shell (worker/browser/app-shell.ts): install keeps the page, its script, the manifest
 * and the icon in `tessera-shell-<hash>`, so after the first visit the app loads and answers offline,
 * also from a stopped worker; activation drops other builds' shell caches.
 */
import { fragmentSeed } from '../support/seeds.ts';
import { expect, test } from './fixtures.ts';

const shellCaches = () =>
  (async () => {
    const out: { cache: string; paths: string[] }[] = [];
    for (const cache of await caches.keys()) {
      if (!cache.startsWith('tessera-shell-')) continue;
      const keys = await (await caches.open(cache)).keys();
      out.push({ cache, paths: keys.map((r) => new URL(r.url).pathname).sort() });
    }
    return out;
  })();

/** Creates an asset from the seed (JSON) through the API; its id. */
const createAsset = (seed: string) =>
  (async () => {
    const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: seed });
    if (!response.ok) throw new Error(`create answered ${response.status}`);
    return ((await response.json()) as { id: string }).id;
  })();

const listIds = () =>
  (async () => {
    const response = await fetch('/api/assets/identifiers');
    const body = (await response.json()) as { iterable: { id: string }[] };
    return body.iterable.map((a) => a.id);
  })();

test('after the first visit the page loads offline from the shell cache and the API answers, also from a stopped worker', async ({
  appPage: page,
  context,
  stopServiceWorkers,
}) => {
  // ready() means the worker is active, so its install (and the shell's precache) is done.
  const cached = await page.evaluate(shellCaches);
  expect(cached).toHaveLength(1);
  expect(cached[0]!.cache).toMatch(/^tessera-shell-[0-9a-f]{10}$/);
  expect(cached[0]!.paths).toEqual(
    expect.arrayContaining(['/index.html', expect.stringMatching(/^\/assets\/index-[\w-]+\.js$/), '/manifest.webmanifest', '/icon.svg']),
  );

  await context.setOffline(true);
  try {
    // The control: the context is offline for what the shell does not hold.
    await expect(page.evaluate(() => fetch('/sw.js', { cache: 'no-store' }).then((r) => r.status))).rejects.toThrow();

    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await page.evaluate(() => window.tessera.ready());
    const id = await page.evaluate(createAsset, JSON.stringify(fragmentSeed('offline shell asset')));
    expect(await page.evaluate(listIds)).toContain(id);

    const second = await context.newPage();
    const opened = await second.goto('/');
    expect(opened?.status()).toBe(200);
    expect(opened?.fromServiceWorker()).toBe(true);
    await second.evaluate(() => window.tessera.ready());
    expect(await second.evaluate(listIds)).toContain(id);
    await second.close();

    // A stopped worker: the navigation starts it, and it answers from the cache and IndexedDB.
    await stopServiceWorkers(page);
    const third = await context.newPage();
    expect((await third.goto('/'))?.fromServiceWorker()).toBe(true);
    await third.evaluate(() => window.tessera.ready());
    const later = await third.evaluate(createAsset, JSON.stringify(fragmentSeed('created after a stop, offline')));
    expect(await third.evaluate(listIds)).toEqual(expect.arrayContaining([id, later]));
    await third.close();

    // The control: without the shell cache the same offline reload fails.
    await page.evaluate(async () => {
      for (const cache of await caches.keys()) if (cache.startsWith('tessera-shell-')) await caches.delete(cache);
    });
    await expect(page.reload()).rejects.toThrow(/net::ERR_/);
  } finally {
    await context.setOffline(false);
  }
});

test("activation drops other builds' shell caches and keeps its own and other caches", async ({ page }) => {
  // Same origin, no worker yet (a 404 page loads no client): caches left by an "older build" and another app.
  await page.goto('/not-the-app');
  await page.evaluate(async () => {
    await (await caches.open('tessera-shell-old')).put('/index.html', new Response('old page'));
    await caches.open('someone-elses-cache');
  });

  await page.goto('/');
  await page.evaluate(() => window.tessera.ready());
  const names = await page.evaluate(() => caches.keys());
  expect(names).not.toContain('tessera-shell-old');
  expect(names).toContain('someone-elses-cache');
  expect(names.filter((name) => name.startsWith('tessera-shell-'))).toEqual([expect.stringMatching(/^tessera-shell-[0-9a-f]{10}$/)]);
});
