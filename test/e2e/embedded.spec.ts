/**
 * The embedded mode in Chromium: `/embedded.html` starts Tessera in a dedicated Worker
 * (`startEmbedded()`, app/client/embedded.ts), with no service worker at all, and drives it with the
 * official SDK given the mode's `fetch` as `fetchApi`, its sockets and its RPC. On one origin it shares the
 * IndexedDB store and the change feed with the service worker mode (`/?ui=off`), and its data survives a
 * reload.
 */
import type { Page } from '@playwright/test';
import type { Seed } from '@pieces.app/pieces-os-client';
import { CLIENT_PAGE, expect, sdkBundle, test } from './fixtures.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import type { Embedded, EmbeddedOptions } from '../../app/client/embedded.ts';

declare global {
  interface Window {
    tesseraEmbedded: { startEmbedded(options?: EmbeddedOptions): Embedded };
    embedded: Embedded;
    sdk: { assets: import('@pieces.app/pieces-os-client').AssetsApi; asset: import('@pieces.app/pieces-os-client').AssetApi };
    embeddedFrames: Record<string, string[]>;
    embeddedSockets: Record<string, WebSocket>;
  }
}

const EMBEDDED_PAGE = '/embedded.html';

/** Opens the embedded page, starts the mode and connects the SDK to it at `basePath` (default origin + /api). */
async function openEmbedded(page: Page, options: { aliases?: string[]; basePath?: string } = {}): Promise<void> {
  await page.goto(EMBEDDED_PAGE);
  await page.addScriptTag({ content: await sdkBundle() });
  await page.evaluate(async ({ aliases, basePath }) => {
    const embedded = window.tesseraEmbedded.startEmbedded(aliases ? { aliases } : {});
    await embedded.ready();
    window.embedded = embedded;
    const { Configuration, AssetsApi, AssetApi } = window.PiecesSDK;
    const config = new Configuration({ basePath: basePath ?? `${location.origin}/api`, fetchApi: embedded.fetch });
    window.sdk = { assets: new AssetsApi(config), asset: new AssetApi(config) };
    window.embeddedFrames = {};
    window.embeddedSockets = {};
  }, options);
}

function create(page: Page, raw: string, name?: string): Promise<string> {
  return page.evaluate(
    async (seed) => (await window.sdk.assets.assetsCreateNewAsset({ seed: seed as Seed, transferables: false })).id,
    fragmentSeed(raw, name ? { name } : undefined) as object,
  );
}

function readName(page: Page, id: string): Promise<string | undefined> {
  return page.evaluate(async (id) => (await window.sdk.asset.assetSnapshot({ asset: id, transferables: false })).name, id);
}

/** Opens one of the mode's sockets under `name` and records its frames; resolves once it is open. */
async function openSocket(page: Page, name: string, url: string): Promise<void> {
  await page.evaluate(
    async ({ name, url }) => {
      const socket = window.embedded.socket(url.replace('<host>', location.host));
      window.embeddedFrames[name] = [];
      window.embeddedSockets[name] = socket;
      socket.onmessage = (event) => window.embeddedFrames[name]!.push(event.data as string);
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onclose = reject;
      });
    },
    { name, url },
  );
}

/** The asset ids of every identifiers frame received on the socket `name`, in order. */
function identifierFrames(page: Page, name: string): Promise<string[][]> {
  return page.evaluate(
    (name) =>
      window.embeddedFrames[name]!.map((text) => (window.PiecesSDK.StreamedIdentifiersFromJSON(JSON.parse(text)).iterable ?? []).map((i) => i.asset!.id)),
    name,
  );
}

test('the SDK with fetchApi creates, reads and searches; streams and the RPC work; no service worker anywhere', async ({ page }) => {
  await openEmbedded(page);
  await openSocket(page, 'ids', 'ws://<host>/api/assets/stream/identifiers');
  await expect.poll(() => identifierFrames(page, 'ids')).toEqual([[]]);

  const id = await create(page, PYTHON_SNIPPET, 'parse_args');
  expect(await readName(page, id)).toBe('parse_args');
  const found = await page.evaluate(async () => (await window.sdk.assets.searchAssets({ query: 'argparse', transferables: false })).iterable.map((s) => s.identifier));
  expect(found).toEqual([id]);
  // A typo is found too: the Worker loaded its lazy typo index (FlexSearch) from beside its script.
  const typo = await page.evaluate(async () => (await window.sdk.assets.searchAssets({ query: 'argprase', transferables: false })).iterable.map((s) => s.identifier));
  expect(typo).toEqual([id]);
  await expect.poll(() => identifierFrames(page, 'ids')).toEqual([[], [id]]);
  expect(await page.evaluate(async (id) => (await window.embedded.rpc.getAsset(id, { transferables: false })).name, id)).toBe('parse_args');

  // /qgpt/stream: the extractive answer arrives as frames over the mode's streamed responses.
  await openSocket(page, 'qgpt', 'ws://<host>/api/qgpt/stream');
  await page.evaluate(() =>
    window.embeddedSockets.qgpt!.send(JSON.stringify({ relevance: { query: 'how are command line arguments parsed?', options: { database: true, question: true } }, request: 'r1' })),
  );
  await expect.poll(() => page.evaluate(() => window.embeddedFrames.qgpt!.map((f) => JSON.parse(f).status as string).at(-1)), { timeout: 15_000 }).toBe('COMPLETED');
  const statuses = await page.evaluate(() => window.embeddedFrames.qgpt!.map((f) => JSON.parse(f).status as string));
  expect(statuses[0]).toBe('INITIALIZED');
  expect(statuses).toContain('IN-PROGRESS');
  const answer = await page.evaluate(() => window.embeddedFrames.qgpt!.map((f) => JSON.parse(f)).filter((f) => f.status === 'IN-PROGRESS').map((f) => f.question.answers.iterable[0].text).join(''));
  expect(answer).toContain('parse_args');

  // Bad input: a clear JSON 400, and nothing stored.
  const bad = await page.evaluate(async () => {
    const response = await window.embedded.fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    return { status: response.status, body: await response.json() };
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatchObject({ status: 400 });
  expect(await page.evaluate(async () => (await window.sdk.assets.assetsSnapshot({ transferables: false })).iterable?.length)).toBe(1);

  // An aborted request rejects as fetch does.
  const aborted = await page.evaluate(async () => {
    const abort = new AbortController();
    const pending = window.embedded.fetch('/api/assets?transferables=false', { signal: abort.signal });
    abort.abort();
    return pending.then(
      () => 'answered',
      (error: Error) => error.name,
    );
  });
  expect(aborted).toBe('AbortError');

  // A URL that is not the API's goes to the network, as the service worker would let it through.
  expect(await page.evaluate(async () => (await window.embedded.fetch('/manifest.webmanifest')).status)).toBe(200);
  expect(await page.evaluate(async () => ({ controller: navigator.serviceWorker.controller, registrations: (await navigator.serviceWorker.getRegistrations()).length }))).toEqual({
    controller: null,
    registrations: 0,
  });
});

test('an aliased desktop address: the SDK at http://localhost:39300 and its sockets are answered by the Worker', async ({ page }) => {
  await openEmbedded(page, { aliases: ['http://localhost:39300'], basePath: 'http://localhost:39300' });
  await openSocket(page, 'ids', 'ws://localhost:39300/assets/stream/identifiers');
  const id = await create(page, GO_SNIPPET, 'main');
  expect(await readName(page, id)).toBe('main');
  await expect.poll(() => identifierFrames(page, 'ids')).toEqual([[], [id]]);
  // The same data under the base.
  expect(await page.evaluate(async (id) => (await window.embedded.fetch(`/api/asset/${id}?transferables=false`)).status, id)).toBe(200);
});

test('one origin, both modes: the service worker reads what the Worker wrote and the other way, with live frames between them', async ({ page }) => {
  await openEmbedded(page);
  await openSocket(page, 'ids', 'ws://<host>/api/assets/stream/identifiers');
  const fromEmbedded = await create(page, PYTHON_SNIPPET, 'from embedded');

  const worker = await page.context().newPage();
  await worker.goto(CLIENT_PAGE);
  await worker.evaluate(() => window.tessera.ready());
  const readByWorker = await worker.evaluate(async (id) => (await (await fetch(`/api/asset/${id}?transferables=false`)).json()).name, fromEmbedded);
  expect(readByWorker).toBe('from embedded');
  const fromWorker = await worker.evaluate(async (seed) => {
    const response = await fetch('/api/assets/create?transferables=false', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) });
    return (await response.json()).id as string;
  }, fragmentSeed(GO_SNIPPET, { name: 'from the worker' }));

  expect(await readName(page, fromWorker)).toBe('from the worker');
  // The service worker's commit reached the Worker's feed (its search index) and the page's stream.
  await expect.poll(() => identifierFrames(page, 'ids')).toEqual([[], [fromEmbedded], [fromWorker]]);
  const found = await page.evaluate(async () => (await window.sdk.assets.searchAssets({ query: 'from the worker', transferables: false })).iterable.map((s) => s.identifier));
  expect(found).toContain(fromWorker);
});

test('the data survives a reload and a new Worker', async ({ page }) => {
  await openEmbedded(page);
  const id = await create(page, PYTHON_SNIPPET, 'kept');
  await page.reload();
  await openEmbedded(page);
  expect(await readName(page, id)).toBe('kept');

  // A terminated Worker fails calls with a clear error; a new one reads the same store.
  const failure = await page.evaluate(async () => {
    window.embedded.terminate();
    return window.embedded.fetch('/api/assets').then(
      () => 'answered',
      (error: Error) => error.message,
    );
  });
  expect(failure).toContain('terminated');
  // This time named by where the assets are served, as a host of the package does.
  await page.evaluate(async () => {
    const embedded = window.tesseraEmbedded.startEmbedded({ assetsUrl: `${location.origin}/` });
    await embedded.ready();
    window.embedded = embedded;
  });
  expect(await page.evaluate(async (id) => (await (await window.embedded.fetch(`/api/asset/${id}?transferables=false`)).json()).name, id)).toBe('kept');
});
