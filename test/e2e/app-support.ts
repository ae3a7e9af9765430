/**
 * Helpers of the app specs: open the app as a person would (its page at `/`, by role and name only), and
 * fill a library through the HTTP API from the page.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/** Fails the test on any CSP violation or page error: call before the page loads, await the check at the end. */
export async function watchPage(page: Page): Promise<() => Promise<void>> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      ((window as unknown as { __violations: string[] }).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return async () => {
    const violations = await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);
    expect([...errors, ...violations]).toEqual([]);
  };
}

/** Opens the app and waits for the library list (the worker is ready and the list has loaded). */
export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('list', { name: 'Library' })).toBeAttached({ timeout: 15_000 });
  await expect(page.getByText('Loading…')).toHaveCount(0);
}

export interface SeedSpec {
  name: string;
  raw: string;
  tags?: string[];
  websites?: string[];
  language?: string;
}

/** Creates assets through `POST /api/assets/create` from the page; answers their ids, in order. */
export function createAssets(page: Page, specs: SeedSpec[]): Promise<string[]> {
  return page.evaluate(async (specs) => {
    const ids: string[] = [];
    for (const s of specs) {
      const seed = {
        asset: {
          application: { id: 'e2e', name: 'OPEN_SOURCE', version: '1', platform: 'WEB', onboarded: true, privacy: 'OPEN' },
          format: { fragment: { string: { raw: s.raw } }, ...(s.language && { classification: { specific: s.language } }) },
          metadata: {
            name: s.name,
            tags: (s.tags ?? []).map((text) => ({ text })),
            websites: (s.websites ?? []).map((url) => ({ url, name: new URL(url).host })),
          },
        },
      };
      const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(seed) });
      if (!response.ok) throw new Error(`create ${s.name}: ${response.status} ${await response.text()}`);
      ids.push(((await response.json()) as { id: string }).id);
    }
    return ids;
  }, specs);
}

/** The names the library list shows, top to bottom (the rendered rows). */
export function listedNames(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Library' }).getByRole('listitem').getByRole('button').allTextContents();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

export const PYTHON_FLAGS = `import argparse


def parse_args(argv=None):
    """Read the command line flags of the deploy tool."""
    parser = argparse.ArgumentParser(description="deploy")
    parser.add_argument("--env", default="staging")
    parser.add_argument("--dry-run", action="store_true")
    return parser.parse_args(argv)
`;

export const JS_RETRY = `export async function retryWithBackoff(task, attempts = 5) {
  // Run the task again after a growing delay when it fails.
  for (let i = 0; i < attempts; i++) {
    try {
      return await task();
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 2 ** i * 100));
    }
  }
  throw new Error('gave up');
}
`;

export const SQL_REVENUE = `SELECT customer_id, SUM(total) AS revenue
FROM invoices
GROUP BY customer_id
ORDER BY revenue DESC;
`;

export const GO_SERVER = `package main

import (
	"fmt"
	"net/http"
)

func main() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello")
	})
	http.ListenAndServe(":8080", nil)
}
`;

export const SAMPLE_LIBRARY: SeedSpec[] = [
  { name: 'Parse deploy flags', raw: PYTHON_FLAGS, tags: ['cli', 'python'], websites: ['https://docs.python.org/3/library/argparse.html'] },
  { name: 'Retry with backoff', raw: JS_RETRY, tags: ['async'] },
  { name: 'Revenue by customer', raw: SQL_REVENUE, tags: ['reports'] },
  { name: 'Hello HTTP server', raw: GO_SERVER, tags: ['http'], websites: ['https://pkg.go.dev/net/http'] },
];
