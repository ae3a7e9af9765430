/**
 * The optional embeddings endpoint in Chromium, against the service worker: configured in Settings (the
 * "Embeddings endpoint" card), relevance embeds the library and the query with the stand-in on localhost
 * (test/support/chat-server.ts answers `/v1/embeddings`), and when the stand-in fails relevance still
 * answers, from the built-in embedder, and Settings says why.
 */
import type { Page } from '@playwright/test';
import { createAssets, openApp, SAMPLE_LIBRARY, watchPage } from './app-support.ts';
import { allowedChatServers, expect, test } from './fixtures.ts';

const startStandIn = allowedChatServers();

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** POST /api/qgpt/relevance over the library, from the page: the status and the first asset's id. */
function relevance(page: Page, query: string): Promise<{ status: number; first?: string }> {
  return page.evaluate(async (query) => {
    const response = await fetch('/api/qgpt/relevance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, options: { database: true } }) });
    const body = await response.json();
    return { status: response.status, first: body.relevant?.iterable?.[0]?.asset?.id };
  }, query);
}

const getJson = (page: Page, path: string) => page.evaluate((path) => fetch(path).then((r) => r.json()), path);

test('relevance embeds with the endpoint set in Settings; when it fails, relevance still answers and Settings says why', async ({ page }) => {
  const check = await watchPage(page);
  const server = await startStandIn();
  await openApp(page);
  const ids = await createAssets(page, SAMPLE_LIBRARY);

  await nav(page, 'Settings').click();
  const endpoint = card(page, 'Embeddings endpoint');
  await endpoint.getByRole('textbox', { name: 'Endpoint URL' }).fill(server.url);
  await endpoint.getByRole('textbox', { name: 'Model' }).fill('stand-in');
  await endpoint.getByRole('button', { name: 'Save embeddings endpoint' }).click();
  await expect(endpoint.getByRole('status')).toHaveText('Saved. The library is embedded again with this endpoint.');
  await expect(card(page, 'Embeddings')).toContainText(`The embeddings endpoint (endpoint:stand-in@${server.url})`);
  await endpoint.getByRole('button', { name: 'Test connection' }).click();
  await expect(endpoint.getByRole('status')).toHaveText(new RegExp(`^Connected: stand-in at ${server.url} answered a 16-dimension vector in \\d+ ms\\.$`));

  expect(await relevance(page, 'retry a task with exponential backoff')).toEqual({ status: 200, first: ids[1] });
  const inputs = server.requests.filter((r) => r.path === '/v1/embeddings').map((r) => r.body.input as string[]);
  expect(inputs.flat()).toContain('retry a task with exponential backoff');
  expect(await getJson(page, '/api/embeddings/library')).toMatchObject({ embedder: `endpoint:stand-in@${server.url}`, embedded: 4 });

  server.mode = 'error500';
  expect(await relevance(page, 'sum revenue by customer')).toEqual({ status: 200, first: ids[2] });
  const builtIn = (await getJson(page, '/api/embeddings')) as { id: string };
  expect(builtIn).toMatchObject({ kind: 'code-vectors', endpoint: { status: 'failed', error: 'it answered HTTP 500' } });
  expect(await getJson(page, '/api/embeddings/library')).toMatchObject({ embedder: builtIn.id, embedded: 4 });

  await page.reload();
  await expect(card(page, 'Embeddings')).toContainText(`the embeddings endpoint stand-in at ${server.url} failed (it answered HTTP 500)`);
  await card(page, 'Embeddings endpoint').getByRole('button', { name: 'Remove' }).click();
  await expect(card(page, 'Embeddings endpoint').getByRole('status')).toHaveText('Removed: the built-in embedder makes the vectors again.');
  await expect(card(page, 'Embeddings')).toContainText("Tessera's code vectors with the hashing embedder (built in)");
  await check();
});
