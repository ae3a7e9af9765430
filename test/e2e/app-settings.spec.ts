/**
 * Settings as a person uses it, in Chromium, found by role and name only, with the page's CSP enforced:
 * storage used and available and "Keep my data"; "Back up" downloads a dated file that restores, through
 * the "Restore" file input and its summary, into a fresh browser profile with every asset named as before;
 * a truncated file is refused with nothing changed; the reminder to back up, gone once backed up.
 */
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { createAssets, listedNames, openApp, SAMPLE_LIBRARY, watchPage, type SeedSpec } from './app-support.ts';
import { expect, test } from './fixtures.ts';

// The page's own Content-Security-Policy applies here, as in app.spec.ts.
test.use({ bypassCSP: false });
// Each test installs the worker and fills a library first: near the 30 s default on a loaded machine.
test.describe.configure({ timeout: 60_000 });

/** The sample library and names a restore must keep exactly (quotes, markup, non-ASCII, an emoji). */
const LIBRARY: SeedSpec[] = [
  ...SAMPLE_LIBRARY,
  { name: 'Grüße “quoted” <b>not bold</b> 🚀', raw: 'print("grüße")\n', language: 'py', tags: ['i18n'] },
];

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const section = (page: Page, name: string) => page.getByRole('region', { name });

async function openSettings(page: Page): Promise<void> {
  await nav(page, 'Settings').click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
}

/** Clicks "Back up" and answers the download with its file's text. */
async function backUp(page: Page): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Back up' }).click()]);
  const text = await readFile(await download.path(), 'utf8');
  return { download, text };
}

/** The file without its last line (the trailer with the counts and checksum). */
function withoutLastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  expect(JSON.parse(lines.at(-1)!)).toHaveProperty('trailer');
  return `${lines.slice(0, -1).join('\n')}\n`;
}

/** What Settings says of a damaged file. */
const REFUSED = /^This file cannot be restored: The backup is damaged: .+ Nothing was (changed|restored)\.$/;

const assetCount = (page: Page) => page.evaluate(() => fetch('/api/assets').then((r) => r.json()).then((b: { iterable: unknown[] }) => b.iterable.length));

test('storage used and available; Keep my data answers with the browser’s decision', async ({ page }) => {
  const check = await watchPage(page);
  await openApp(page);
  await openSettings(page);
  const storage = section(page, 'Storage');
  await expect(storage).toContainText(/\d+(\.\d)? (B|KB|MB|GB|TB) used of \d+(\.\d)? (B|KB|MB|GB|TB) available to this site\./);
  await storage.getByRole('button', { name: 'Keep my data' }).click();
  // Headless Chromium may grant or decline: either way the result is said.
  await expect(storage.getByRole('status')).toHaveText(/^(The browser will keep this data unless you delete it\.|The browser declined for now .+)$/);
  await check();
});

test('the reminder to back up shows until a backup is made; the download is named with the date and opens with the format header', async ({ page }) => {
  const check = await watchPage(page);
  await openApp(page);
  await openSettings(page);
  const backup = section(page, 'Backup');
  const reminder = backup.getByRole('note');
  // An empty library needs no reminder.
  await expect(page.getByRole('button', { name: 'Back up' })).toBeVisible();
  await expect(reminder).toHaveCount(0);

  await createAssets(page, LIBRARY);
  await expect(reminder).toContainText('has not been backed up from this browser yet');
  await expect(reminder).toContainText('back it up');

  const before = new Date();
  const { download, text } = await backUp(page);
  const after = new Date();
  expect(download.suggestedFilename()).toMatch(/^tessera-backup-\d{4}-\d{2}-\d{2}\.ndjson$/);
  // Today's date (UTC; either side of midnight when the backup ran across it).
  expect([before, after].map((d) => `tessera-backup-${d.toISOString().slice(0, 10)}.ndjson`)).toContain(download.suggestedFilename());
  const header = JSON.parse(text.slice(0, text.indexOf('\n')));
  expect(header).toMatchObject({ format: 'tessera-backup', version: expect.any(Number) });
  await expect(reminder).toHaveCount(0);
  await expect(backup).toContainText('Last backup:');
  // It stays gone after a reload (the time of the backup is kept).
  await page.reload();
  await expect(page.getByRole('button', { name: 'Back up' })).toBeVisible();
  await expect(backup).toContainText('Last backup:');
  await expect(reminder).toHaveCount(0);
  await check();
});

test('Back up, then Restore into a fresh profile: a summary first, then every asset with its name; a truncated file is refused with nothing changed', async ({ page, browser }, testInfo) => {
  // Two profiles, each installing the worker, and several restores: more than the file's timeout when loaded.
  test.setTimeout(120_000);
  const check = await watchPage(page);
  await openApp(page);
  await createAssets(page, LIBRARY);
  await expect(page.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(LIBRARY.length);
  const names = (await listedNames(page)).sort();
  expect(names).toEqual(LIBRARY.map((s) => s.name).sort());
  await openSettings(page);
  const { download } = await backUp(page);
  // Saved under the name offered, as the browser would.
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  // A later backup with one more asset, cut before its trailer (every record whole, the end missing): were
  // any of it applied, that asset would show.
  await createAssets(page, [{ name: 'Only in the later backup', raw: 'SELECT 1;\n', language: 'sql' }]);
  const later = (await backUp(page)).text;
  const truncated = withoutLastLine(later);
  expect(truncated).toContain('Only in the later backup');

  const fresh = await browser.newContext({ bypassCSP: false });
  try {
    const other = await fresh.newPage();
    const checkOther = await watchPage(other);
    await openApp(other);
    await expect(other.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(0);
    await openSettings(other);
    const backup = section(other, 'Backup');
    const restoreInput = other.getByLabel('Restore');

    await restoreInput.setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/x-ndjson', buffer: Buffer.from(truncated) });
    await expect(backup.getByRole('status')).toHaveText(REFUSED);
    await expect(other.getByRole('dialog')).toHaveCount(0);
    expect(await assetCount(other)).toBe(0);

    await restoreInput.setInputFiles(file);
    const dialog = other.getByRole('dialog', { name: 'Restore this backup?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(download.suggestedFilename());
    await expect(dialog).toContainText(`assets: ${LIBRARY.length} new, 0 replaced`);
    // The summary is a dry run: nothing is restored before the confirmation, nor after Cancel.
    expect(await assetCount(other)).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect(await assetCount(other)).toBe(0);
    await restoreInput.setInputFiles(file);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await expect(backup.getByRole('status')).toHaveText(/^Restored: .*assets: \d+ new, 0 replaced/);
    await expect(backup.getByRole('status')).toContainText(`assets: ${LIBRARY.length} new, 0 replaced`);

    await nav(other, 'Library').click();
    await expect(other.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(LIBRARY.length);
    expect((await listedNames(other)).sort()).toEqual(names);

    // A truncated file into a library that has assets: refused, the library as it was.
    await openSettings(other);
    await restoreInput.setInputFiles({ name: 'later.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(truncated) });
    await expect(backup.getByRole('status')).toHaveText(REFUSED);
    expect(await assetCount(other)).toBe(LIBRARY.length);
    await nav(other, 'Library').click();
    await expect(other.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(LIBRARY.length);
    expect((await listedNames(other)).sort()).toEqual(names);
    await checkOther();
  } finally {
    await fresh.close();
  }
  await check();
});
