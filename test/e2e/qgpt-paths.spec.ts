/**
 * The `paths` query space of `/qgpt/relevance` in Chromium, through the official SDK's
 * `QGPTApi.relevance`: files the page writes into the origin-private file system (`/opfs/...`) and a
 * folder the page registers with `registerFolder()` (app/client/folders.ts, bundled here as it is) under
 * a name (`/<name>/...`). Headless Chromium has no folder picker, so the "granted folder" is an OPFS
 * subdirectory's handle: a real FileSystemDirectoryHandle, stored by the worker in IndexedDB and read
 * again after the worker is stopped (CDP). Every raw response the page received (the SDK's, and `/folders`,
 * Tessera's own, requested with the recording fetch) is checked against the contract.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { QGPTRelevanceInput, QGPTRelevanceOutput } from '@pieces.app/pieces-os-client';
import { build } from 'esbuild';
import { useSdkPage } from './contract-check.ts';
import { expect, stopServiceWorkers, test } from './fixtures.ts';

declare global {
  interface Window {
    TesseraFolders: typeof import('../../app/client/folders.ts');
  }
}

const PARSE_ARGS = `import argparse

def parse_args(argv):
    """Read the deploy tool's command-line flags."""
    parser = argparse.ArgumentParser(prog="deploy")
    parser.add_argument("--region", default="eu-west-1")
    return parser.parse_args(argv)
`;
const RETRY = `export async function withRetry(task, attempts = 3) {
  // Exponential backoff between attempts of a flaky network call.
  for (let i = 0; ; i++) {
    try { return await task(); } catch (error) { if (i + 1 >= attempts) throw error; await sleep(2 ** i * 100); }
  }
}
`;
const NOTES = '# Meeting notes\n\nThe deploy region moves to eu-central-1 next quarter; update the defaults.\n';
const DEPENDENCY = 'module.exports = function withRetry() { /* a dependency, never read */ };\n';

let foldersBundle: Promise<string> | undefined;
/** app/client/folders.ts as an IIFE defining `window.TesseraFolders` (main.ts does not expose it). */
function folders(): Promise<string> {
  return (foldersBundle ??= build({
    entryPoints: [fileURLToPath(new URL('../../app/client/folders.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'TesseraFolders',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text));
}

let page: Page;
useSdkPage(test, (p) => (page = p));

/** Writes files (path under the OPFS root -> text) from the page. */
function writeOpfs(files: Record<string, string>): Promise<void> {
  return page.evaluate(async (files) => {
    const root = await navigator.storage.getDirectory();
    for (const [path, text] of Object.entries(files)) {
      const names = path.split('/');
      let dir = root;
      for (const name of names.slice(0, -1)) dir = await dir.getDirectoryHandle(name, { create: true });
      const writable = await (await dir.getFileHandle(names.at(-1)!, { create: true })).createWritable();
      await writable.write(text);
      await writable.close();
    }
  }, files);
}

type Outcome = { ok: true; output: QGPTRelevanceOutput } | { ok: false; status: number; error: { status: number; code: string; message: string } };

/** `QGPTApi.relevance` in the page (`window.apis.qgpt`, through the recording fetch); a failure comes back as its status and error body. */
function relevance(input: QGPTRelevanceInput): Promise<Outcome> {
  return page.evaluate(async (raw: unknown) => {
    try {
      return { ok: true as const, output: await window.apis.qgpt.relevance({ qGPTRelevanceInput: raw as QGPTRelevanceInput }) };
    } catch (error) {
      const response = (error as { response?: Response }).response;
      if (!response) throw error;
      return { ok: false as const, status: response.status, error: (await response.json()).error };
    }
  }, input as unknown) as Promise<Outcome>;
}

/** The (path, snippet text) pairs of a successful relevance answer. */
function hits(outcome: Outcome): { path: string | undefined; text: string | undefined }[] {
  if (!outcome.ok) throw new Error(`relevance failed: ${outcome.status} ${outcome.error.message}`);
  return outcome.output.relevant.iterable.map((r) => ({ path: r.path ?? undefined, text: r.seed?.asset?.format?.fragment?.string?.raw ?? undefined }));
}

const OPFS_FILES = {
  'notes/deploy.py': PARSE_ARGS,
  'notes/js/retry.js': RETRY,
  'notes/meeting.md': NOTES,
  'notes/node_modules/retry/index.js': DEPENDENCY,
  'notes/logo.png': 'not text, by its extension',
};

test('an OPFS file, an OPFS folder: snippets from the files, each with its path', async () => {
  await writeOpfs(OPFS_FILES);

  const file = hits(await relevance({ query: 'command-line flags parser', paths: ['/opfs/notes/deploy.py'] }));
  expect(file.length).toBeGreaterThan(0);
  expect(file.every((h) => h.path === '/opfs/notes/deploy.py')).toBe(true);
  expect(file[0]!.text).toContain('def parse_args');

  const folder = hits(await relevance({ query: 'retry with exponential backoff', paths: ['opfs/notes/'] }));
  expect(folder[0]).toMatchObject({ path: '/opfs/notes/js/retry.js', text: expect.stringContaining('withRetry') });
  const paths = new Set(folder.map((h) => h.path));
  expect([...paths].every((p) => ['/opfs/notes/deploy.py', '/opfs/notes/js/retry.js', '/opfs/notes/meeting.md'].includes(p!))).toBe(true);

  const region = hits(await relevance({ query: 'deploy region', paths: ['/opfs/notes'] }));
  expect(['/opfs/notes/meeting.md', '/opfs/notes/deploy.py']).toContain(region[0]!.path);
});

test('a granted folder registered from the page: /<name>/ paths, also after a worker restart; removed, it is unreadable', async () => {
  await writeOpfs({ 'granted/src/retry.js': RETRY, 'granted/README.md': NOTES });
  await page.addScriptTag({ content: await folders() });
  const registered = await page.evaluate(async () => {
    const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle('granted');
    return window.TesseraFolders.registerFolder(handle, 'project');
  });
  expect(registered).toMatchObject({ name: 'project', path: '/project' });
  const listed = await page.evaluate(async () => (await window.recordingFetch('/api/folders')).json());
  expect(listed.iterable.map((f: { name: string }) => f.name)).toEqual(['project']);
  // The worker asks the handle itself whether it may read it (Settings shows a lapsed permission).
  expect(listed.iterable[0].permission).toBe('granted');

  const ask = { query: 'exponential backoff between attempts', paths: ['/project/src/retry.js'] };
  const before = hits(await relevance(ask));
  expect(before[0]).toMatchObject({ path: '/project/src/retry.js', text: expect.stringContaining('withRetry') });
  const whole = hits(await relevance({ query: 'meeting notes about the region', paths: ['/project'] }));
  expect(whole[0]!.path).toBe('/project/README.md');
  expect(whole.every((h) => ['/project/README.md', '/project/src/retry.js'].includes(h.path!))).toBe(true);

  await stopServiceWorkers(page);
  expect(hits(await relevance(ask))).toEqual(before);

  const removed = await page.evaluate(async () => (await window.recordingFetch('/api/folders/project', { method: 'DELETE' })).status);
  expect(removed).toBe(204);
  const gone = await relevance(ask);
  expect(gone).toMatchObject({ ok: false, status: 404, error: { code: 'path_unreadable' } });
  expect(!gone.ok && gone.error.message).toMatch(/'\/project\/src\/retry\.js'.*no folder named 'project' is registered/);
});

test('unreadable and malformed paths are 4xx naming the path; paths with another space is a 422', async () => {
  await writeOpfs(OPFS_FILES);
  const cases: [string, number, RegExp][] = [
    ['/opfs/notes/missing.py', 404, /'\/opfs\/notes' has no entry named 'missing\.py'/],
    ['/opfs/notes/deploy.py/inner', 404, /is a file, not a folder/],
    ['/opfs/notes/logo.png', 404, /not a text file/],
    ['/nowhere/x.py', 404, /no folder named 'nowhere' is registered/],
    ['/opfs/../secrets', 400, /'\.\.' is not allowed/],
  ];
  for (const [path, status, why] of cases) {
    const outcome = await relevance({ query: 'parse args', paths: [path] });
    expect(outcome, path).toMatchObject({ ok: false, status });
    if (outcome.ok) continue;
    expect(outcome.error.message).toContain(`'${path}'`);
    expect(outcome.error.message).toMatch(why);
  }
  // One unreadable path among readable ones fails the whole request, naming it.
  const mixed = await relevance({ query: 'parse args', paths: ['/opfs/notes/deploy.py', '/opfs/nope'] });
  expect(mixed).toMatchObject({ ok: false, status: 404, error: { message: expect.stringContaining("'/opfs/nope'") } });
  // A granted folder deleted after registration: its handle is stale.
  await page.addScriptTag({ content: await folders() });
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    await window.TesseraFolders.registerFolder(await root.getDirectoryHandle('notes'), 'stale');
    await root.removeEntry('notes', { recursive: true });
  });
  const stale = await relevance({ query: 'parse args', paths: ['/stale/deploy.py'] });
  expect(stale).toMatchObject({ ok: false, status: 404, error: { message: expect.stringMatching(/'\/stale\/deploy\.py'.*the folder registered as 'stale' no longer exists/) } });

  const both = await relevance({ query: 'parse args', paths: ['/opfs/notes'], options: { database: true } } as QGPTRelevanceInput);
  expect(both).toMatchObject({ ok: false, status: 422 });
});
