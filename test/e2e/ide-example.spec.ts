/**
 * The IDE example (examples/ide/) in Chromium, built from the package's public exports into the served
 * build (dist/examples/ide/) and driven as a user would: its own service worker installs Tessera under
 * `/tessera/api`; save a selection as a snippet (language detected), find it as you type, insert it at the
 * cursor in another file, see it among the snippets related to the open file, ask about a selection with
 * the answer streaming in.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { withPackageLock } from '../support/package-lock.ts';
// @ts-expect-error: a plain ES module script without types
import { buildIdeExample } from '../../examples/ide/build.mjs';

const IDE = '/examples/ide/';

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
