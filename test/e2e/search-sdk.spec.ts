/**
 * Search and discovery through the official SDK in Chromium, against the service worker: `searchAssets`,
 * `assetsSearchWithFilters`, `assetsGetRelatedAssets`, `assetsGetRecommendedAssets` and
 * `assetsSnapshot({suggested: true})`. Every raw response the SDK received is checked against the contract.
 *
 * The SDK sends related and recommended as GET with a JSON body, which fetch refuses to build: in a browser
 * the call throws before any request leaves. Two forms work: the call without input (GET, no body: the
 * user's recent activity), and the call with `{method: 'POST'}` as its second argument (the same body on POST).
 *
 * The last test stops the worker (CDP) right after a write and shows the next search finds every asset:
 * the restarted worker restores the saved index and applies the change log written after it.
 */
import type { Page } from '@playwright/test';
import type { AssetsSearchWithFiltersInput, Seed } from '@pieces.app/pieces-os-client';
import { useSdkPage } from './contract-check.ts';
import { expect, test } from './fixtures.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

const SQL = 'SELECT customer_id, SUM(total) AS revenue FROM invoices GROUP BY customer_id ORDER BY revenue DESC;';
const JS = `export async function fetchUserProfile(userId) {
  // Load the profile of one user from the account service.
  const response = await fetch(\`/api/users/\${userId}\`);
  return response.json();
}
`;

let page: Page;
useSdkPage(test, (p) => (page = p));

function create(seed: unknown): Promise<string> {
  return page.evaluate(async (seed) => (await window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed, transferables: false })).id, seed as object);
}

async function library() {
  return {
    py: await create(fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'cli' }], annotations: [{ type: 'DESCRIPTION', text: 'Reads flags for the deploy tool.' }] })),
    go: await create(fragmentSeed(GO_SNIPPET, { tags: [{ text: 'cli' }] })),
    sql: await create(fragmentSeed(SQL, undefined, { specific: 'sql' })),
    js: await create(fragmentSeed(JS, { websites: [{ url: 'https://github.com/acme/accounts', name: 'acme accounts' }] })),
  };
}

test('searchAssets: fuzzy query, tag search, both, and the 500 without either', async () => {
  const ids = await library();
  const result = await page.evaluate(async () => {
    const { assets } = window.apis;
    const pick = (r: Awaited<ReturnType<typeof assets.searchAssets>>) => r.iterable.map((x) => ({ id: x.identifier, match: x.match, exact: x.exact }));
    const failure = await assets.searchAssets({}).then(
      () => undefined,
      async (error: { response?: Response }) => ({ status: error.response?.status, body: await error.response?.json() }),
    );
    const full = await assets.searchAssets({ query: 'revenue' });
    return {
      content: pick(await assets.searchAssets({ query: 'revenue', transferables: false })),
      camel: pick(await assets.searchAssets({ query: 'fetch_user_profile', transferables: false })),
      typo: await assets.searchAssets({ query: 'reveune', transferables: false }),
      prefix: pick(await assets.searchAssets({ query: 'argpa', transferables: false })),
      annotation: pick(await assets.searchAssets({ query: 'deploy', transferables: false })),
      tags: pick(await assets.searchAssets({ searchableTags: 'cli', transferables: false })),
      both: pick(await assets.searchAssets({ query: 'println', searchableTags: 'cli', transferables: false })),
      raw: full.iterable[0]?.asset?.formats.iterable[0]?.fragment?.string?.raw,
      failure,
    };
  });
  expect(result.content).toEqual([{ id: ids.sql, match: 'CONTENT', exact: true }]);
  expect(result.camel[0]?.id).toBe(ids.js);
  expect(result.typo.iterable[0]).toMatchObject({ identifier: ids.sql, match: 'FUZZY', exact: false });
  expect(result.typo.suggested).toBe(result.typo.iterable.length);
  expect(result.prefix[0]?.id).toBe(ids.py);
  expect(result.annotation[0]).toEqual({ id: ids.py, match: 'ANNOTATION', exact: true });
  expect(result.tags.map((t) => t.id).sort()).toEqual([ids.py, ids.go].sort());
  expect(result.tags.every((t) => t.match === 'TAGS')).toBe(true);
  expect(result.both.map((t) => t.id)).toEqual([ids.go]);
  expect(result.raw).toBe(SQL);
  expect(result.failure).toEqual({ status: 500, body: { error: expect.objectContaining({ status: 500, code: 'query_required' }) } });
});

test('assetsSearchWithFilters: query, search space, nested filters, phrase casing, dates, bad filters', async () => {
  const ids = await library();
  const result = await page.evaluate(async (ids) => {
    const { assets } = window.apis;
    const run = async (input: AssetsSearchWithFiltersInput) =>
      (await assets.assetsSearchWithFilters({ transferables: false, assetsSearchWithFiltersInput: input })).results.iterable.map((r) => r.identifier);
    const status = (input: unknown) =>
      assets.assetsSearchWithFilters({ assetsSearchWithFiltersInput: input as never }).then(
        () => 200,
        (error: { response?: Response }) => error.response?.status,
      );
    return {
      query: await run({ query: 'println' }),
      space: await run({ query: 'println', space: { identifers: { iterable: [{ id: ids.py }] } } }),
      tags: await run({ filters: { iterable: [{ tags: ['cli'] }] } }),
      nested: await run({
        filters: { iterable: [{ operations: { type: 'OR' as never, iterable: [{ classification: 'sql' as never }, { websites: ['github.com'] }] } }] },
      }),
      andOr: await run({ filters: { iterable: [{ tags: ['cli'] }, { operations: { type: 'OR' as never, iterable: [{ classification: 'go' as never }, { classification: 'sql' as never }] } }] } }),
      phrase: await run({ filters: { iterable: [{ phrase: { value: 'group by customer_id', content: true } }] } }),
      phraseCased: await run({ filters: { iterable: [{ phrase: { value: 'group by customer_id', content: true } }] }, casing: true }),
      created: await run({ filters: { iterable: [{ created: { from: { value: new Date(Date.now() - 3_600_000) }, to: { value: new Date(Date.now() + 3_600_000) } } }] } }),
      future: await run({ filters: { iterable: [{ created: { from: { value: new Date(Date.now() + 3_600_000) } } }] } }),
      badPhrase: await status({ filters: { iterable: [{ phrase: { value: '' } }] } }),
      badRange: await status({ filters: { iterable: [{ updated: { from: { value: new Date('2026-02-01') }, to: { value: new Date('2026-01-01') } } }] } }),
    };
  }, ids);
  expect(result.query).toEqual([ids.go]);
  expect(result.space).toEqual([]);
  expect(result.tags.sort()).toEqual([ids.py, ids.go].sort());
  expect(result.nested.sort()).toEqual([ids.sql, ids.js].sort());
  expect(result.andOr).toEqual([ids.go]);
  expect(result.phrase).toEqual([ids.sql]);
  expect(result.phraseCased).toEqual([]);
  expect(result.created.length).toBe(4);
  expect(result.future).toEqual([]);
  expect(result.badPhrase).toBe(422);
  expect(result.badRange).toBe(422);
});

test('related and recommended: GET with a body cannot leave the page; POST and the no-body GET work; suggested listing', async () => {
  const ids = await library();
  const cliTool = await create(fragmentSeed('import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--dry-run")\n', { tags: [{ text: 'cli' }] }));
  const result = await page.evaluate(
    async ({ ids }) => {
      const { assets } = window.apis;
      const py = await window.apis.asset.assetSnapshot({ asset: ids.py });
      const asGet = await assets.assetsGetRelatedAssets({ assets: { iterable: [py] } }).then(
        () => 'sent',
        (error: Error) => `${error.name}: ${String((error as { cause?: Error }).cause ?? error.message)}`,
      );
      const related = await assets.assetsGetRelatedAssets({ assets: { iterable: [py] } }, { method: 'POST' });
      const recommended = await assets.assetsGetRecommendedAssets(
        {
          seededAssetsRecommendation: {
            assets: { iterable: [py] },
            interactions: { iterable: [{ asset: ids.py, interactions: { viewed: 'true', touched: true } }] },
          },
        },
        { method: 'POST' },
      );
      const recent = await assets.assetsGetRecommendedAssets();
      const recentRelated = await assets.assetsGetRelatedAssets();
      const suggested = await assets.assetsSnapshot({ suggested: true, transferables: false });
      return {
        asGet,
        related: related.iterable.map((a) => a.id),
        recommended: recommended.iterable.map((a) => a.id),
        recent: recent.iterable.length,
        recentRelated: recentRelated.iterable.length,
        suggested: suggested.iterable.map((a) => a.id),
      };
    },
    { ids },
  );
  expect(result.asGet).toMatch(/TypeError|FetchError/);
  expect(result.related[0]).toBe(cliTool);
  expect(result.related).not.toContain(ids.py);
  expect(result.recommended[0]).toBe(cliTool);
  expect(result.recommended).not.toContain(ids.py);
  expect(result.recent).toBeGreaterThan(0);
  expect(result.recentRelated).toBeGreaterThan(0);
  expect(result.suggested.length).toBeGreaterThan(0);
  expect(new Set(result.suggested).size).toBe(result.suggested.length);
});

/** The saved search index's seq, read from the worker's IndexedDB in the page (undefined before the first save). */
function savedIndexSeq(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number | undefined>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('indexes')) return resolve(undefined);
          const get = db.transaction('indexes').objectStore('indexes').get('search');
          get.onsuccess = () => {
            resolve(get.result?.seq);
            db.close();
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

test('after a worker stop, the next search finds every asset, including one written just before the stop', async ({ stopServiceWorkers }) => {
  const seeds = Array.from({ length: 30 }, (_, i) => fragmentSeed(`def handler_${i}(event):\n    """Handle webhook event number ${i}."""\n    return event["id${i}"]\n`));
  const ids: string[] = [];
  for (const seed of seeds) ids.push(await create(seed));
  const count = (query: string) =>
    page.evaluate(async (query) => (await window.apis.assets.searchAssets({ query, transferables: false })).iterable.length, query);
  expect(await count('webhook')).toBe(30);
  // The index saves its snapshot a moment after it changed.
  await expect.poll(() => savedIndexSeq(page), { timeout: 10_000 }).toBe(30);

  const late = await create(fragmentSeed('def handler_late(event):\n    """Handle the webhook event that came last."""\n    return None\n'));
  await stopServiceWorkers(page);
  // The snapshot does not hold the last write: the restarted worker must find it in the change log.
  expect(await savedIndexSeq(page)).toBe(30);

  const found = await page.evaluate(async () => {
    const reply = await window.apis.assets.searchAssetsRaw({ query: 'webhook event', transferables: false });
    const timing = reply.raw.headers.get('server-timing');
    return { ids: (await reply.value()).iterable.map((r) => r.identifier), timing };
  });
  expect(found.ids.sort()).toEqual([...ids, late].sort());
  expect(found.timing).toMatch(/catchup;dur=/);
  expect(await count('handler_late')).toBeGreaterThan(0);
  expect((await page.evaluate(async () => (await window.apis.assets.searchAssets({ query: 'handlerLate', transferables: false })).iterable[0]?.identifier))).toBe(late);
});
