/**
 * axe-core on every view of the app, in the light and the dark theme: no serious or critical violation
 * (contrast, names, roles, landmarks). The views are reached by role and name, as a person would.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createAssets, openApp, SAMPLE_LIBRARY } from './app-support.ts';
import { expect, test } from './fixtures.ts';

async function seriousViolations(page: Page, view: string): Promise<string[]> {
  // Legacy mode runs axe.run in the page itself: the default opens a blank page for every analysis, to
  // merge the results of frames, and this page has none (a third off the time of these tests).
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).setLegacyMode().analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${view}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every view passes axe in the ${scheme} theme`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    const ids = await createAssets(page, SAMPLE_LIBRARY);
    await expect(page.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(SAMPLE_LIBRARY.length);
    const found: string[] = [];

    found.push(...(await seriousViolations(page, 'library')));
    await page.getByRole('searchbox', { name: 'Search' }).fill('retry');
    await expect(page.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(1);
    found.push(...(await seriousViolations(page, 'search results')));
    await page.getByRole('searchbox', { name: 'Search' }).fill('');

    await page.getByRole('list', { name: 'Library' }).getByRole('button', { name: 'Parse deploy flags' }).click();
    await expect(page.getByRole('code').locator('span').first()).toBeVisible();
    found.push(...(await seriousViolations(page, 'asset')));
    await page.getByRole('button', { name: 'Export' }).click();
    found.push(...(await seriousViolations(page, 'export menu')));
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await seriousViolations(page, 'delete dialog')));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`/#/asset/${ids[1]}/edit`);
    await expect(page.getByRole('textbox', { name: 'Content' })).toContainText('retryWithBackoff');
    found.push(...(await seriousViolations(page, 'edit')));

    await page.getByRole('button', { name: /^New/ }).click();
    await expect(page.getByRole('textbox', { name: 'Content' })).toBeVisible();
    found.push(...(await seriousViolations(page, 'new')));

    await page.getByRole('navigation').getByRole('link', { name: 'Ask' }).click();
    await expect(page.getByRole('textbox', { name: 'Question' })).toBeVisible();
    found.push(...(await seriousViolations(page, 'ask')));

    await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    found.push(...(await seriousViolations(page, 'settings')));

    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
    found.push(...(await seriousViolations(page, 'command palette')));

    expect(found).toEqual([]);
  });
}
