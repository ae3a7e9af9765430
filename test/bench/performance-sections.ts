/** The sections of docs/performance.md's generated figures, one function a bench section (performance-doc.ts puts them together). */
import { FIRST_SCREEN_ROWS } from '../../app/ui/filters.ts';
import type { AppBenchResult } from './app.ts';
import type { BackupBenchRow } from './backup.ts';
import type { BackupBrowserResult } from './backup-browser.ts';
import type { BuildSizes } from './build-size.ts';
import type { EmbeddedBenchResult } from './embedded.ts';
import type { EmbeddingBenchResult } from './embedding.ts';
import { code, kb, mb, num, ratio, sec, STATS_HEAD, statsRow, percentileVerdicts, table, time, verdict } from './markdown-tables.ts';
import type { BenchResults } from './performance-doc.ts';
import { RELEVANCE_PARTS, type RelevanceLatency, type RelevancePart } from './relevance.ts';
import type { RelevanceQuality } from './relevance-quality.ts';
import type { SearchBenchResult } from './search.ts';
import type { QualityResult, SplitMetrics } from './search-quality.ts';
import type { UncachedReads } from './uncached.ts';
import { ms, type Stats as LatencyStats } from './stats.ts';

export function buildSection(b: BuildSizes | undefined): string | undefined {
  if (!b) return undefined;
  const row = (f: { path: string; bytes: number; gzipBytes: number }, what: string) => [what, code(f.path.replace(/-[0-9A-Za-z_-]{8,}(?=\.\w+$)/, '-<hash>')), kb(f.bytes), kb(f.gzipBytes)];
  const lazyName = (path: string) => /\/lazy\/([a-z]+)-/.exec(path)?.[1] ?? path;
  const rows = [
    row(b.worker, 'the worker, compiled at every start'),
    ...b.lazy.map((f) => row(f, `lazy script ${code(lazyName(f.path))}, on first use`)),
    ...b.firstScreen.map((f) => row(f, f.path.endsWith('.css') ? "the page's styles" : /\/app-/.test(f.path) ? 'the UI (Preact, the list), imported by the entry' : "the page's entry script (the client)")),
  ];
  const first = b.firstScreen.reduce((s, f) => s + f.gzipBytes, 0);
  return [
    '## Sizes of the build',
    '',
    table(['what', 'file', 'size', 'gzipped'], rows),
    '',
    `The first screen loads ${kb(first)} gzipped; the editor, grammars and Markdown are chunks of their own, loaded on first use.${
      b.shell ? ` The worker keeps the app shell offline at install, before a first visit can use it: ${num(b.shell.files)} files, ${kb(b.shell.bytes)}.` : ''
    }`,
  ].join('\n');
}

export function readWriteSection(r: BenchResults): string | undefined {
  const { create, read, list } = r;
  if (!create && !read && !list) return undefined;
  const rows: string[][] = [];
  if (create) rows.push(statsRow(`${code('POST /api/assets/create')}, sequential, after ${create.warmup} warm-up`, create));
  if (read) {
    rows.push(statsRow(`${code('GET /api/asset/{id}')} (~${num(read.asset.bodyBytes)} B body), ${num(read.librarySize)} assets`, read.asset));
    rows.push(statsRow(`${code('GET /api/__echo')}, interleaved with it (the transport floor)`, read.echo));
    if (read.pageIdb) {
      rows.push(statsRow('diagnostic: the same records read from IndexedDB in the page, as the worker reads them', read.pageIdb.workerLike));
      rows.push(statsRow('diagnostic: the same, 3 stores, not waiting for the transaction to end', read.pageIdb.minimal));
    }
  }
  if (list) {
    rows.push(statsRow(`${code('GET /api/assets?transferables=false')}, ${num(list.assets)} assets (${mb(list.transferablesFalse.bodyBytes / 1e6)})`, list.transferablesFalse));
    rows.push(statsRow(`${code('GET /api/assets?transferables=true')} (${mb(list.transferablesTrue.bodyBytes / 1e6)})`, list.transferablesTrue));
    if (list.staticFile) rows.push(statsRow(`the plain listing's bytes as a static file of the build, interleaved (the network's floor for that size)`, list.staticFile));
  }
  const out = ['## Reading, writing and listing', '', table(STATS_HEAD, rows)];
  const notes: string[] = [];
  if (create) notes.push(`The run's first create (it loads the language model) took ${time(create.firstMs)}.`);
  if (read) {
    notes.push(
      `Read against echo: p50 ${ratio(read.ratio.p50)}, p95 ${ratio(read.ratio.p95)} (target ${verdict(Math.max(read.ratio.p50, read.ratio.p95), read.ratio.target, 'max')}); ${num(read.warmupPairs)} warm-up pairs.`,
    );
  }
  if (list?.bulkCreate) {
    const b = list.bulkCreate;
    notes.push(`The ${num(b.assets)} assets added for the listing were created in concurrent batches of ${b.batch} (classified by their seeds): ${sec(b.ms / 1000)}, ${num(b.perSecond)} creates a second.`);
  }
  if (notes.length) out.push('', notes.join(' '));
  if (create?.perKind) {
    out.push(
      '',
      'Creates by kind of snippet (p50 after the warm-up; how many the classifier named as intended, warm-up included):',
      '',
      table(
        ['kind', 'n', 'p50', 'classified as intended'],
        Object.entries(create.perKind).map(([kind, k]) => [code(kind), num(k.n), ms(k.p50), k.classifiedAs]),
      ),
    );
  }
  return out.join('\n');
}

export function coldStartSection(coldStart: BenchResults['coldStart']): string | undefined {
  if (!coldStart) return undefined;
  const out = [
    '## Worker start',
    '',
    'The worker stopped through CDP (`ServiceWorker.stopAllWorkers`), then one request:',
    '',
    table(STATS_HEAD, [
      statsRow(`first ${code('GET /api/asset/{id}')}`, coldStart.asset),
      statsRow(`first ${code('GET /api/__echo')} (no app, no IndexedDB)`, coldStart.echo),
      statsRow(`first ${code('POST /api/assets/create')} (loads the language model)`, coldStart.create),
    ]),
  ];
  if (coldStart.unconfirmedStops) out.push('', `${coldStart.unconfirmedStops} stop(s) were not confirmed by CDP within 5 s.`);
  return out.join('\n');
}

export function streamsSection(s: BenchResults['streams']): string | undefined {
  if (!s) return undefined;
  const f = s.frameLatency;
  const o = s.readOneAsset;
  return [
    '## Live streams and the RPC path',
    '',
    `A write in one tab (${code(f.write)}, from the moment ${code('fetch()')} is called) to the delta frame in another tab's ${code('new WebSocket(…)')} (the page's shim); one write at a time:`,
    '',
    table(STATS_HEAD, [
      statsRow(`${code('/assets/stream/identifiers')}, after ${f.identifiers.warmup} warm-up`, f.identifiers),
      statsRow(`${code('/assets/stream')} (its frame needs the asset: one catch-up request), after ${f.assets.warmup} warm-up`, f.assets),
    ]),
    '',
    `Target: identifiers p50 ${verdict(f.identifiers.p50, f.identifiers.target, 'max', ' ms')}.`,
    '',
    `Reading one asset (${num(o.librarySize)} assets), interleaved:`,
    '',
    table(STATS_HEAD, [statsRow(`${code('rpc().getAsset(id)')} (MessageChannel, comlink)`, o.rpc), statsRow(`${code('fetch(\'/api/asset/{id}\')')} + ${code('json()')}`, o.fetch)]),
    '',
    `fetch / rpc: p50 ${ratio(o.ratio.p50)}, p95 ${ratio(o.ratio.p95)} (target p50 ${verdict(o.ratio.p50, o.ratio.target, 'min', '×')}).`,
  ].join('\n');
}

/**
 * What fetch / rpc comes to when both read IndexedDB, from the transports alone (the cached p50s) and the
 * fastest read of such records measured in the same run (the page's own, 3 stores, not waiting for the
 * transaction to end: the read section's diagnostic), added to both; and the read the target would need:
 * (fetch + x) / (rpc + x) = target gives x = (fetch - target × rpc) / (target - 1).
 */
export function uncachedRpcBound(r: Pick<BenchResults, 'read' | 'streams' | 'uncached'>) {
  const readMs = r.read?.pageIdb?.minimal.p50;
  const cached = r.streams?.readOneAsset;
  const target = r.uncached?.rpc.ratio.target;
  if (readMs === undefined || !cached || target === undefined) return undefined;
  const [fetchMs, rpcMs] = [cached.fetch.p50, cached.rpc.p50];
  return { readMs, fetchMs, rpcMs, target, withRead: (fetchMs + readMs) / (rpcMs + readMs), readForTarget: (fetchMs - target * rpcMs) / (target - 1) };
}

/** The sentence giving `uncachedRpcBound`, or nothing when the run did not measure its parts. */
export function uncachedRpcBoundText(r: Pick<BenchResults, 'read' | 'streams' | 'uncached'>): string {
  const b = uncachedRpcBound(r);
  if (!b) return '';
  const need = b.readForTarget > 0 ? `a read of at most ${ms(b.readForTarget)}` : 'a read faster than none';
  return ` The transports alone (cached: ${ms(b.fetchMs)} and ${ms(b.rpcMs)}) with the fastest IndexedDB read of the same records measured in the page (p50 ${ms(b.readMs)}) added to both give ${ratio(b.withRead)}; ${b.target}× would need ${need}.`;
}

/**
 * A floor under the uncached listing, from parts measured in the same run: the cached listing (its body
 * only sent), the page's own read of the records a listing is built from, and the page's `JSON.stringify`
 * of the same body. A listing built from the store and serialised costs at least their sum, before the
 * building of the wire Assets and the encoding of the text.
 */
export function uncachedListFloor(r: Pick<BenchResults, 'list' | 'uncached'>) {
  const sentMs = r.list?.transferablesFalse.p50;
  const readMs = r.uncached?.list.pageReadMs;
  const stringifyMs = r.uncached?.list.pageStringifyMs;
  if (sentMs === undefined || readMs === undefined || stringifyMs === undefined) return undefined;
  return { sentMs, readMs, stringifyMs, floorMs: sentMs + readMs + stringifyMs };
}

/** The sentence giving `uncachedListFloor`, or nothing when the run did not measure its parts. */
export function uncachedListFloorText(r: Pick<BenchResults, 'list' | 'uncached'>): string {
  const f = uncachedListFloor(r);
  if (!f) return '';
  return ` A floor under the uncached listing, measured in this run: the cached listing, which only sends its body (p50 ${ms(f.sentMs)}), plus the page's own read of the records a listing is built from (${ms(f.readMs)}, the best of 3) and its ${code('JSON.stringify')} of the same body (${ms(f.stringifyMs)}, the median of 9) come to ${ms(f.floorMs)}, before any wire Asset is built or any text encoded.`;
}

export function uncachedSection(u: UncachedReads | undefined, r: Pick<BenchResults, 'list' | 'read' | 'streams' | 'uncached'> = {}): string | undefined {
  if (!u) return undefined;
  return [
    '## Reads without the asset cache',
    '',
    `The same library and page, the worker registered as ${code('/sw.js?asset-cache=off')} (it keeps nothing it read, so every read builds from IndexedDB), after the cached figures above:`,
    '',
    table(STATS_HEAD, [
      statsRow(`${code('GET /api/assets?transferables=false')}, ${num(u.list.assets)} assets (${mb(u.list.bodyBytes / 1e6)})`, u.list),
      statsRow(`${code('GET /api/asset/{id}')}, ${num(u.librarySize)} assets`, u.read.asset),
      statsRow(`${code('GET /api/__echo')}, interleaved with it`, u.read.echo),
      statsRow(code('rpc().getAsset(id)'), u.rpc.rpc),
      statsRow(`${code("fetch('/api/asset/{id}')")} + ${code('json()')}, interleaved with it`, u.rpc.fetch),
    ]),
    '',
    `Read against echo: p50 ${ratio(u.read.ratio.p50)}, p95 ${ratio(u.read.ratio.p95)}. fetch / rpc: p50 ${ratio(u.rpc.ratio.p50)}, p95 ${ratio(u.rpc.ratio.p95)} (target p50 ${verdict(u.rpc.ratio.p50, u.rpc.ratio.target, 'min', '×')}).` +
      uncachedRpcBoundText(r) +
      uncachedListFloorText(r),
  ].join('\n');
}

export function searchSection(search: SearchBenchResult | undefined): string | undefined {
  if (!search || search.sizes.length === 0) return undefined;
  const sizes = search.sizes;
  const per = (f: (s: (typeof sizes)[number]) => string) => sizes.map(f);
  const pair = (s: LatencyStats) => `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(s.max)} (n=${num(s.n)})`;
  const rows: string[][] = [
    ['`POST /assets/import`, 1,000 seeds a request, 3 in flight', ...per((s) => `${sec(s.importSeconds)}, ${num(s.importPerSecond)} assets/s`)],
    ['… the page writing the records it stored to a fresh IndexedDB itself, in as many transactions (no Tessera code: the floor under it); with the vectors the worker stored as it followed', ...per((s) => (s.writeFloor ? `${num(s.writeFloor.perSecond)} assets/s (${num(s.writeFloor.records)} records); ${num(s.writeFloor.withVectors.perSecond)} assets/s (${num(s.writeFloor.withVectors.records)})` : 'n/a'))],
    ['first search after the import (the worker\'s index followed it), no snapshot saved yet', ...per((s) => `${time(s.firstSearchMs)} (loading the index ${time(s.firstSearchLoadMs)})`)],
    ['first search with no snapshot (worker stopped, saved index deleted)', ...per((s) => `${time(s.noSnapshot.firstSearchMs)} (building the index ${time(s.noSnapshot.loadMs)})`)],
    ['… the page reading the records the index is built from (one transaction, nothing else: the bound under it)', ...per((s) => (s.noSnapshot.storeReadMs === undefined ? 'n/a' : time(s.noSnapshot.storeReadMs)))],
    ['… creates sent into another such build, one after another from 1 s on (until the body is read; that build\'s first search)', ...per((s) => (s.createsDuringBuild ? `p50 ${ms(s.createsDuringBuild.creates.p50)}, max ${ms(s.createsDuringBuild.creates.max)} (n=${num(s.createsDuringBuild.creates.n)}; ${time(s.createsDuringBuild.firstSearchMs)})` : 'n/a'))],
    ['an edit after a worker stop: the longest an echo waited in the 8 s after it (one every 10 ms), each round (the search snapshot saved within them)', ...per((s) => (s.editStalls ? `${s.editStalls.longestMs.map(time).join(', ')} (${s.editStalls.savedInWindow.map((saved) => (saved ? 'saved' : 'not saved')).join(', ')})` : 'n/a'))],
    ['… its snapshot saved after', ...per((s) => (s.snapshotSavedAfterMs === null ? 'not within the wait' : time(s.snapshotSavedAfterMs)))],
    ['in the worker (Server-Timing `rank`: query analysis and ranking)', ...per((s) => pair(s.index))],
    ['end to end (page `fetch()` until the body is read)', ...per((s) => `${pair(s.endToEnd)}, ${num(s.meanResults)} results a query`)],
    ['… of which reading the result assets (Server-Timing `assets`)', ...per((s) => pair(s.assetsRead))],
  ];
  const out = [
    '## Search',
    '',
    '`GET /api/assets/search?query=…&transferables=false` over generated snippets, each library in a fresh profile:',
    '',
    table(['what', ...sizes.map((s) => `${num(s.assets)} assets`)], rows),
  ];
  const at10k = sizes.find((s) => s.assets === 10_000);
  out.push('', `Target: p95 in the worker at 10,000 ${verdict(at10k?.index.p95, search.targets.indexP95At10k, 'max', ' ms')}.`);
  const cold = at10k?.coldStart;
  if (cold) {
    out.push(
      '',
      'The worker stopped through CDP, then the first search at 10,000 assets (the worker starts, opens IndexedDB, restores the saved index, applies the change log, ranks, reads the results); and, after another stop, the worker\'s own start:',
      '',
      table(STATS_HEAD, [
        statsRow('first search answer', cold.firstAnswer),
        statsRow('… restoring the saved index (`load`)', cold.load),
        statsRow('… catching up on the change log (`catchup`)', cold.catchup),
        statsRow('… ranking (`rank`)', cold.rank),
        statsRow('… reading the results (`assets`)', cold.assets),
        statsRow('`GET /api/__echo` (the worker\'s start: no app, no IndexedDB)', cold.echo),
      ]),
      '',
      `Target: first answer p50 ${verdict(cold.firstAnswer.p50, search.targets.coldFirstAnswerAt10k, 'max', ' ms')}.${cold.unconfirmedStops ? ` ${cold.unconfirmedStops} stop(s) not confirmed by CDP.` : ''}`,
    );
  }
  return out.join('\n');
}

export function relevanceSection(l: RelevanceLatency | undefined): string | undefined {
  if (!l) return undefined;
  return [
    '## Relevance',
    '',
    `${code('POST /api/qgpt/relevance {query, options: {database: true}}')} at the default limit (10 snippets), on the search section's ${num(l.assets)}-asset library (${num(l.snippets)} snippets), embedder ${code(l.embedder)}. The first call right after the import, after its first search (${l.embeddedBefore === undefined ? 'it embedded every asset' : `writes are embedded in the background as they land; the running worker's index held ${num(l.embeddedBefore)} assets before it`}): ${time(l.firstCallMs)}.`,
    '',
    table(STATS_HEAD, [
      statsRow('steady calls', l.steady),
      statsRow('worker stopped → first call (reloads the vectors)', l.afterStop),
      ...Object.entries(RELEVANCE_PARTS).flatMap(([part, what]) => {
        const parts = l.afterStopParts?.[part as RelevancePart];
        return parts ? [statsRow(`… of which ${what} (Server-Timing \`${part}\`)`, parts)] : [];
      }),
    ]),
  ].join('\n');
}

export function embeddingSection(e: EmbeddingBenchResult | undefined): string | undefined {
  if (!e) return undefined;
  const m = e.model;
  return [
    '## Embedding in the worker',
    '',
    `A generated model of MiniLM's shape (${m.hidden} wide, ${m.blocks} feed-forward blocks of ${m.intermediate}, ${num(m.embeddingRows)}-row embedding table, fp32, ${mb(m.bytes / 1e6)}, random weights), served as ${code(`/models/${m.id}/`)}.`,
    '',
    table(STATS_HEAD, [
      ['first load (`POST /api/embeddings {texts: []}`: the lazy script, the wasm, the model)', '1', time(e.loadMs), '–', '–', '–'],
      ['… the worker\'s own figure for it', '1', time(e.workerLoadMs), '–', '–', '–'],
      statsRow('load again after a worker stop', e.reload),
      statsRow('`GET /api/__echo` while the worker is idle', e.echoIdle),
      statsRow(`\`GET /api/__echo\` while ${e.batch.snippets} snippets embed`, e.echoDuringBatch),
    ]),
    '',
    `One \`POST /api/embeddings\` of ${e.batch.snippets} snippets of ${e.batch.tokens} tokens: ${time(e.batch.totalMs)} in all (embedding ${time(e.batch.embedMs)}), ${ms(e.batch.msPerSnippet)} a snippet, in ${e.batch.inferenceBatches} inference batches; the longest batch held the worker ${ms(e.batch.longestSliceMs)}.`,
  ].join('\n');
}

export function appSection(app: AppBenchResult | undefined): string | undefined {
  if (!app) return undefined;
  const out = ['## The app', '', `The Preact app at ${code('/')} in Chromium, on one library grown from size to size (load average ${app.loadavg.start} at the start of the section, ${app.loadavg.end} at its end).`];
  const v = app.firstVisit;
  if (v) {
    out.push(
      '',
      `First visit: a fresh browser context opens the app (no worker, caches or IndexedDB yet); times since navigation start:`,
      '',
      table(STATS_HEAD, [
        statsRow('the page\'s `load` event (baseline: the page and its scripts from the network)', v.load),
        statsRow('`ready()` resolved (the worker installed with the shell, lazy scripts and language model kept offline, active, in control, healthy)', v.ready),
        statsRow('the app mounted', v.mounted),
        statsRow('the first create, sent at `ready()`, until read', v.firstCreate),
      ]),
      '',
      `\`ready()\` against the page's load: p50 ${ratio(v.ready.p50 / v.load.p50)}.`,
    );
  }
  for (const { assets, importSeconds, keystroke: k } of app.sizes) {
    out.push(
      '',
      `Keystroke → results shown, ${num(assets)} assets (imported in ${sec(importSeconds)}); ${k.ui.n} queries, ${k.typos} with a typo, ${k.zeroResultQueries} with no result, ${k.meanResults.toFixed(0)} results on average, ${k.timeouts} timed out:`,
      '',
      table(STATS_HEAD, [
        statsRow('keydown → first frame with the expected rows', k.ui),
        statsRow('the bare search `fetch()` of the same query', k.baseline),
        statsRow('… keydown → the app\'s request starts', k.breakdown.inputToRequest),
        statsRow('… the request', k.breakdown.request),
        statsRow('… … ranking in the worker (`rank`)', k.breakdown.rank),
        statsRow('… … reading the results in the worker (`assets`)', k.breakdown.assetsRead),
        statsRow('… response → rows rendered', k.breakdown.responseToRows),
        statsRow('… rows → frame', k.breakdown.rowsToFrame),
        statsRow('keydown → the rows\' first lines filled', k.previews),
      ]),
      '',
      `App against the bare fetch: p50 ${ratio(k.ratio.p50)}, p95 ${ratio(k.ratio.p95)}.${assets === 10_000 ? ` Target at 10,000: ${percentileVerdicts(k.ui, app.targets.keystrokeAt10k)}.` : ''}`,
    );
  }
  const r = app.reload;
  if (r) {
    out.push(
      '',
      `Reload → first rows, ${num(r.assets)} assets, the worker running (times since navigation start)${r.timeouts ? `; ${r.timeouts} timed out` : ''}:`,
      '',
      table(STATS_HEAD, [
        statsRow('the first frame with rows', r.firstFrame),
        statsRow('… the first rows in the DOM', r.firstRows),
        statsRow('… the document served (by the worker\'s shell cache)', r.milestones.documentServed),
        statsRow('… DOMContentLoaded', r.milestones.domContentLoaded),
        // (Results of runs before the first screen was asked for alone have none of these.)
        ...(r.milestones.firstScreenRequestStart
          ? [
              statsRow(`… \`GET /api/library?first=${FIRST_SCREEN_ROWS}\` (the first screen) sent`, r.milestones.firstScreenRequestStart),
              statsRow(`… \`GET /api/library?first=${FIRST_SCREEN_ROWS}\` answered`, r.milestones.firstScreenResponseEnd),
            ]
          : []),
        statsRow('… `GET /api/library` (every row) sent', r.milestones.libraryRequestStart),
        statsRow('… `GET /api/library` answered', r.milestones.libraryResponseEnd),
        statsRow('… main-thread time in long tasks before the frame', r.milestones.longTasks),
        ...(r.allRows ? [statsRow('every row in the list (a row counts all in `aria-setsize`)', r.allRows)] : []),
        statsRow(`\`GET /api/library\` alone (${mb(r.libraryBytes / 1e6)}), \`fetch()\` until read`, r.libraryFetch),
        statsRow('… its `JSON.parse`', r.libraryParse),
      ]),
      '',
      r.assets === 10_000 ? `Target at 10,000: ${percentileVerdicts(r.firstFrame, app.targets.firstRowsAt10k)}.` : '',
    );
  }
  const d = app.duringImport;
  if (d) {
    out.push(
      '',
      `Search while importing: ${num(d.imported)} more assets imported into the ${num(d.assets)} (in ${sec(d.importSeconds)}) while the page sends the app's search request again 30 ms after each answer:`,
      '',
      table(STATS_HEAD, [statsRow('a search during the import', d.during), statsRow('the same with nothing else running (baseline)', d.idle)]),
      '',
      `During the import against the baseline: p50 ${ratio(d.ratio.p50)}, p95 ${ratio(d.ratio.p95)}.`,
    );
  }
  return out.join('\n').trimEnd();
}

export function backupSection(browser: BackupBrowserResult | undefined, node: BackupBenchRow[] | undefined): string | undefined {
  if (!browser && !node?.length) return undefined;
  const out = ['## Backup and restore'];
  if (browser) {
    const b = browser;
    out.push(
      '',
      `In Chromium, through the worker and real IndexedDB: ${num(b.assets)} assets (one a 1 MB file; imported in ${sec(b.importSeconds)}, embedded in ${sec(b.embedSeconds)}), a ${mb(b.fileMB)} file; memory is the peak above the start (JS heap and ArrayBuffers; IndexedDB's own process not counted). One run each.`,
      '',
      table(
        ['what', 'time', 'worker peak', 'page peak'],
        [
          ['`GET /api/backup`, read to its end', sec(b.backupSeconds), `+${mb(b.backupWorkerPeakMB)}`, `+${mb(b.backupPagePeakMB)}`],
          [`\`POST /api/backup/restore\` into a fresh profile (${num(b.restored)} assets added)`, sec(b.restoreSeconds), `+${mb(b.restoreWorkerPeakMB)}`, `+${mb(b.restorePagePeakMB)}`],
        ],
      ),
    );
  }
  if (node?.length) {
    out.push(
      '',
      'In Node, the core app through `app.request` (heap peak above the library already held; one run each):',
      '',
      table(
        ['store', 'assets', 'file', 'library built in', 'backup', 'restore', 'embedded again after the restore'],
        node.map((r) => [
          r.store,
          num(r.assets),
          mb(r.fileMB),
          `${sec(r.buildSeconds)}${r.libraryMB === undefined ? '' : ` (holds ${mb(r.libraryMB)})`}`,
          `${sec(r.backupSeconds)}, heap +${mb(r.backupPeakMB)}`,
          `${sec(r.restoreSeconds)}, heap +${mb(r.restorePeakMB)}`,
          `${num(r.reembedded)} texts`,
        ]),
      ),
    );
  }
  return out.join('\n');
}

export function qualitySection(search: QualityResult | undefined, relevance: RelevanceQuality | undefined): string | undefined {
  if (!search && !relevance) return undefined;
  const rows: string[][] = [];
  const halvesOf = (split: SplitMetrics) => `${split.tuning.ndcg10.toFixed(3)} / ${split.heldOut.ndcg10.toFixed(3)}`;
  if (search) {
    rows.push([
      '`GET /assets/search`',
      num(search.queries),
      search.ndcg10.toFixed(3),
      search.mrr10.toFixed(3),
      search.recall10.toFixed(3),
      `${search.recallAll.toFixed(3)} (@${search.answered})`,
      halvesOf(search.split),
      search.target === undefined ? '–' : verdict(search.ndcg10, search.target, 'min'),
    ]);
  }
  if (relevance) {
    rows.push([
      `\`POST /qgpt/relevance\` \`database: true\` (embedder \`${relevance.embedder ?? 'hashing-v3-1024'}\`)`,
      num(relevance.queries),
      relevance.ndcg10.toFixed(3),
      relevance.mrr10.toFixed(3),
      relevance.recall10.toFixed(3),
      `${relevance.recall100.toFixed(3)} (@100)`,
      halvesOf(relevance.split),
      relevance.target === undefined ? '–' : `${verdict(relevance.split.heldOut.ndcg10, relevance.target, 'min')} (held-out)`,
    ]);
  }
  const out = [
    '## Quality on CoSQA',
    '',
    "CoSQA's 500 dev queries against all 6,267 functions loaded as assets (test/fixtures/cosqa), in Node, one relevant function a query. The queries fall into two fixed halves by a hash of their id (test/bench/search-quality.ts `splitOf`): ranking changes are tuned on the tuning half (245 queries) only; the relevance target is on the held-out half (255).",
    '',
    table(['what', 'queries', 'nDCG@10', 'MRR@10', 'Recall@10', 'Recall', 'nDCG@10 tuning / held-out half', 'target nDCG@10'], rows),
  ];
  const notes: string[] = [];
  if (search) notes.push(`Search: the corpus loaded in ${sec(search.loadSeconds)}, ${ms(search.queryMsMean)} a query through \`app.request\` (mean).`);
  if (relevance) {
    notes.push(
      `Relevance: the first call (embeds the library) ${time(relevance.firstCallMs)}; at the default limit p50 ${ms(relevance.defaultP50Ms)}, p95 ${ms(relevance.defaultP95Ms)}` +
        `${relevance.defaultCalls ? ` (n=${num(relevance.defaultCalls)})` : ''}; at \`limit=100\` p50 ${ms(relevance.p50Ms)}, p95 ${ms(relevance.p95Ms)} (n=${num(relevance.queries - 1)}).`,
    );
  }
  if (notes.length) out.push('', notes.join(' '));
  return out.join('\n');
}

/** The accuracy table test/bench/detect-accuracy.ts prints, read back from its output: per sample, the chosen classifier and signatures alone. */
export function parseDetectAccuracy(output: string): { sample: string; snippets: number; chosen?: [number, number]; signatures?: [number, number] }[] {
  const samples: { sample: string; snippets: number; chosen?: [number, number]; signatures?: [number, number] }[] = [];
  for (const line of output.split('\n')) {
    const head = /^(.+?): (\d+) snippets, \d+ labels$/.exec(line.trim());
    if (head) {
      samples.push({ sample: head[1]!, snippets: Number(head[2]) });
      continue;
    }
    const row = /^(chosen|signatures)\s+([\d.]+)\s+([\d.]+)/.exec(line.trim());
    const current = samples[samples.length - 1];
    if (row && current) current[row[1] as 'chosen' | 'signatures'] = [Number(row[2]), Number(row[3])];
  }
  return samples;
}

export function detectSection(d: BenchResults['detectAccuracy']): string | undefined {
  if (!d) return undefined;
  const samples = parseDetectAccuracy(d.output).filter((s) => s.chosen);
  if (!d.ok || samples.length === 0) return '## Language detection\n\nNot measured: test/bench/detect-accuracy.ts failed in this run.';
  return [
    '## Language detection',
    '',
    'test/bench/detect-accuracy.ts in Node, on the labelled samples of test/fixtures/language-sample.ts: the classifier the service uses (the VS Code model with language signatures), and the signatures alone (what decides when the model cannot load). Milliseconds are the mean a call.',
    '',
    table(
      ['sample', 'snippets', 'accuracy', 'ms a call', 'signatures alone'],
      samples.map((s) => [s.sample, num(s.snippets), s.chosen![0].toFixed(3), ms(s.chosen![1]), s.signatures ? `${s.signatures[0].toFixed(3)} (${ms(s.signatures[1])})` : '–']),
    ),
  ].join('\n');
}

export function embeddedSection(e: EmbeddedBenchResult | undefined): string | undefined {
  if (!e) return undefined;
  return [
    '## Embedded mode',
    '',
    `Reading one asset (${num(e.librarySize)} assets) in one page controlled by the service worker, interleaved after ${e.warmupPairs} warm-up pairs: the embedded mode's ${code('fetch')} (a dedicated Worker, ${code('startEmbedded()')}) against the page's ${code('fetch')} (the service worker), same store:`,
    '',
    table(STATS_HEAD, [statsRow('embedded mode', e.embedded), statsRow('service worker', e.worker)]),
    '',
    `embedded / service worker: p50 ${ratio(e.ratio.p50)}, p95 ${ratio(e.ratio.p95)}.`,
  ].join('\n');
}
