/**
 * Backup and restore of 10,000 assets in Chromium, through the built service worker and real IndexedDB
 * (test/bench/run.ts calls `runBackupBrowserBench`; test/bench/backup.ts is the same in Node):
 *
 *  - a fresh context imports 9,999 generated snippets and one 1 MB binary file (`POST /api/assets/import`,
 *    1,000 a request) and embeds them (`POST /api/embeddings/library`, waited for);
 *  - backup: the page reads `GET /api/backup` to its end as a download would (counting bytes, keeping the
 *    chunks in a Blob, which the browser holds outside the JS heap);
 *  - restore: another fresh context (a new profile) posts that file to `POST /api/backup/restore`;
 *  - each timed from `fetch()` until the body is read, with the service worker's memory (CDP
 *    `Runtime.getHeapUsage` on the worker's target: the JS heap plus ArrayBuffer backing stores, sampled
 *    every 50 ms, above the value before) and the page's, as peaks. IndexedDB's own memory (another
 *    process) is not in these figures.
 *
 * Runs on its own too:
 *   npx vite build --outDir /tmp/tessera-bench-dist
 *   npx esbuild test/bench/backup-browser.ts --bundle --platform=node --format=esm --packages=external --outfile=.bench/backup-browser.mjs
 *   node .bench/backup-browser.mjs --dist /tmp/tessera-bench-dist [--assets 10000]
 * (BENCH_BACKUP_PORT sets the port, default 4187.)
 */
import { basename } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.ts';
import { APPLICATION } from '../support/seeds.ts';
import { SnippetGen } from './library-snippets.ts';
import { argValue, distFolder, repoRoot, serveBuild } from './server.ts';

export interface BackupBrowserResult {
  assets: number;
  fileMB: number;
  importSeconds: number;
  embedSeconds: number;
  backupSeconds: number;
  backupWorkerPeakMB: number;
  backupPagePeakMB: number;
  restoreSeconds: number;
  restoreWorkerPeakMB: number;
  restorePagePeakMB: number;
  restored: number;
}

const FILE_ROUTE = '/__bench/backup-file';

interface HeapUsage {
  usedSize: number;
  backingStorageSize?: number;
}

/** The JS heap and the ArrayBuffer backing stores outside it (where byte chunks live). */
const heapOf = (usage: HeapUsage) => usage.usedSize + (usage.backingStorageSize ?? 0);

/** Heap samples of one target (the page, or the service worker through the browser's CDP session). */
class HeapProbe {
  private timer: ReturnType<typeof setInterval> | undefined;
  private base = 0;
  private peak = 0;

  private constructor(private usage: () => Promise<number>) {}

  static async page(page: Page): Promise<HeapProbe> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    return new HeapProbe(async () => heapOf(await cdp.send('Runtime.getHeapUsage')));
  }

  /** The service worker of the page's context, reached through the browser's CDP session. */
  static async worker(browser: Browser, page: Page): Promise<HeapProbe> {
    const cdp: CDPSession = await browser.newBrowserCDPSession();
    const pageSession = await page.context().newCDPSession(page);
    const { targetInfo } = await pageSession.send('Target.getTargetInfo');
    await pageSession.detach();
    const { targetInfos } = await cdp.send('Target.getTargets');
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.browserContextId === targetInfo.browserContextId);
    if (!sw) throw new Error('backup bench: no service worker target for the page');
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false });
    let id = 0;
    const pending = new Map<number, (result: HeapUsage) => void>();
    cdp.on('Target.receivedMessageFromTarget', (event) => {
      const message = JSON.parse(event.message) as { id?: number; result?: HeapUsage };
      if (message.id !== undefined) pending.get(message.id)?.(message.result ?? { usedSize: 0 });
    });
    return new HeapProbe(
      () =>
        new Promise((resolvePromise) => {
          const n = ++id;
          pending.set(n, (result) => {
            pending.delete(n);
            resolvePromise(heapOf(result));
          });
          void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: n, method: 'Runtime.getHeapUsage' }) });
        }),
    );
  }

  async start(): Promise<void> {
    this.base = await this.usage();
    this.peak = this.base;
    this.timer = setInterval(() => void this.usage().then((used) => (this.peak = Math.max(this.peak, used))), 50);
  }

  /** The peak above the value at start, in MB. */
  async stop(): Promise<number> {
    clearInterval(this.timer);
    this.peak = Math.max(this.peak, await this.usage());
    return (this.peak - this.base) / 1024 / 1024;
  }
}

async function freshPage(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/?ui=off`);
  await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
  return page;
}

export async function runBackupBrowserBench(options: { browser: Browser; origin: string; assets?: number; seed?: number; log?: (line?: string) => void }): Promise<BackupBrowserResult> {
  const { browser, origin } = options;
  const log = options.log ?? ((line = '') => console.log(line));
  const size = options.assets ?? 10_000;
  const gen = new SnippetGen((options.seed ?? 1) + 7, 0);
  const source = await browser.newContext();
  const target = await browser.newContext();
  try {
    const page = await freshPage(source, origin);
    let t = Date.now();
    const big = Array.from({ length: 1024 * 1024 }, (_, i) => (i * 7919) % 256);
    const seeds = [...Array.from({ length: size - 1 }, () => gen.seed()), { asset: { application: APPLICATION, format: { file: { bytes: { raw: big } } }, metadata: { name: 'blob.bin' } } }];
    for (let i = 0; i < seeds.length; i += 1000) {
      const status = await page.evaluate(async (body) => (await fetch('/api/assets/import', { method: 'POST', body, headers: { 'content-type': 'application/json' } })).status, JSON.stringify({ iterable: seeds.slice(i, i + 1000) }));
      if (status !== 200) throw new Error(`import answered ${status}`);
    }
    const importSeconds = (Date.now() - t) / 1000;
    t = Date.now();
    await page.evaluate(async (count) => {
      await fetch('/api/embeddings/library', { method: 'POST' });
      for (;;) {
        const progress = (await (await fetch('/api/embeddings/library')).json()) as { running: boolean; pending: number; embedded: number };
        if (!progress.running && progress.pending === 0 && progress.embedded >= count) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    }, size);
    const embedSeconds = (Date.now() - t) / 1000;

    const worker = await HeapProbe.worker(browser, page);
    const pageHeap = await HeapProbe.page(page);
    await worker.start();
    await pageHeap.start();
    const backup = await page.evaluate(async () => {
      const started = performance.now();
      const response = await fetch('/api/backup');
      const reader = response.body!.getReader();
      const parts: Uint8Array[] = [];
      let bytes = 0;
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        parts.push(r.value);
        bytes += r.value.byteLength;
      }
      (window as unknown as { backupFile: Blob }).backupFile = new Blob(parts as BlobPart[]);
      return { ms: performance.now() - started, bytes };
    });
    const backupWorkerPeakMB = await worker.stop();
    const backupPagePeakMB = await pageHeap.stop();

    // The file goes to the other profile through Node (not timed): read in slices, served on a route.
    const slices: Buffer[] = [];
    for (let offset = 0; offset < backup.bytes; offset += 8 << 20) {
      const b64 = await page.evaluate(
        async ([start, end]) => {
          const buffer = new Uint8Array(await (window as unknown as { backupFile: Blob }).backupFile.slice(start, end).arrayBuffer());
          let binary = '';
          for (let i = 0; i < buffer.length; i += 0x8000) binary += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
          return btoa(binary);
        },
        [offset, offset + (8 << 20)] as const,
      );
      slices.push(Buffer.from(b64, 'base64'));
    }
    const file = Buffer.concat(slices);
    await target.route(`**${FILE_ROUTE}`, (route) => route.fulfill({ body: file, contentType: 'application/x-ndjson' }));
    const other = await freshPage(target, origin);
    await other.evaluate(async (path) => {
      (window as unknown as { backupFile: Blob }).backupFile = await (await fetch(path)).blob();
    }, FILE_ROUTE);
    const otherWorker = await HeapProbe.worker(browser, other);
    const otherPage = await HeapProbe.page(other);
    await otherWorker.start();
    await otherPage.start();
    const restore = await other.evaluate(async () => {
      const started = performance.now();
      const response = await fetch('/api/backup/restore', { method: 'POST', body: (window as unknown as { backupFile: Blob }).backupFile });
      const summary = (await response.json()) as { stores?: { assets: { added: number } }; error?: unknown };
      return { ms: performance.now() - started, status: response.status, added: summary.stores?.assets.added ?? -1, error: summary.error };
    });
    const restoreWorkerPeakMB = await otherWorker.stop();
    const restorePagePeakMB = await otherPage.stop();
    if (restore.status !== 200) throw new Error(`restore answered ${restore.status}: ${JSON.stringify(restore.error)}`);

    const result: BackupBrowserResult = {
      assets: size,
      fileMB: backup.bytes / 1024 / 1024,
      importSeconds,
      embedSeconds,
      backupSeconds: backup.ms / 1000,
      backupWorkerPeakMB,
      backupPagePeakMB,
      restoreSeconds: restore.ms / 1000,
      restoreWorkerPeakMB,
      restorePagePeakMB,
      restored: restore.added,
    };
    log(
      `  Chromium, ${size.toLocaleString('en')} assets (imported in ${importSeconds.toFixed(1)} s, embedded in ${embedSeconds.toFixed(1)} s), file ${result.fileMB.toFixed(1)} MB:\n` +
        `    backup  ${result.backupSeconds.toFixed(2)} s; heap peak: worker +${backupWorkerPeakMB.toFixed(1)} MB, page +${backupPagePeakMB.toFixed(1)} MB\n` +
        `    restore ${result.restoreSeconds.toFixed(2)} s into a fresh profile (${result.restored} assets added); heap peak: worker +${restoreWorkerPeakMB.toFixed(1)} MB, page +${restorePagePeakMB.toFixed(1)} MB`,
    );
    return result;
  } finally {
    await source.close();
    await target.close();
  }
}

async function standalone(): Promise<number> {
  const root = repoRoot();
  const dist = distFolder(root);
  const port = Number(process.env.BENCH_BACKUP_PORT || 4187);
  const server = await serveBuild(root, dist, port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    console.log('Backup and restore in Chromium — test/bench/backup-browser.ts');
    await runBackupBrowserBench({ browser, origin: `http://localhost:${port}`, assets: Number(argValue('--assets') ?? 10_000) });
    return 0;
  } finally {
    await browser.close();
    server.kill();
  }
}

if (process.argv[1] && /^backup-browser[^/]*\.(ts|mjs|js)$/.test(basename(process.argv[1]))) process.exitCode = await standalone();
