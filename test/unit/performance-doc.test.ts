/**
 * docs/performance.md's figures are generated (test/bench/performance-doc.ts): the text between the two
 * markers is rewritten from a bench's results, the hand-written text around it is kept, and every section
 * heading is there even when a run did not measure it (other pages link to them).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { END_MARKER, renderFigures, START_MARKER, withFigures, type BenchResults } from '../bench/performance-doc.ts';
import { parseDetectAccuracy } from '../bench/performance-sections.ts';

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
    expect(md).toMatch(/\| ratio p50 1\.25 \(5\.00 ms vs 4\.00 ms\), p95 1\.20 \| 600 pairs \| ≤ 1\.3: met \(p50 and p95\) \|/);
  });

  it('keeps every section heading, saying when the run did not measure it', () => {
    const md = renderFigures({});
    for (const title of ['The run', 'Headline figures', 'Sizes of the build', 'Worker start', 'Search', 'Relevance', 'The app', 'Backup and restore', 'Quality on CoSQA', 'Language detection']) {
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

  it('docs/performance.md has the markers once each, in order', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/performance.md', import.meta.url)), 'utf8');
    expect(doc.split(START_MARKER).length).toBe(2);
    expect(doc.split(END_MARKER).length).toBe(2);
    expect(doc.indexOf(START_MARKER)).toBeLessThan(doc.indexOf(END_MARKER));
  });
});
