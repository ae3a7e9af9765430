/**
 * `/qgpt/relevance` through the official SDK's QGPTApi in Chromium, against the service worker: the
 * `database`, `assets` and `seeds` query spaces, `options.question`, the 422 for zero or several spaces,
 * and a worker stopped (CDP) right after a write: the next relevance call still finds the new asset, and
 * the snippet vectors are kept in IndexedDB. (`paths` has its own spec, qgpt-paths.spec.ts.) Every raw
 * response the SDK received is checked against the contract.
 */
import type { Page } from '@playwright/test';
import type { QGPTRelevanceInput, Seed } from '@pieces.app/pieces-os-client';
import { useSdkPage } from './contract-check.ts';
import { expect, stopServiceWorkers, test } from './fixtures.ts';
import { CSV_SNIPPET, RETRY_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';

let page: Page;
useSdkPage(test, (p) => (page = p));

function create(seed: unknown): Promise<string> {
  return page.evaluate(async (seed) => (await window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed, transferables: false })).id, seed as object);
}

/** The relevance call in the page: the output, or the status and error body of a refusal. */
function relevance(input: unknown) {
  return page.evaluate(async (input) => {
    try {
      const out = await window.apis.qgpt.relevance({ qGPTRelevanceInput: input as QGPTRelevanceInput });
      return {
        ok: true as const,
        relevant: out.relevant.iterable.map((r) => ({
          id: r.id,
          asset: r.asset?.id,
          raw: r.seed?.asset?.format?.fragment?.string?.raw,
          location: r.location,
        })),
        answers: out.answer?.answers.iterable.map((a) => ({ score: a.score, text: a.text })),
      };
    } catch (error) {
      const response = (error as { response?: Response }).response;
      return { ok: false as const, status: response?.status, body: await response?.json() };
    }
  }, input as object);
}

async function library() {
  return {
    yaml: await create(fragmentSeed(YAML_SNIPPET, undefined, { generic: 'CODE', specific: 'py' })),
    retry: await create(fragmentSeed(RETRY_SNIPPET, undefined, { generic: 'CODE', specific: 'js' })),
    csv: await create(fragmentSeed(CSV_SNIPPET, undefined, { generic: 'CODE', specific: 'py' })),
  };
}

test('relevance over the library, given assets and given seeds; the 422 for zero or several query spaces', async () => {
  const ids = await library();
  const database = await relevance({ query: 'read a yaml configuration file', options: { database: true } });
  expect(database.ok).toBe(true);
  if (!database.ok) return;
  expect(database.relevant[0]).toMatchObject({ asset: ids.yaml, raw: YAML_SNIPPET.trim(), location: { text: YAML_SNIPPET.trim(), start: 0, end: YAML_SNIPPET.trim().length } });
  expect(database.relevant[0]!.id).toMatch(/^\d+\.[0-9a-f]+$/);

  const assets = await relevance({ query: 'retry with backoff', assets: { iterable: [{ id: ids.csv }, { id: ids.retry }] } });
  expect(assets.ok && assets.relevant.map((r) => r.asset)).toEqual([ids.retry, ids.csv]);

  const seeds = await relevance({
    query: 'exponential backoff',
    seeds: { iterable: [fragmentSeed('def backoff(attempt):\n    return 2 ** attempt\n'), fragmentSeed('def greet(name):\n    print("hi", name)\n')] },
  });
  expect(seeds.ok && seeds.relevant[0]).toMatchObject({ asset: undefined, raw: 'def backoff(attempt):\n    return 2 ** attempt' });

  const none = await relevance({ query: 'yaml' });
  expect(none).toMatchObject({ ok: false, status: 422, body: { error: { code: 'query_space' } } });
  const several = await relevance({ query: 'yaml', options: { database: true }, assets: { iterable: [{ id: ids.csv }] } });
  expect(several).toMatchObject({ ok: false, status: 422, body: { error: { code: 'query_space' } } });
});

test('relevance with options.question also answers, from the snippets it found', async () => {
  const ids = await library();
  const out = await relevance({ query: 'how do I write rows to a csv file', options: { database: true, question: true } });
  expect(out.ok).toBe(true);
  if (!out.ok) return;
  expect(out.relevant[0]!.asset).toBe(ids.csv);
  expect(out.answers!.length).toBeGreaterThan(0);
  for (const answer of out.answers!) expect(answer.score).toBeGreaterThanOrEqual(0), expect(answer.score).toBeLessThanOrEqual(1);
  expect(out.answers![0]!.text).toContain('writer.writerow(row)');
});

test('a worker stopped right after a write: the next relevance call finds the new asset; vectors live in IndexedDB', async () => {
  await library();
  const fresh = await create(fragmentSeed('def compute_checksum(data):\n    return hashlib.sha256(data).hexdigest()\n', undefined, { generic: 'CODE', specific: 'py' }));
  await stopServiceWorkers(page);
  const out = await relevance({ query: 'sha256 checksum of data', options: { database: true } });
  expect(out.ok && out.relevant[0]!.asset).toBe(fresh);
  const stored = await page.evaluate(
    () =>
      new Promise<{ id: string; embedder: string; dims: number }[]>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        // The snapshot and the chunks after it (vector-chunks.ts), in key order: each names its assets'
        // embedder and dimensions. Nothing is in the `snippets` collection but a restore's records.
        open.onsuccess = () => {
          const get = open.result.transaction('indexes').objectStore('indexes').getAll(IDBKeyRange.bound('vectors.snapshot', 'vectors~\uffff'));
          get.onsuccess = () => {
            const byId = new Map<string, { id: string; embedder: string; dims: number }>();
            for (const { data } of get.result as { data: { ids: string[]; embedder: string; dims: number; gone?: string[] } }[]) {
              for (const id of data.ids) byId.set(id, { id, embedder: data.embedder, dims: data.dims });
              for (const id of data.gone ?? []) byId.delete(id);
            }
            resolve([...byId.values()]);
            open.result.close();
          };
        };
      }),
  );
  expect(stored.length).toBe(4);
  const { id, dimensions } = await page.evaluate(async () => (await fetch('/api/embeddings')).json() as Promise<{ id: string; dimensions: number }>);
  expect(id).toMatch(/^hashing-v3-1024\+code-vectors-/);
  expect(stored.find((r) => r.id === fresh)).toEqual({ id: fresh, embedder: id, dims: dimensions });
});
