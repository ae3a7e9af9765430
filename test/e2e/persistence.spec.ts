/**
 * The library lives in IndexedDB, not in the worker's memory: what was written is still there, equal,
 * after a page reload, a hard reload (the page comes back uncontrolled until `ready()`) and a forced
 * stop of the service worker (the next request starts a new worker, which opens the database again).
 * All reads and writes go through the official SDK; every response is checked against the contract.
 */
import type { Page } from '@playwright/test';
import type { Seed } from '@pieces.app/pieces-os-client';
import { checkExchanges, connectSdk } from './contract-check.ts';
import { expect, hardReload, serviceWorkerStatuses, test } from './fixtures.ts';
import { GO_SNIPPET, PNG_BYTES, PYTHON_SNIPPET, fileSeed, fragmentSeed } from '../support/seeds.ts';

test.afterEach(async ({ page }) => {
  await checkExchanges(page);
});

/** Everything a client can read back: the listing, identifiers, tags, websites, and per asset the asset, its formats and activities. */
function readAll(page: Page) {
  return page.evaluate(async () => {
    const { assets, asset, tags, websites } = window.apis;
    const list = await assets.assetsSnapshot();
    const each: Record<string, unknown> = {};
    for (const { id } of list.iterable) {
      each[id] = {
        asset: await asset.assetSnapshot({ asset: id }),
        plural: await assets.assetsSpecificAssetSnapshot({ asset: id }),
        formats: await asset.assetFormats({ asset: id }),
        activities: await asset.assetSpecificAssetActivities({ asset: id }),
      };
    }
    const state = {
      list,
      identifiers: await assets.assetsIdentifiersSnapshot(),
      tags: await tags.tagsSnapshot(),
      websites: await websites.websitesSnapshot(),
      each,
    };
    // plain JSON (dates as ISO strings) so that two reads compare exactly
    return JSON.parse(JSON.stringify(state)) as typeof state;
  });
}

function create(page: Page, seed: unknown) {
  return page.evaluate((seed) => window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed }), seed as object);
}

/** After a navigation: the page's client is ready, the SDK is back and connected. */
async function reconnect(page: Page, inject: (page: Page) => Promise<void>) {
  await page.evaluate(() => window.tessera.ready());
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await inject(page);
  await connectSdk(page);
}

test('assets, tag links and activities are unchanged after a reload, a hard reload and a worker stop', async ({
  appPage: page,
  sdk,
  stopServiceWorkers,
}) => {
  await connectSdk(page);
  const py = await create(page, fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'shared' }, { text: 'python' }] }));
  const go = await create(
    page,
    fragmentSeed(GO_SNIPPET, { tags: [{ text: 'shared' }], websites: [{ url: 'https://go.dev/', name: 'Go' }] }),
  );
  const png = await create(page, fileSeed({ bytes: { raw: PNG_BYTES } }, { tags: [{ text: 'image' }] }));
  await page.evaluate(
    async ({ py, go }) => {
      const { asset, tags } = window.apis;
      const manual = await tags.tagsCreateNewTag({ seededTag: { text: 'manual' } });
      await asset.assetAssociateTag({ asset: py, tag: manual.id });
      const current = await asset.assetSnapshot({ asset: go });
      current.name = 'Hello, Go';
      await asset.assetUpdate({ asset: current });
      await asset.assetSpecificAssetExport({ asset: py, exportType: 'MD' });
      await asset.assetScoresIncrement({ asset: py, seededScoreIncrement: { asset: { reuse: true } } });
    },
    { py: py.id, go: go.id },
  );

  const before = await readAll(page);
  // what is being compared is what was written
  expect(before.list.iterable.map((a) => a.id)).toEqual([png.id, go.id, py.id]);
  expect(before.identifiers.iterable?.map((a) => a.id)).toEqual([png.id, go.id, py.id]);
  expect(Object.fromEntries(before.tags.iterable.map((t) => [t.text, t.assets?.iterable?.map((a) => a.id).sort()]))).toEqual({
    shared: [py.id, go.id].sort(),
    python: [py.id],
    image: [png.id],
    manual: [py.id],
  });
  const each = before.each as Record<string, { asset: { name?: string; score?: { reuse?: number }; tags?: { iterable: { text: string }[] } }; activities: { iterable: unknown[] } }>;
  expect(each[go.id]!.asset.name).toBe('Hello, Go');
  expect(each[py.id]!.asset.tags?.iterable.map((t) => t.text)).toEqual(['shared', 'python', 'manual']);
  expect(each[py.id]!.asset.score?.reuse).toBe(1);
  expect(each[py.id]!.activities.iterable).toHaveLength(3); // created, tag added, exported
  expect(each[go.id]!.activities.iterable).toHaveLength(3); // created, renamed, updated
  expect(each[png.id]!.activities.iterable).toHaveLength(1);
  expect(before.websites.iterable.map((w) => [w.url, w.assets?.iterable?.map((a) => a.id)])).toEqual([['https://go.dev/', [go.id]]]);
  await checkExchanges(page);

  // 1. a normal reload: the page stays controlled, the same worker answers
  await page.reload();
  await reconnect(page, sdk.inject);
  expect(await readAll(page)).toEqual(before);
  await checkExchanges(page);

  // 2. a hard reload: uncontrolled until ready() has the worker claim the page
  await hardReload(page);
  await reconnect(page, sdk.inject);
  expect(await readAll(page)).toEqual(before);
  await checkExchanges(page);

  // 3. the worker is stopped: the next request starts a new one, which reads IndexedDB afresh
  await stopServiceWorkers(page);
  expect(await serviceWorkerStatuses(page)).toEqual(['stopped']);
  expect(await readAll(page)).toEqual(before);
  expect(await serviceWorkerStatuses(page)).toEqual(['running']);
});

test('writes answered right before a worker stop are there after the restart', async ({ appPage: page, sdk, stopServiceWorkers }) => {
  expect(sdk.source.length).toBeGreaterThan(0);
  await connectSdk(page);
  const seed = fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'before-stop' }] });
  const written = await page.evaluate(async (seed) => {
    const { assets, asset, tags } = window.apis;
    const created = await assets.assetsCreateNewAsset({ seed: seed as Seed });
    const tag = await tags.tagsCreateNewTag({ seededTag: { text: 'late' } });
    await asset.assetAssociateTag({ asset: created.id, tag: tag.id });
    created.name = 'Written last';
    const updated = await asset.assetUpdate({ asset: created });
    return { updated, tag };
  }, seed as object);

  // no read in between: stop the worker as soon as the last write has been answered
  await stopServiceWorkers(page);

  const after = await page.evaluate(async (id) => {
    const { asset, tags } = window.apis;
    return {
      asset: await asset.assetSnapshot({ asset: id }),
      tags: await tags.tagsSnapshot(),
      activities: await asset.assetSpecificAssetActivities({ asset: id }),
    };
  }, written.updated.id);
  expect(await serviceWorkerStatuses(page)).toEqual(['running']);
  expect(after.asset).toEqual(written.updated);
  expect(after.asset.name).toBe('Written last');
  expect(after.asset.tags?.iterable.map((t) => t.text)).toEqual(['before-stop', 'late']);
  expect(after.tags.iterable.find((t) => t.id === written.tag.id)?.assets?.iterable).toEqual([{ id: written.updated.id }]);
  expect(after.activities.iterable).toHaveLength(4); // created, tag added, renamed, updated
});
