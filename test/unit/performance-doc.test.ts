/**
 * docs/performance.md's figures are generated (test/bench/performance-doc.ts): the text between the two
 * markers is rewritten from a bench's results, the hand-written text around it is kept, and every section
 * heading is there even when a run did not measure it (other pages link to them).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { END_MARKER, renderFigures, START_MARKER, withFigures, type BenchResults } from '../bench/performance-doc.ts';
import { parseDetectAccuracy, uncachedListFloor, uncachedListFloorText, uncachedRpcBound, uncachedRpcBoundText } from '../bench/performance-sections.ts';
import { ratio } from '../bench/markdown-tables.ts';

const stat = (p50: number, p95 = p50, n = 10) => ({ n, p50, p95, mean: p50, min: p50, max: p95 });
const results: BenchResults = {
  meta: { date: '2026-11-25T03:04:05.678Z', chromium: '140.0', node: 'v20.19.0', cpu: '2 x Test CPU', loadavgStart: [1, 2, 3], foreignCpuPercent: { read: 12.5 } },
  read: { librarySize: 210, warmupPairs: 40, asset: { ...stat(5, 6, 600), bodyBytes: 900 }, echo: stat(4, 5, 600), ratio: { p50: 1.25, p95: 1.2, target: 1.3 } },
};

describe('docs/performance.md from the bench results', () => {
  it('rewrites only what lies between the markers, the same way every time', () => {
    const doc = `# Performance\n\nProse before.\n\n${START_MARKER}\nold figures\n${END_MARKER}\n\nProse after.\n`;
    const once = withFigures(doc, results);
    expect(once.startsWith('# Performance\n\nProse before.\n\n')).toBe(true);
    expect(once.endsWith(`${END_MARKER}\n\nProse after.\n`)).toBe(true);
    expect(once).not.toContain('old figures');
    expect(withFigures(once, results)).toBe(once);
  });

  it('makes a page with the markers when there is none', () => {
    const page = withFigures('', results);
    expect(page.startsWith(`# Performance\n\n${START_MARKER}\n`)).toBe(true);
    expect(page.trimEnd().endsWith(END_MARKER)).toBe(true);
  });

  it('gives each figure its n and target, and says what the run was', () => {
    const md = renderFigures(results);
    expect(md).toContain('2026-11-25 03:04 UTC: Chromium 140.0, Node v20.19.0, 2 x Test CPU.');
    expect(md).toContain('read 12.5%');
    expect(md).toContain('Other work took over 10% of the machine during read');
    expect(md).toMatch(/\| ratio p50 1\.25 \(5\.00 ms vs 4\.00 ms\), p95 1\.20 \| 600 pairs \| p50 ≤ 1\.3: met; p95 ≤ 1\.3: met \|/);
  });

  it('writes a ratio that was not measured as n/a, in the run (NaN) and from results.json (null)', () => {
    expect(ratio(2.154)).toBe('2.15×');
    expect(ratio(NaN)).toBe('n/a');
    expect(ratio(JSON.parse(JSON.stringify({ x: NaN })).x)).toBe('n/a');
  });

  it('bounds fetch / rpc without the cache by the transports and the fastest read measured, and says what the target would need', () => {
    const parts = {
      read: { pageIdb: { minimal: stat(0.6) } },
      streams: { readOneAsset: { rpc: stat(0.4), fetch: stat(1.7) } },
      uncached: { rpc: { ratio: { target: 4 } } },
    } as never;
    const bound = uncachedRpcBound(parts)!;
    expect(bound.withRead).toBeCloseTo(2.3, 6); // (1.7 + 0.6) / (0.4 + 0.6)
    expect(bound.readForTarget).toBeCloseTo(0.1 / 3, 6); // (1.7 - 4 × 0.4) / 3
    expect(uncachedRpcBoundText(parts)).toContain('give 2.30×; 4× would need a read of at most 0.03 ms');
    expect(uncachedRpcBoundText({} as never)).toBe('');
  });

  it('puts a floor under the uncached listing: the cached listing, the page reading its records, and the page serialising its body', () => {
    const parts = {
      list: { transferablesFalse: stat(41) },
      uncached: { list: { pageReadMs: 12.5, pageStringifyMs: 17.5 } },
    } as never;
    expect(uncachedListFloor(parts)).toEqual({ sentMs: 41, readMs: 12.5, stringifyMs: 17.5, floorMs: 71 });
    expect(uncachedListFloorText(parts)).toContain('come to 71.0 ms, before any wire Asset is built');
    // A run from before these parts were measured has no floor to give.
    expect(uncachedListFloor({ list: { transferablesFalse: stat(41) }, uncached: { list: {} } } as never)).toBeUndefined();
    expect(uncachedListFloorText({} as never)).toBe('');
  });

  it("sets the import beside its floor, the page's own IndexedDB writes of the same records, and leaves it out of runs that did not measure it", () => {
    const size = (writeFloor?: object) => ({
      assets: 10_000,
      importSeconds: 25,
      importPerSecond: 400,
      firstSearchMs: 300,
      firstSearchLoadMs: 0,
      noSnapshot: { firstSearchMs: 1500, loadMs: 1400 },
      snapshotSavedAfterMs: 5000,
      index: stat(1, 2, 200),
      endToEnd: stat(40, 60, 200),
      assetsRead: stat(25, 40, 200),
      meanResults: 50,
      ...(writeFloor ? { writeFloor } : {}),
    });
    const search = (writeFloor?: object) => ({ sizes: [size(writeFloor)], targets: { indexP95At10k: 5, coldFirstAnswerAt10k: 150, importPerSecond: 2000 } }) as never;
    const measured = renderFigures({ search: search({ perSecond: 500, records: 42_888, withVectors: { perSecond: 223, records: 52_888 } }) });
    expect(measured).toContain('400 assets/s (the page writing the records the import of 10,000 stored to a fresh IndexedDB itself, in as many transactions: 500 assets/s, with the vectors the worker stored 223 assets/s)');
    expect(measured).toMatch(/\| … the page writing the records it stored to a fresh IndexedDB itself[^|]*\| 500 assets\/s \(42,888 records\); 223 assets\/s \(52,888\) \|/);
    const older = renderFigures({ search: search() });
    expect(older).toContain('| 400 assets/s | 1 |');
    expect(older).toMatch(/\| … the page writing the records it stored[^|]*\| n\/a \|/);
  });

  it('keeps every section heading, saying when the run did not measure it', () => {
    const md = renderFigures({});
    for (const title of ['The run', 'Headline figures', 'Sizes of the build', 'Worker start', 'Search', 'Relevance', 'The app', 'Backup and restore', 'The Node host beside the browser', 'Quality on CoSQA', 'Language detection']) {
      expect(md.split('\n')).toContain(`## ${title}`);
    }
    expect(md).toContain('## Search\n\nNot measured in this run.');
  });

  it('reads the accuracy table of detect-accuracy.ts back from its output', () => {
    const output = [
      '',
      'development sample: 100 snippets, 20 labels',
      'candidate   accuracy ms/call    py    js',
      'vscode         0.710   25.00  5/5   4/5',
      'signatures     0.990    0.20  5/5   5/5',
      'chosen         1.000   30.50  5/5   5/5',
      '',
      'held-out sample: 50 snippets, 18 labels',
      'chosen         0.980   28.00  5/5   5/5',
    ].join('\n');
    expect(parseDetectAccuracy(output)).toEqual([
      { sample: 'development sample', snippets: 100, signatures: [0.99, 0.2], chosen: [1, 30.5] },
      { sample: 'held-out sample', snippets: 50, chosen: [0.98, 28] },
    ]);
  });

  it('puts the Node host beside the browser with n on every figure, a p95 only from 20, and says why PostgreSQL was skipped', () => {
    const rank = { ndcg10: 0.42, mrr10: 0.36, recall10: 0.6, answered: 500, queryMsMean: 8 };
    const md = renderFigures({
      nodeHost: {
        settings: { createWarmup: 10, clients: 8, searchWarmup: 20, frameWarmup: 10 },
        rows: [
          { host: 'browser', create: { sequential: stat(13, 26, 200), inFlight: { clients: 8, assets: 400, ms: 5000, perSecond: 80 } } },
          {
            host: 'pglite',
            create: { sequential: stat(20, 115, 200), inFlight: { clients: 8, assets: 400, ms: 19000, perSecond: 21 } },
            search: { assets: 100_000, importSeconds: 90, firstSearchMs: 4000, endToEnd: stat(20, 68, 12), rank: stat(0.2, 0.3, 12) },
            streamNote: 'one process per data folder: no second instance',
          },
          { host: 'postgres', skipped: 'DATABASE_URL is not set' },
        ],
        fullText: { engine: 'pglite', queries: 500, functions: 6267, tessera: rank, websearch: { ...rank, ndcg10: 0.0066, answered: 13 }, anyWord: { ...rank, ndcg10: 0.1495 }, pgvector: false },
      },
    });
    expect(md.split('\n')).toContain('## The Node host beside the browser');
    expect(md).toContain('| create p50, official SDK, one client (classifier on each) | 13.0 ms (n=200) | 20.0 ms (n=200) | skipped |');
    expect(md).toContain('| search p95 at 100,000, end to end | not measured | – (n=12) | skipped |');
    expect(md).toContain('| creates with 8 clients in flight | 80 assets/s (n=400) | 21 assets/s (n=400) | skipped |');
    expect(md).toContain('The Node host, PostgreSQL column was skipped: DATABASE_URL is not set.');
    expect(md).toContain('PostgreSQL\'s full text ranks these queries at nDCG@10 0.1495 at best, against 0.4200');
    expect(md).toContain('pgvector is not available on this server');
  });

  it('docs/performance.md has the markers once each, in order', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/performance.md', import.meta.url)), 'utf8');
    expect(doc.split(START_MARKER).length).toBe(2);
    expect(doc.split(END_MARKER).length).toBe(2);
    expect(doc.indexOf(START_MARKER)).toBeLessThan(doc.indexOf(END_MARKER));
  });
});
