/**
 * Upgrades in Chromium (issue 13, "What to prove" 5; the Node suite test/unit/upgrades.test.ts covers every
 * earlier version on fake-indexeddb):
 *
 * - A library is made through today's worker in one profile, and its records are read out of IndexedDB.
 *   In a fresh profile, before any worker exists, the `tessera` database is created at version 1 (the
 *   oldest: the first ten object stores, no change log) with those records. The worker then upgrades it,
 *   and every asset answers as it did, search finds them, and writes work.
 * - An upgrade blocked by an older connection (a second page holding the database at the previous version,
 *   as an old tab of the app would) resolves without a hang: a 503 `storage_blocked` JSON error, then,
 *   once that page closes its connection, the upgrade runs and the library is there.
 */
import type { Browser, Page } from '@playwright/test';
import { LATEST_VERSION, SCHEMA_HISTORY, createLegacyDatabase, linksAsArrays } from '../support/legacy-schema.ts';
import { GO_SNIPPET, PNG_BYTES, PYTHON_SNIPPET, fileSeed, fragmentSeed } from '../support/seeds.ts';
import { CLIENT_PAGE, expect, test } from './fixtures.ts';

interface Sample {
  /** Each asset as GET /api/asset/{id} answered, by id. */
  assets: Record<string, unknown>;
  tags: unknown;
  /** The records of every object store of version 1 (the seq left out: version 1 had no change log). */
  records: Record<string, Record<string, unknown>[]>;
}

let sample: Sample | undefined;

/** The sample library, made once per worker process in a profile of its own through today's worker. */
async function sampleLibrary(browser: Browser, baseURL: string): Promise<Sample> {
  if (sample) return sample;
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto(CLIENT_PAGE);
    await page.evaluate(() => window.tessera.ready());
    const seeds = [
      fragmentSeed(PYTHON_SNIPPET, { name: 'argument parser', tags: [{ text: 'cli' }], websites: [{ url: 'https://docs.python.org/3/', name: 'python' }], annotations: [{ type: 'DESCRIPTION', text: 'Parses flags.' }] }),
      fragmentSeed(GO_SNIPPET, { tags: [{ text: 'hello' }] }),
      fileSeed({ bytes: { raw: PNG_BYTES } }, { name: 'pixel' }),
    ];
    const stores = SCHEMA_HISTORY[0]!.stores;
    const read = await page.evaluate(
      async ({ seeds, stores }) => {
        const post = async (path: string, body?: unknown) => {
          const response = await fetch(`/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
          if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
          return response.status === 204 ? undefined : response.json();
        };
        const created = [];
        for (const seed of seeds) created.push(await post('/assets/create', seed));
        await post('/asset/update', { id: created[1].id, name: 'hello world in go' });
        await post(`/asset/${created[0].id}/scores/increment`, { asset: { reuse: true } });
        await post(`/asset/${created[2].id}/tags/associate/${created[0].tags.iterable[0].id}`);
        const assets: Record<string, unknown> = {};
        for (const { id } of created) assets[id] = await (await fetch(`/api/asset/${id}`)).json();
        const tags = await (await fetch('/api/tags')).json();
        // The records as the worker stored them, read through a second connection at today's version.
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('tessera');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        const records: Record<string, Record<string, unknown>[]> = {};
        const tx = db.transaction(stores, 'readonly');
        await Promise.all(
          stores.map(
            (store) =>
              new Promise<void>((resolve, reject) => {
                const request = tx.objectStore(store).getAll();
                request.onsuccess = () => {
                  records[store] = request.result;
                  resolve();
                };
                request.onerror = () => reject(request.error);
              }),
          ),
        );
        db.close();
        records.meta = records.meta!.filter((r) => r.id !== 'seq');
        // Tags as stored before version 6: without the key their index reads (the upgrade adds it).
        for (const tag of records.tags ?? []) delete tag.folded;
        // JSON: what version 1 stored is plain data (a typed array here would not survive).
        return JSON.parse(JSON.stringify({ assets, tags, records })) as Sample;
      },
      // The links too: before version 7 they were id arrays on both sides (linksAsArrays).
      { seeds, stores: [...stores, 'links'] },
    );
    sample = { ...read, records: linksAsArrays(read.records) };
    return sample;
  } finally {
    await context.close();
  }
}

/** A page of the origin that is not the app: no worker is registered from it, and it may open IndexedDB. */
async function bareOriginPage(page: Page): Promise<void> {
  await page.goto('/manifest.webmanifest');
}

test('a database left by version 1 opens under today\'s worker with every asset intact; search and writes work', async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const library = await sampleLibrary(browser, baseURL!);
  await bareOriginPage(page);
  await page.evaluate(createLegacyDatabase, { name: 'tessera', version: 1, stores: SCHEMA_HISTORY[0]!.stores, records: library.records });

  await page.goto(CLIENT_PAGE);
  await page.evaluate(() => window.tessera.ready());
  const after = await page.evaluate(async ({ ids, seed }) => {
    const assets: Record<string, unknown> = {};
    for (const id of ids) assets[id] = await (await fetch(`/api/asset/${id}`)).json();
    const listed = ((await (await fetch('/api/assets/identifiers')).json()) as { iterable: { id: string }[] }).iterable.map((a) => a.id).sort();
    const found = ((await (await fetch('/api/assets/search?query=argparse')).json()) as { iterable: { identifier: string }[] }).iterable.map((r) => r.identifier);
    const tags = await (await fetch('/api/tags')).json();
    const created = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) });
    // A tag of the same text in another case is the stored one, found through the index the upgrade made.
    const sameTag = (await (await fetch('/api/tags/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'CLI' }) })).json()) as { id: string };
    const version = await new Promise<number>((resolve, reject) => {
      const request = indexedDB.open('tessera');
      request.onsuccess = () => {
        resolve(request.result.version);
        request.result.close();
      };
      request.onerror = () => reject(request.error);
    });
    return { assets, listed, found, tags, created: created.status, sameTag: sameTag.id, version };
  }, { ids: Object.keys(library.assets), seed: fragmentSeed('print("after the upgrade")\n') });
  expect(after.version).toBe(LATEST_VERSION);
  expect(after.listed).toEqual(Object.keys(library.assets).sort());
  expect(after.assets).toEqual(library.assets);
  expect(after.tags).toEqual(library.tags);
  expect(after.sameTag).toBe((library.tags as { iterable: { id: string; text: string }[] }).iterable.find((t) => t.text === 'cli')!.id);
  expect(after.found).toContain(Object.keys(library.assets)[0]);
  expect(after.created).toBe(200);
});

test('an upgrade blocked by an old connection in another page is a 503, then succeeds once that page lets go', async ({ page, context, browser, baseURL }) => {
  test.setTimeout(60_000);
  const library = await sampleLibrary(browser, baseURL!);
  const previous = SCHEMA_HISTORY.find((v) => v.version === LATEST_VERSION - 1)!;
  // The old tab: the database at the previous version, held open, deaf to `versionchange`.
  await bareOriginPage(page);
  await page.evaluate(createLegacyDatabase, { name: 'tessera', version: previous.version, stores: previous.stores, records: library.records });
  await page.evaluate(async (version) => {
    (window as unknown as { __old: IDBDatabase }).__old = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('tessera', version);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }, previous.version);

  // The app in another page: its worker wants today's version.
  const app = await context.newPage();
  await app.goto(CLIENT_PAGE);
  await app.evaluate(async () => {
    await navigator.serviceWorker.ready;
    while (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
  const ask = () =>
    app.evaluate(async () => {
      const response = await fetch('/api/assets/identifiers', { cache: 'no-store' });
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    });
  const blocked = await ask();
  expect(blocked.status).toBe(503);
  expect(blocked.type).toContain('application/json');
  expect(JSON.parse(blocked.body).error).toMatchObject({ status: 503, code: 'storage_blocked', message: expect.stringMatching(/another tab/) });

  // The old tab lets go: the upgrade goes on and the library is there.
  await page.evaluate(() => (window as unknown as { __old: IDBDatabase }).__old.close());
  const upgraded = await ask();
  expect(upgraded.status).toBe(200);
  expect((JSON.parse(upgraded.body) as { iterable: { id: string }[] }).iterable.map((a) => a.id).sort()).toEqual(Object.keys(library.assets).sort());
  const assets = await app.evaluate(async (ids) => {
    const out: Record<string, unknown> = {};
    for (const id of ids) out[id] = await (await fetch(`/api/asset/${id}`)).json();
    return out;
  }, Object.keys(library.assets));
  expect(assets).toEqual(library.assets);
});
