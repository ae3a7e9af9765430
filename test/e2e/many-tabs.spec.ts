/**
 * Many tabs writing at once (issue 13, "What to prove" 3). Several client pages of one browser context
 * (one service worker, one IndexedDB) send their writes at the same time, each page several at once:
 * creates, renames of what they created, renames of one shared asset, score increments on that one asset,
 * tag creates (one text shared by every page) and tag associations to the shared asset. Then:
 *
 * - the shared asset's reuse counter is exactly the number of increments sent (no lost update);
 * - it carries every tag associated, and each tag lists it back; the shared tag text is one tag;
 * - every created asset is there exactly once under its final name (no duplicate, none lost), and the
 *   shared asset's name is one of the names sent;
 * - every page's identifiers stream (`new WebSocket` through the page's shim), applied as a client applies
 *   it, ends in the same set as GET /api/assets/identifiers.
 *
 * `SOAK=1` (npm run soak) runs more pages and writes, several times.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { idsAfter, identifierFrames, openSocket, secondPage, storeIds } from './stream-support.ts';
import { HARDENING, runs, SOAK } from '../support/hardening.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

const PAGES = runs(HARDENING.tabs.pages);
/** Rounds per page; each round sends five writes at once, then renames what it created and associates its tag. */
const ROUNDS = runs(HARDENING.tabs.rounds);
const REPEAT = runs(HARDENING.tabs.repeat);

interface PageResult {
  created: string[];
  tags: string[];
  increments: number;
  names: string[];
  failures: string[];
}

/** Runs in a page: `rounds` rounds of concurrent writes, through the page's fetch (the worker). */
async function writeFrom(page: Page, tab: number, shared: string, rounds: number, seed: unknown): Promise<PageResult> {
  return page.evaluate(
    async ({ tab, shared, rounds, seed }) => {
      const result = { created: [] as string[], tags: [] as string[], increments: 0, names: [] as string[], failures: [] as string[] };
      const call = async (path: string, body?: unknown): Promise<any> => {
        const response = await fetch(`/api${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        if (!response.ok) {
          result.failures.push(`${path} -> ${response.status} ${text.slice(0, 200)}`);
          return undefined;
        }
        return text ? JSON.parse(text) : undefined;
      };
      const round = async (n: number) => {
        const name = `tab${tab}-asset${n}`;
        const sharedName = `shared by tab${tab} round ${n}`;
        const [created, tag] = await Promise.all([
          call('/assets/create', { asset: { ...(seed as { asset: object }).asset, metadata: { name } } }),
          call('/tags/create', { text: `tab${tab}-tag${n}` }),
          call(`/asset/${shared}/scores/increment`, { asset: { reuse: true } }).then(() => result.increments++),
          call('/asset/update', { id: shared, name: sharedName }).then(() => result.names.push(sharedName)),
          // One text from every page: one tag.
          call('/tags/create', { text: 'shared-by-all' }),
        ]);
        if (created) {
          result.created.push(created.id);
          const renamed = await call('/asset/update', { id: created.id, name: `${name}-renamed` });
          if (!renamed) result.failures.push(`rename of ${created.id} failed`);
        }
        if (tag) {
          result.tags.push(tag.id);
          await call(`/asset/${shared}/tags/associate/${tag.id}`);
        }
      };
      // Two rounds in flight at a time per page.
      for (let n = 0; n < rounds; n += 2) await Promise.all([round(n), n + 1 < rounds ? round(n + 1) : undefined]);
      return result;
    },
    { tab, shared, rounds, seed },
  );
}

async function getJson(page: Page, path: string): Promise<any> {
  return page.evaluate(async (path) => {
    const response = await fetch(`/api${path}`);
    if (!response.ok) throw new Error(`${path} -> ${response.status}`);
    return response.json();
  }, path);
}

for (let run = 1; run <= REPEAT; run++) {
  test(`${PAGES} pages writing at once: counters add up, nothing lost or doubled, every stream ends where the store is${REPEAT > 1 ? ` (run ${run})` : ''}`, async ({
    appPage,
    sdk,
  }) => {
    test.setTimeout(SOAK ? 300_000 : 90_000);
    const pages = [appPage];
    for (let i = 1; i < PAGES; i++) pages.push(await secondPage(appPage, sdk.inject));
    const shared = (await pages[0]!.evaluate(async (seed) => {
      const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) });
      return response.json();
    }, fragmentSeed(PYTHON_SNIPPET, { name: 'shared' }))) as { id: string; score: { reuse?: number } };
    for (const page of pages) await openSocket(page, 'ids', '/assets/stream/identifiers');

    const results = await Promise.all(pages.map((page, tab) => writeFrom(page, tab, shared.id, ROUNDS, fragmentSeed(`print("tab ${tab}")\n`))));
    expect(results.flatMap((r) => r.failures)).toEqual([]);

    // Counters add up exactly.
    const increments = results.reduce((n, r) => n + r.increments, 0);
    expect(increments).toBe(PAGES * ROUNDS);
    const asset = await getJson(pages[0]!, `/asset/${shared.id}`);
    expect(asset.score.reuse ?? 0).toBe((shared.score.reuse ?? 0) + increments);
    // Every association is there, on both sides; the name is one of those sent.
    const associated = results.flatMap((r) => r.tags);
    expect(associated).toHaveLength(PAGES * ROUNDS);
    expect(asset.tags.iterable.map((t: { id: string }) => t.id).sort()).toEqual([...associated].sort());
    expect(results.flatMap((r) => r.names)).toContain(asset.name);
    const tags = (await getJson(pages[0]!, '/tags')).iterable as { id: string; text: string; assets?: { iterable: { id: string }[] } }[];
    for (const id of associated) {
      const tag = tags.find((t) => t.id === id);
      expect(tag?.assets?.iterable.map((a) => a.id), `tag ${id}`).toContain(shared.id);
    }
    expect(tags.filter((t) => t.text === 'shared-by-all')).toHaveLength(1);
    expect(new Set(tags.map((t) => t.text)).size).toBe(tags.length);

    // Every create is there once, under its final name.
    const created = results.flatMap((r) => r.created);
    expect(created).toHaveLength(PAGES * ROUNDS);
    const listed = (await getJson(pages[0]!, '/assets?transferables=false')).iterable as { id: string; name: string }[];
    expect(listed.map((a) => a.id).sort()).toEqual([shared.id, ...created].sort());
    const names = listed.filter((a) => a.id !== shared.id).map((a) => a.name).sort();
    const expected = pages.flatMap((_, tab) => Array.from({ length: ROUNDS }, (_, n) => `tab${tab}-asset${n}-renamed`)).sort();
    expect(names).toEqual(expected);

    // Every page's stream ends where the store is.
    const ids = await storeIds(pages[0]!);
    expect(ids).toHaveLength(1 + PAGES * ROUNDS);
    for (const [i, page] of pages.entries()) {
      await expect.poll(async () => idsAfter(await identifierFrames(page, 'ids')), { message: `page ${i}'s identifiers stream`, timeout: 15_000 }).toEqual(ids);
    }
  });
}
