/**
 * Backup and restore in Chromium, through the service worker and real IndexedDB: a library (assets with
 * text and image bytes, tags, websites, annotations, activities, a conversation, vectors) is backed up with
 * `GET /api/backup` and restored with `POST /api/backup/restore` in a fresh browser profile, where every
 * listing is identical; a truncated copy is refused there with a 400 and changes nothing.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { GO_SNIPPET, PNG_BYTES, PYTHON_SNIPPET, fileSeed, fragmentSeed } from '../support/seeds.ts';

async function fetchJson(page: Page, path: string, init?: { method: string; body?: string }) {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, init);
      return { status: response.status, body: await response.json() };
    },
    { path, init },
  );
}

/** Every listing that shows what the library holds, once the vectors are up to date. */
async function listings(page: Page) {
  await fetchJson(page, '/api/embeddings/library', { method: 'POST' });
  await expect
    .poll(async () => {
      const { body } = await fetchJson(page, '/api/embeddings/library');
      return !body.running && body.pending === 0 ? body.embedded : -1;
    })
    .toBeGreaterThan(0);
  const assets = (await fetchJson(page, '/api/assets?transferables=true&pseudo=true')).body;
  const each: Record<string, unknown> = {};
  for (const { id } of assets.iterable as { id: string }[]) {
    each[id] = {
      formats: (await fetchJson(page, `/api/asset/${id}/formats`)).body,
      activities: (await fetchJson(page, `/api/asset/${id}/activities`)).body,
      conversations: (await fetchJson(page, `/api/asset/${id}/conversations`)).body,
    };
  }
  const vectors = (await fetchJson(page, '/api/embeddings/library')).body;
  return {
    assets,
    each,
    tags: (await fetchJson(page, '/api/tags')).body,
    websites: (await fetchJson(page, '/api/websites')).body,
    vectors: { embedder: vectors.embedder, embedded: vectors.embedded, snippets: vectors.snippets },
    search: (await fetchJson(page, '/api/assets/search?query=parse&transferables=false')).body.iterable.map((r: { asset: { id: string } }) => r.asset.id),
  };
}

test('a backup restored into a fresh profile gives identical listings; a truncated one is refused with nothing changed', async ({ appPage: page, browser }) => {
  const seeds = [
    fragmentSeed(PYTHON_SNIPPET, {
      name: 'parse_args',
      tags: [{ text: 'cli' }],
      websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse docs' }],
      annotations: [{ type: 'DESCRIPTION', text: 'Parses CLI flags.' }],
    }),
    fragmentSeed(GO_SNIPPET, { name: 'hello' }),
    fileSeed({ bytes: { raw: PNG_BYTES } }),
  ];
  for (const seed of seeds) expect((await fetchJson(page, '/api/assets/create', { method: 'POST', body: JSON.stringify(seed) })).status).toBe(200);
  // A stored conversation: one relevance exchange over the stream's HTTP path.
  await page.evaluate(async () => {
    const response = await fetch('/api/qgpt/stream', {
      method: 'POST',
      body: JSON.stringify({ relevance: { query: 'parse arguments', options: { database: true } }, conversation: 'conv-e2e' }),
    });
    await response.text();
  });
  const before = await listings(page);
  expect(before.assets.iterable).toHaveLength(3);

  const file = await page.evaluate(async () => {
    const response = await fetch('/api/backup');
    return { status: response.status, disposition: response.headers.get('content-disposition'), text: await response.text() };
  });
  expect(file.status).toBe(200);
  expect(file.disposition).toMatch(/^attachment; filename="tessera-backup-\d{4}-\d{2}-\d{2}\.ndjson"$/);

  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto('/');
    await other.evaluate(() => window.tessera.ready());
    expect((await fetchJson(other, '/api/assets')).body.iterable).toEqual([]);

    const truncated = await fetchJson(other, '/api/backup/restore', { method: 'POST', body: file.text.slice(0, file.text.length - 200) });
    expect(truncated.status).toBe(400);
    expect(truncated.body.error.code).toBe('damaged_backup');
    expect((await fetchJson(other, '/api/assets')).body.iterable).toEqual([]);

    const restored = await fetchJson(other, '/api/backup/restore', { method: 'POST', body: file.text });
    expect(restored.status).toBe(200);
    expect(restored.body.stores.assets).toEqual({ added: 3, replaced: 0, kept: 0, removed: 0, skipped: 0 });
    expect(await listings(other)).toEqual(before);
  } finally {
    await fresh.close();
  }
});
