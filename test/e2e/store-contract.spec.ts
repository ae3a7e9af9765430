/**
 * The Store contract (worker/core/store/contract.ts) on real IndexedDB in Chromium: `IdbStore` from
 * worker/browser/idb-store.ts, one Playwright test per contract case. A small entry bundled with
 * esbuild exposes `runStoreCase(name)` in the page; every `open()` gets a database of its own and
 * `reopen(store)` closes the store and opens the same database again, as a restarted worker would.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { storeContract } from '../../worker/core/store/contract.ts';
import { CLIENT_PAGE, expect, test } from './fixtures.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Runs in the page; bundled from this source with the contract and IdbStore. */
const ENTRY = `
import { storeContract } from './worker/core/store/contract.ts';
import { IdbStore } from './worker/browser/idb-store.ts';

const names = new WeakMap();
let count = 0;

async function openNamed(name) {
  const store = await IdbStore.open(name);
  names.set(store, name);
  return store;
}

const harness = {
  open: () => openNamed('store-contract-' + Date.now().toString(36) + '-' + (count++) + '-' + Math.random().toString(36).slice(2)),
  async reopen(store) {
    const name = names.get(store);
    if (!name) throw new Error('reopen: not a store this harness opened');
    store.close();
    return openNamed(name);
  },
};

export async function runStoreCase(name) {
  const found = storeContract.find((c) => c.name === name);
  if (!found) return { ok: false, message: 'no store contract case named ' + JSON.stringify(name) };
  try {
    await found.run(harness);
    return { ok: true, message: '' };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? (error.stack || error.message) : String(error) };
  }
}
`;

let bundle: Promise<string> | undefined;

function storeBundle(): Promise<string> {
  return (bundle ??= build({
    absWorkingDir: repoRoot,
    stdin: { contents: ENTRY, resolveDir: repoRoot, sourcefile: 'store-contract-entry.js', loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'TesseraStoreContract',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text));
}

declare global {
  interface Window {
    TesseraStoreContract: { runStoreCase(name: string): Promise<{ ok: boolean; message: string }> };
  }
}

test.describe('Store contract on IndexedDB (IdbStore)', () => {
  expect(storeContract.length).toBeGreaterThan(0);
  for (const { name } of storeContract) {
    test(name, async ({ page }) => {
      // a page of the origin, for its IndexedDB; the service worker plays no part
      await page.goto(CLIENT_PAGE);
      await page.addScriptTag({ content: await storeBundle() });
      const result = await page.evaluate((name) => window.TesseraStoreContract.runStoreCase(name), name);
      expect(result.message, `store contract case failed: ${result.message}`).toBe('');
      expect(result.ok).toBe(true);
    });
  }
});
