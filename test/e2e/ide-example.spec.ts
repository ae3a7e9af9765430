/**
 * The IDE example (examples/ide/) in Chromium, built from the package's public exports into the served
 * build (dist/examples/ide/) and driven as a user would: its own service worker installs Tessera under
 * `/tessera/api`; save a selection as a snippet (language detected), find it as you type, insert it at the
 * cursor in another file, see it among the snippets related to the open file, ask about a selection (the
 * extractive answer; then a chat model's, an OpenAI-compatible stand-in, whose answer grows in the Answer
 * region step by step before the status says Answered). The page's own Content-Security-Policy applies.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { allowedChatServers, expect, test } from './fixtures.ts';
import { withPackageLock } from '../support/package-lock.ts';
// @ts-expect-error: a plain ES module script without types
import { buildIdeExample } from '../../examples/ide/build.mjs';

const IDE = '/examples/ide/';

// The page's own policy (index.html) applies: Playwright's config bypasses CSP for the other specs.
test.use({ bypassCSP: false });

const startChat = allowedChatServers();

test.beforeAll(async () => {
  // Builds the package first (npm run package), which takes a while on a loaded machine.
  test.setTimeout(180_000);
  // package.spec.ts's npm pack rewrites pkg/ too: one at a time.
  await withPackageLock(() => (buildIdeExample as (out: string) => Promise<string>)(fileURLToPath(new URL('../../dist/examples/ide', import.meta.url))));
});

const editor = (page: Page) => page.getByRole('textbox', { name: 'Editor' });

/** Puts the cursor at the start of the line holding `text` and selects `lines` lines from there. */
async function selectLines(page: Page, text: string, lines: number): Promise<void> {
  await editor(page).getByText(text).first().click();
  await page.keyboard.press('Home');
  for (let i = 0; i < lines; i++) await page.keyboard.press('Shift+ArrowDown');
}

test('save a selection, find it as you type, insert it in another file, see it related, ask about a selection', async ({ page }) => {
  await page.goto(IDE);
  const status = page.getByRole('status');
  await expect(status).toHaveText('Tessera ready', { timeout: 20_000 });
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/examples\/ide\/sw\.js$/);

  // Save the retry() function of server.ts: Tessera names it and detects TypeScript.
  await selectLines(page, 'export function retry', 3);
  await page.getByRole('button', { name: 'Save selection' }).click();
  await expect(status).toHaveText(/^Saved “.+” \(ts\)$/);
  const name = /^Saved “(.+)” /.exec((await status.textContent())!)![1]!;

  // It is among the snippets related to the open file.
  await expect(page.getByRole('list', { name: 'Related snippets' }).getByRole('button', { name: `Insert ${name}` })).toBeVisible();

  // Found as you type, and inserted at the cursor in another file.
  await page.getByRole('combobox', { name: 'File' }).selectOption('cli.py');
  await expect(editor(page)).not.toContainText('export function retry');
  await editor(page).click();
  await page.keyboard.press('Control+End');
  await page.getByRole('searchbox', { name: 'Search snippets' }).pressSequentially('retr', { delay: 30 });
  await page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: `Insert ${name}` }).click();
  await expect(status).toHaveText(`Inserted “${name}”`);
  await expect(editor(page)).toContainText('export function retry<T>(attempts: number');
  await expect(editor(page)).toContainText('def parse_args(argv):');

  // Ask about parse_args(): the extractive answer streams into the Answer region.
  await selectLines(page, 'def parse_args(argv):', 6);
  await page.getByRole('textbox', { name: 'Question' }).fill('how are the command line arguments parsed?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(status).toHaveText('Answered', { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Answer' })).toContainText('parse_args');
});

test('the answer of a chat model streams into the Answer region, growing step by step before Answered', async ({ page }) => {
  // The stand-in sends its reply in many small pieces, apart in time, as a model does.
  const server = await startChat({ reply: 'retry() calls fn again after each failure, up to the given number of attempts. '.repeat(4), chunkSize: 6, delayMs: 30 });
  await page.goto(IDE);
  const status = page.getByRole('status');
  await expect(status).toHaveText('Tessera ready', { timeout: 20_000 });
  const configured = await page.evaluate(async (url) => {
    const response = await fetch('/tessera/api/qgpt/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, model: 'stand-in' }) });
    return response.status;
  }, server.url);
  expect(configured).toBe(200);

  // Every change of the Answer region, with what the status said then.
  await page.evaluate(() => {
    const region = document.querySelector('[role="region"][aria-label="Answer"]')!;
    const said = document.querySelector('[role="status"]')!;
    const steps: { length: number; status: string }[] = [];
    new MutationObserver(() => steps.push({ length: region.textContent!.length, status: said.textContent! })).observe(region, { childList: true, characterData: true, subtree: true });
    Object.assign(window, { answerSteps: steps });
  });
  await selectLines(page, 'export function retry', 3);
  await page.getByRole('textbox', { name: 'Question' }).fill('what does retry do?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(status).toHaveText('Answered', { timeout: 30_000 });
  // The model's words, then the sources line Tessera adds.
  const region = page.getByRole('region', { name: 'Answer' });
  await expect(region).toContainText(server.reply);
  const final = (await region.textContent())!;

  const steps = await page.evaluate(() => (window as unknown as { answerSteps: { length: number; status: string }[] }).answerSteps);
  const growing = steps.filter((step) => step.length > 0 && step.status !== 'Answered').map((step) => step.length);
  // Parts of the model's reply, shown before the whole of it (the sources line comes after it as one more step).
  const partial = new Set(growing.filter((length) => length < server.reply.length));
  expect(partial.size, `lengths seen before Answered: ${growing.join(', ')}`).toBeGreaterThan(1);
  expect(growing).toEqual([...growing].sort((a, b) => a - b));
  expect(growing.at(-1)).toBe(final.length);
  // The model was asked about the selection.
  expect(server.requests.some((request) => JSON.stringify(request.body?.messages ?? '').includes('export function retry'))).toBe(true);
});
