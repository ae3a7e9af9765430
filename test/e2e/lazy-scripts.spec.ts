/**
 * The worker's lazy files (worker/browser/lazy-scripts.ts): FlexSearch (typo lookups) lives in
 * `/lazy/flexsearch-<hash>.js` and transformers.js in `/lazy/transformers-<hash>.js`, not in `/sw.js`,
 * and install keeps them and the language model's files in Cache Storage, so that language detection
 * with the model and typo-tolerant search work offline after install.
 */
import { fragmentSeed } from '../support/seeds.ts';
import { expect, stopServiceWorkers, test } from './fixtures.ts';

/** Haskell: the model says `hs`; the signatures alone (no Haskell among them) say otherwise. */
const HASKELL = `module Main where

import qualified Data.Map as Map

fib :: Int -> Integer
fib n = fibs !! n
  where fibs = 0 : 1 : zipWith (+) fibs (tail fibs)

main :: IO ()
main = do
  let m = Map.fromList [(1, "one"), (2, "two")]
  print (Map.lookup 1 m)
  mapM_ (print . fib) [1..10]
`;

type Cached = { cache: string; paths: string[]; types: string[] }[];

const lazyCaches = () =>
  (async () => {
    const out: Cached = [];
    for (const cache of await caches.keys()) {
      if (!cache.startsWith('tessera-lazy-')) continue;
      const open = await caches.open(cache);
      const keys = await open.keys();
      const types = await Promise.all(keys.map(async (r) => (await open.match(r))?.headers.get('content-type') ?? 'none'));
      out.push({ cache, paths: keys.map((r) => new URL(r.url).pathname), types });
    }
    return out;
  })();

/** Creates an asset from `body` (a seed without classification); the specific language it was given. */
const classify = (body: string) =>
  (async () => {
    const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const asset = await response.json();
    return asset.formats.iterable[0].classification.specific as string;
  })();

test('sw.js leaves the big libraries out, install caches them and the language model, and detection uses it offline', async ({ appPage: page, context }) => {
  const worker = await (await page.request.get('/sw.js')).text();
  expect(worker.length).toBeLessThan(600_000);
  expect(worker).not.toContain('tensorflow'); // no TF.js at all: the language model is evaluated directly
  expect(worker).not.toContain('onnxruntime'); // transformers.js's runtime
  expect(worker).not.toContain('flexsearch.bundle.module.min.js'); // FlexSearch (a path its worker mode rewrites)

  await expect.poll(async () => (await page.evaluate(lazyCaches)).flatMap((c) => c.paths)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^\/lazy\/transformers-[0-9a-f]+\.js$/),
      expect.stringMatching(/^\/lazy\/flexsearch-[0-9a-f]+\.js$/),
      '/models/vscode-languagedetection/model.json',
      '/models/vscode-languagedetection/group1-shard1of1.bin',
    ]),
  );
  const kept = await page.evaluate(lazyCaches);
  expect(kept).toHaveLength(1);
  // Kept as data, so that the install does not compile the scripts for a code cache an eval never uses.
  expect(new Set(kept[0]!.types)).toEqual(new Set(['application/octet-stream']));

  // Offline, in a fresh worker: the script and the model come from the cache.
  const network: string[] = [];
  await context.route(/\/(lazy|models)\//, (route) => {
    network.push(new URL(route.request().url()).pathname);
    return route.abort('internetdisconnected');
  });
  await context.setOffline(true);
  try {
    await stopServiceWorkers(page);
    expect(await page.evaluate(classify, JSON.stringify(fragmentSeed(HASKELL)))).toBe('hs');
    // (The embedder's probe of /models/<model>/ fails offline, as it should: no model is served here.)
    expect(network.filter((path) => /^\/(lazy|models\/vscode-languagedetection)\//.test(path))).toEqual([]);

    // The control: without the cache, the same worker start has no model (signatures alone).
    await page.evaluate(async () => {
      for (const cache of await caches.keys()) if (cache.startsWith('tessera-lazy-')) await caches.delete(cache);
    });
    await stopServiceWorkers(page);
    expect(await page.evaluate(classify, JSON.stringify(fragmentSeed(HASKELL)))).not.toBe('hs');
  } finally {
    await context.setOffline(false);
    await context.unroute(/\/(lazy|models)\//);
  }
});

test('a typo lookup in a fresh worker loads FlexSearch from the cache, offline', async ({ appPage: page, context }) => {
  const search = (query: string) =>
    page.evaluate(async (q) => {
      const response = await fetch(`/api/assets/search?query=${encodeURIComponent(q)}&transferables=false`);
      return ((await response.json()).iterable as { identifier: string }[]).map((r) => r.identifier);
    }, query);
  const create = (text: string) =>
    page.evaluate(async (body) => (await (await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()).id as string, JSON.stringify(fragmentSeed(text)));
  const id = await create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
  await expect.poll(async () => (await page.evaluate(lazyCaches)).flatMap((c) => c.paths)).toContainEqual(expect.stringMatching(/^\/lazy\/flexsearch-/));

  const network: string[] = [];
  await context.route(/\/lazy\//, (route) => {
    network.push(new URL(route.request().url()).pathname);
    return route.abort('internetdisconnected');
  });
  await context.setOffline(true);
  try {
    await stopServiceWorkers(page);
    expect(await search('chekcsum')).toEqual([id]);
    expect(network).toEqual([]);
  } finally {
    await context.setOffline(false);
    await context.unroute(/\/lazy\//);
  }
});

test("a cached lazy script changed after install is not run: typo lookups are off, the copy is dropped, the build's script comes back", async ({
  appPage: page,
}) => {
  const search = (query: string) =>
    page.evaluate(async (q) => {
      const response = await fetch(`/api/assets/search?query=${encodeURIComponent(q)}&transferables=false`);
      return { status: response.status, ids: ((await response.json()).iterable as { identifier: string }[]).map((r) => r.identifier) };
    }, query);
  const id = await page.evaluate(
    async (body) => (await (await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()).id as string,
    JSON.stringify(fragmentSeed('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()')),
  );
  await expect.poll(async () => (await page.evaluate(lazyCaches)).flatMap((c) => c.paths)).toContainEqual(expect.stringMatching(/^\/lazy\/flexsearch-/));
  // Another script under the same name in the cache: it would define the exports (and break searching).
  const tampered = await page.evaluate(async () => {
    for (const name of await caches.keys()) {
      if (!name.startsWith('tessera-lazy-')) continue;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        if (!/\/lazy\/flexsearch-/.test(request.url)) continue;
        const code = 'globalThis.__tesseraLazy_flexsearch = { Index: class { constructor() { throw new Error("tampered code ran"); } } };';
        await cache.put(request, new Response(code, { headers: { 'content-type': 'text/javascript' } }));
        return request.url;
      }
    }
    return undefined;
  });
  expect(tampered).toBeDefined();
  await stopServiceWorkers(page);
  // No typo lookups (as without the script), not a failure of the tampered code.
  expect(await search('chekcsum')).toEqual({ status: 200, ids: [] });
  const cachedAgain = await page.evaluate(async (url) => {
    for (const name of await caches.keys()) if (name.startsWith('tessera-lazy-') && (await (await caches.open(name)).match(url))) return true;
    return false;
  }, tampered!);
  expect(cachedAgain).toBe(false);

  // The next worker fetches the build's script again, checks it, and typo lookups are back.
  await stopServiceWorkers(page);
  expect(await search('chekcsum')).toEqual({ status: 200, ids: [id] });
});
