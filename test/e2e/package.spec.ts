/**
 * The npm package in a host project (issue 15): `npm pack` gives the tarball `tessera`, which installs
 * offline into a temporary project; that project bundles its own service worker calling
 * `installTessera(self, {base: '/tessera/api', aliases: ['http://localhost:39300'], assetsUrl})` beside a
 * route of its own, and a page on `tessera/client` and the official SDK. In Chromium: the SDK works at
 * origin + '/tessera/api' and at the desktop address http://localhost:39300 (same data, nothing listens
 * there: the worker answers), the host's route and a plain file still work, streams arrive through the
 * WebSocket shim, and the data survives a reload and a worker stop. The page's Content-Security-Policy
 * (enforced: these tests do not bypass it) allows exactly what the README says a host needs (`connect-src
 * 'self' http://localhost:39300`), and an alias it does not allow is refused before the worker sees it.
 * `tessera/embedded` from the same package runs the same flow without a service worker under another base,
 * the SDK given its `fetch`, and its Worker stopped and started again. The package's declarations
 * type-check in the host with no `skipLibCheck` and none of the repository's dependencies; the package has
 * no `tessera` command (the Node host runs from the repository).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { withPackageLock } from '../support/package-lock.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { allowEndpoint, expect, stopServiceWorkers, test } from './fixtures.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const DESKTOP = 'http://localhost:39300';
const BASE = '/tessera/api';
const POLICY = `default-src 'self'; connect-src 'self' ${DESKTOP}`;
/** An alias the host worker answers but the page's policy does not allow. */
const UNLISTED = 'http://localhost:39301';

// The pages' own policy (POLICY) applies: Playwright's config bypasses CSP for the other specs.
test.use({ bypassCSP: false });

const HOST_WORKER = `
import { installTessera } from 'tessera/worker';
declare const self: ServiceWorkerGlobalScope;
installTessera(self, { base: '${BASE}', aliases: ['${DESKTOP}', '${UNLISTED}'], assetsUrl: '/tessera-assets/' });
self.addEventListener('install', (event) => event.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname === '/host/route') event.respondWith(new Response('the host answers'));
});
`;

const HOST_PAGE = `
import { installWebSocketShim, ready, register } from 'tessera/client';
import { startEmbedded } from 'tessera/embedded';
import * as sdk from '@pieces.app/pieces-os-client';
Object.assign(window, { host: { installWebSocketShim, ready, register, startEmbedded, sdk } });
`;

/** Host code type-checked against the package's declarations: a wrong option must not compile (types, not `any`). */
const TYPED_USES: Record<string, { code: string; lib: string }> = {
  'worker-types.ts': {
    lib: 'ES2022,WebWorker',
    code: `
import { installTessera, type TesseraOptions } from 'tessera/worker';
declare const scope: ServiceWorkerGlobalScope;
const options: TesseraOptions = { base: '/tessera/api', aliases: ['http://localhost:39300'], assetsUrl: '/tessera-assets/' };
installTessera(scope, options);
// @ts-expect-error: assetsUrl is a string or a URL
installTessera(scope, { assetsUrl: 5 });
`,
  },
  'client-types.ts': {
    lib: 'ES2022,DOM',
    code: `
import { createApi, installWebSocketShim, ready, register, type Asset, type SearchedAssets, type Seed } from 'tessera/client';
const registered: Promise<void> = register({ base: '/tessera/api', aliases: ['http://localhost:39300'] });
const restore: () => void = installWebSocketShim({ base: '/tessera/api' });
void ready(); void registered; void restore;
// @ts-expect-error: a base is a path
void register({ base: 42 });
// The wire models, as the service answers them.
const seed: Seed = { type: 'SEEDED_ASSET', asset: { application: { id: 'host', name: 'OPEN_SOURCE', version: '1', platform: 'WEB', onboarded: true, privacy: 'OPEN' }, format: { fragment: { string: { raw: 'x = 1' } } } } };
const api = createApi({ base: '/tessera/api' });
const created: Promise<Asset> = api.create(seed);
const found: Promise<SearchedAssets> = api.search('x');
export async function names(): Promise<string[]> {
  const asset = await created;
  const language: string | null | undefined = asset.formats.iterable?.[0]?.classification?.specific;
  void language;
  return (await found).iterable.map((hit) => hit.identifier);
}
// @ts-expect-error: a seed's type is one of the contract's
const wrong: Seed = { type: 'SEEDED_SNIPPET' };
void wrong;
`,
  },
  'embedded-types.ts': {
    lib: 'ES2022,DOM',
    code: `
import { startEmbedded, type Embedded } from 'tessera/embedded';
const embedded: Embedded = startEmbedded({ assetsUrl: '/tessera-assets/', aliases: ['http://localhost:39300'] });
const response: Promise<Response> = embedded.fetch('/api/assets');
void response;
// @ts-expect-error: aliases are strings
startEmbedded({ aliases: [39300] });
`,
  },
};

let dir: string;
let server: Server;
let origin: string;
/** The same files at another origin, where the page registers the package's own worker instead of the host's. */
let ownServer: Server;
let ownOrigin: string;
/** Again, where a module worker imports the package's `worker.js` as it is, with no bundler. */
let moduleServer: Server;
let moduleOrigin: string;

const MODULE_WORKER = `
import { installTessera } from './tessera-worker.js';
installTessera(self, { base: '/m/api', assetsUrl: '/tessera-assets/' });
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
`;

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.txt': 'text/plain; charset=utf-8', '.wasm': 'application/wasm' };

function serve(root: string): Promise<Server> {
  const created = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://host.test').pathname;
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    const info = file.startsWith(root) ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    // The package's own worker lives in its assets folder and controls the whole origin: the header allows that scope.
    const allowed = path.endsWith('/sw.js') ? { 'service-worker-allowed': '/' } : {};
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', ...allowed, ...(type.startsWith('text/html') ? { 'content-security-policy': POLICY } : {}) });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(created)));
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = await mkdtemp(join(tmpdir(), 'tessera-host-'));
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, stdio: 'pipe', env: { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' } });
  // The IDE example's build rewrites pkg/ too: one at a time (../support/package-lock.ts).
  await withPackageLock(async () => npm(['pack', '--pack-destination', dir], repoRoot));
  const tarball = (await readdir(dir)).find((name) => /^tessera-.*\.tgz$/.test(name));
  expect(tarball).toBeDefined();
  const host = join(dir, 'host');
  await mkdir(join(host, 'public'), { recursive: true });
  await writeFile(join(host, 'package.json'), JSON.stringify({ name: 'host', private: true, type: 'module' }));
  npm(['install', join(dir, tarball!)], host);

  const bundle = (contents: string, outfile: string, format: 'iife' | 'esm') =>
    build({
      stdin: { contents, resolveDir: host, loader: 'ts', sourcefile: outfile },
      // The SDK is the test's, from the repository; `tessera/…` only from the installed package.
      nodePaths: [join(repoRoot, 'node_modules')],
      bundle: true,
      format,
      platform: 'browser',
      target: 'es2022',
      outfile: join(host, 'public', outfile),
      logLevel: 'silent',
    });
  await bundle(HOST_WORKER, 'sw.js', 'iife');
  await bundle(HOST_PAGE, 'page.js', 'esm');
  await cp(join(host, 'node_modules', 'tessera', 'pkg', 'assets'), join(host, 'public', 'tessera-assets'), { recursive: true });
  await writeFile(join(host, 'public', 'index.html'), '<!doctype html><title>host</title><script type="module" src="/page.js"></script>');
  await writeFile(join(host, 'public', 'plain.txt'), 'a plain file\n');
  await cp(join(host, 'node_modules', 'tessera', 'pkg', 'worker.js'), join(host, 'public', 'tessera-worker.js'));
  await writeFile(join(host, 'public', 'sw-module.js'), MODULE_WORKER);
  server = await serve(join(host, 'public'));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ownServer = await serve(join(host, 'public'));
  ownOrigin = `http://127.0.0.1:${(ownServer.address() as AddressInfo).port}`;
  moduleServer = await serve(join(host, 'public'));
  moduleOrigin = `http://127.0.0.1:${(moduleServer.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => ownServer?.close(resolve));
  await new Promise((resolve) => moduleServer?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

declare global {
  interface Window {
    host: {
      register(options: { base?: string; aliases?: string[]; scriptUrl?: string }): Promise<void>;
      ready(): Promise<void>;
      installWebSocketShim(options: { base?: string; aliases?: string[] }): () => void;
      startEmbedded: typeof import('../../app/client/embedded.ts').startEmbedded;
      sdk: typeof import('@pieces.app/pieces-os-client');
    };
  }
}

test("the package's exports come with types that a host type-checks without skipLibCheck", async () => {
  const host = join(dir, 'host');
  // The host has none of the repository's packages: only its own, and tessera.
  expect((await readdir(join(host, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['tessera']);
  for (const [name, { code, lib }] of Object.entries(TYPED_USES)) {
    await writeFile(join(host, name), code);
    const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
    const args = ['--ignoreConfig', '--noEmit', '--strict', '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', '--lib', lib, '--types', '', name];
    const result = (() => {
      try {
        return execFileSync(tsc, args, { cwd: host, encoding: 'utf8' });
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(result, name).toBe('');
  }
});

test("the package holds the browser modes only: its tessera command says the Node host runs from a clone", async () => {
  const host = join(dir, 'host');
  const installed = join(host, 'node_modules', 'tessera');
  const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { bin?: unknown; dependencies?: unknown };
  expect(manifest.dependencies).toBeUndefined();
  // npm packs a command whatever `files` says: installed, it explains instead of failing on a missing module.
  const run = spawnSync(process.execPath, [join(host, 'node_modules', '.bin', 'tessera'), 'serve'], { encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('the Node host runs from a clone of the Tessera repository');
  expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find/);
  // Its files: the manifest, the README, the command and pkg/ (what scripts/package.ts builds), nothing of the sources.
  expect((await readdir(installed)).sort()).toEqual(['README.md', 'bin', 'package.json', 'pkg']);
  expect(await readdir(join(installed, 'bin'))).toEqual(['tessera.mjs']);
});

test('a host worker with installTessera: the SDK at its base and at the desktop address, its own route, streams, restarts', async ({ page }) => {
  test.setTimeout(120_000);
  allowEndpoint(origin);
  allowEndpoint(DESKTOP);
  // Refused by the page's policy before anything is sent (below); Chromium still reports the request.
  allowEndpoint(UNLISTED);
  await page.goto(`${origin}/`);
  await page.evaluate(async ({ BASE, DESKTOP }) => {
    await window.host.register({ base: BASE, aliases: [DESKTOP] });
    await window.host.ready();
  }, { BASE, DESKTOP });

  const created = await page.evaluate(async ({ seed, BASE }) => {
    const { AssetsApi, Configuration } = window.host.sdk;
    const assets = new AssetsApi(new Configuration({ basePath: `${location.origin}${BASE}` }));
    return (await assets.assetsCreateNewAsset({ seed: seed as never, transferables: false })).id;
  }, { seed: fragmentSeed(PYTHON_SNIPPET, { name: 'from the host page' }) as object, BASE });

  // The SDK with the desktop service's default basePath reads the same library.
  const listAt = (basePath: string) =>
    page.evaluate(async (basePath) => {
      const { AssetsApi, Configuration } = window.host.sdk;
      const snapshot = await new AssetsApi(new Configuration({ basePath })).assetsSnapshot({ transferables: false });
      return snapshot.iterable.map((asset) => [asset.id, asset.name]);
    }, basePath);
  expect(await listAt(DESKTOP)).toEqual([[created, 'from the host page']]);
  expect(await listAt(`${origin}${BASE}`)).toEqual([[created, 'from the host page']]);

  // What is not Tessera's falls through: the host's own route, a plain file, and /api (not an alias here).
  const text = (path: string) => page.evaluate(async (path) => {
    const response = await fetch(path);
    return `${response.status} ${await response.text()}`;
  }, path);
  expect(await text('/host/route')).toBe('200 the host answers');
  expect(await text('/plain.txt')).toBe('200 a plain file\n');
  expect(await text('/api/assets')).toBe('404 not found\n');
  expect(await text(`${BASE}/no-such-route`)).toMatch(/^404 .*route_not_found/);

  // An alias the worker answers but the page's connect-src does not list: the page's policy refuses it
  // before the worker sees it (so the README's policy is needed, and enforced here).
  const unlisted = await page.evaluate(async (UNLISTED) => {
    const violation = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (event) => resolve(`${event.effectiveDirective} ${event.blockedURI}`), { once: true }),
    );
    const outcome = await fetch(`${UNLISTED}/assets`).then((response) => `answered ${response.status}`, (error: unknown) => `refused ${(error as Error).name}`);
    return { outcome, violation: await violation };
  }, UNLISTED);
  expect(unlisted).toEqual({ outcome: 'refused TypeError', violation: `connect-src ${UNLISTED}/assets` });

  // A stream through the shim at the desktop address: its first frame, then the next write's.
  const streamed = await page.evaluate(async ({ seed, BASE, DESKTOP }) => {
    // The aliases given to register() are the shim's by default.
    window.host.installWebSocketShim({});
    const frames: string[] = [];
    const socket = new WebSocket(`${DESKTOP.replace('http:', 'ws:')}/assets/stream/identifiers`);
    const frame = () => new Promise<void>((resolve) => socket.addEventListener('message', (event) => (frames.push(String(event.data)), resolve()), { once: true }));
    await frame();
    const next = frame();
    const { AssetsApi, Configuration } = window.host.sdk;
    const id = (await new AssetsApi(new Configuration({ basePath: DESKTOP })).assetsCreateNewAsset({ seed: seed as never, transferables: false })).id;
    await next;
    socket.close();
    return { id, frames };
  }, { seed: fragmentSeed('SELECT 1;', { name: 'streamed' }) as object, BASE, DESKTOP });
  expect(streamed.frames[1]).toContain(streamed.id);

  // The data survives a reload and a stopped worker.
  await page.reload();
  await page.evaluate(async ({ BASE, DESKTOP }) => {
    await window.host.register({ base: BASE, aliases: [DESKTOP] });
    await window.host.ready();
  }, { BASE, DESKTOP });
  const both = [[created, 'from the host page'], [streamed.id, 'streamed']].sort();
  expect((await listAt(DESKTOP)).sort()).toEqual(both);
  await stopServiceWorkers(page);
  expect((await listAt(`${origin}${BASE}`)).sort()).toEqual(both);
  expect(await text('/host/route')).toBe('200 the host answers');
});

test("the package's own worker: register({base: '/x', scriptUrl}) answers under /x and nothing under /api", async ({ page }) => {
  test.setTimeout(60_000);
  allowEndpoint(ownOrigin);
  const requested: string[] = [];
  page.context().on('request', (request) => requested.push(request.url()));
  await page.goto(`${ownOrigin}/`);
  await page.evaluate(async () => {
    await window.host.register({ base: '/x', scriptUrl: '/tessera-assets/sw.js' });
    await window.host.ready();
  });
  const text = (path: string, body?: unknown) =>
    page.evaluate(
      async ({ path, body }) => {
        const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
        const response = await fetch(path, init);
        return `${response.status} ${await response.text()}`;
      },
      { path, body },
    );
  expect(await text('/x/.well-known/health')).toMatch(/^200 ok/);
  expect(await text('/x/assets/create?transferables=false', fragmentSeed(PYTHON_SNIPPET, { name: 'under x' }))).toMatch(/^200 /);
  expect(await text('/x/assets?transferables=false')).toContain('"name":"under x"');
  // Under /api the server answers (its plain 404): the worker took nothing there.
  expect(await text('/api/assets')).toBe('404 not found\n');
  expect(await text('/api/.well-known/health')).toBe('404 not found\n');
  // Its lazy files, the language model and the code vectors are its folder's (kept offline at install).
  expect(requested).toContainEqual(expect.stringMatching(new RegExp(`^${ownOrigin}/tessera-assets/lazy/flexsearch-[0-9a-f]{10}\\.js$`)));
  expect(requested).toContain(`${ownOrigin}/tessera-assets/models/vscode-languagedetection/model.json`);
  expect(requested).toContain(`${ownOrigin}/tessera-assets/models/code-vectors/python.tcv`);
  expect(await text('/x/embeddings')).toMatch(/^200 .*"kind":"code-vectors"/);
});

test("a module service worker imports the package's worker.js as it is", async ({ page }) => {
  test.setTimeout(60_000);
  allowEndpoint(moduleOrigin);
  await page.goto(`${moduleOrigin}/`);
  const health = await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw-module.js', { type: 'module', scope: '/' });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    const response = await fetch('/m/api/.well-known/health');
    return `${response.status} ${await response.text()}`;
  });
  expect(health).toMatch(/^200 ok/);
});

test("tessera/embedded from the package, no service worker: the SDK with fetchApi under its base and at the desktop address, streams, a stopped Worker, a reload", async ({ page }) => {
  test.setTimeout(90_000);
  allowEndpoint(origin);
  const start = () =>
    page.evaluate(async ({ BASE, DESKTOP }) => {
      const embedded = window.host.startEmbedded({ base: BASE, assetsUrl: '/tessera-assets/', aliases: [DESKTOP] });
      await embedded.ready();
      Object.assign(window, { embedded });
    }, { BASE, DESKTOP });
  const listAt = (basePath: string) =>
    page.evaluate(async (basePath) => {
      const { AssetsApi, Configuration } = window.host.sdk;
      const { embedded } = window as unknown as { embedded: { fetch: typeof fetch } };
      const snapshot = await new AssetsApi(new Configuration({ basePath, fetchApi: embedded.fetch })).assetsSnapshot({ transferables: false });
      return snapshot.iterable.map((asset) => [asset.id, asset.name]);
    }, basePath);
  /** What `embedded.fetch` answers for `url` (status and the start of the body), or how it fails. */
  const embeddedText = (url: string) =>
    page.evaluate(async (url) => {
      const { embedded } = window as unknown as { embedded: { fetch: typeof fetch } };
      return embedded.fetch(url).then(async (response) => `${response.status} ${(await response.text()).slice(0, 40)}`, (error: unknown) => `failed: ${(error as Error).message}`);
    }, url);
  await page.goto(`${origin}/`);
  await start();

  const streamed = await page.evaluate(async ({ seed, DESKTOP }) => {
    const { embedded } = window as unknown as { embedded: { fetch: typeof fetch; socket(url: string): WebSocket } };
    const frames: string[] = [];
    const socket = embedded.socket(`${DESKTOP.replace('http:', 'ws:')}/assets/stream/identifiers`);
    const frame = () => new Promise<void>((resolve) => socket.addEventListener('message', (event) => (frames.push(String(event.data)), resolve()), { once: true }));
    await frame();
    const next = frame();
    const { AssetsApi, Configuration } = window.host.sdk;
    const assets = new AssetsApi(new Configuration({ basePath: DESKTOP, fetchApi: embedded.fetch }));
    const id = (await assets.assetsCreateNewAsset({ seed: seed as never, transferables: false })).id;
    await next;
    socket.close();
    // A typo finds it: the Worker loaded its lazy typo index from the package's assets.
    const typo = (await assets.searchAssets({ query: 'argprase', transferables: false })).iterable.map((hit) => hit.identifier);
    return { id, frames, typo };
  }, { seed: fragmentSeed(PYTHON_SNIPPET, { name: 'embedded' }) as object, DESKTOP });
  expect(streamed.frames[1]).toContain(streamed.id);
  expect(streamed.typo).toEqual([streamed.id]);
  const stored = [[streamed.id, 'embedded']];
  expect(await listAt(`${origin}${BASE}`)).toEqual(stored);
  // The base is the one given: /api is not Tessera's here, and goes to the page's own fetch (the server's 404).
  expect(await embeddedText(`${origin}/api/assets`)).toBe('404 not found\n');
  expect(await embeddedText(`${origin}${BASE}/.well-known/health`)).toMatch(/^200 ok/);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

  // The Worker stopped: calls fail saying so; a new one started on the same page has the data.
  await page.evaluate(() => (window as unknown as { embedded: { terminate(): void } }).embedded.terminate());
  expect(await embeddedText(`${origin}${BASE}/.well-known/health`)).toBe('failed: tessera: the embedded worker was terminated');
  await start();
  expect(await listAt(`${origin}${BASE}`)).toEqual(stored);

  await page.reload();
  await start();
  expect(await listAt(DESKTOP)).toEqual(stored);
});
