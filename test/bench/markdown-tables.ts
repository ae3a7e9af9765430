/** Figures and tables as docs/performance.md writes them (performance-doc.ts and its sections). */
import { ms, type Stats as LatencyStats } from './stats.ts';

export const num = (x: number, digits = 0) => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const sec = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} s`;
/** Milliseconds, as seconds above 2 s. */
export const time = (x: number) => (x >= 2000 ? sec(x / 1000) : ms(x));
export const mb = (x: number) => `${x.toFixed(1)} MB`;
export const kb = (bytes: number) => `${num(bytes / 1000)} KB`;
export const pct = (x: number | undefined) => (x === undefined ? '?' : `${x.toFixed(1)}%`);
/** `1.23×`, or n/a for a ratio not measured (NaN in the run, null once it went through results.json). */
export const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a');
export const code = (s: string) => `\`${s}\``;
export const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** `≤ 10 ms: met` (or NOT met), for a figure that must stay at or under (`max`) or reach (`min`) a target. */
export function verdict(value: number | undefined, target: number, kind: 'max' | 'min', unit = ''): string {
  const sign = kind === 'max' ? '≤' : '≥';
  if (value === undefined || !Number.isFinite(value)) return `${sign} ${target}${unit}: not measured`;
  const ok = kind === 'max' ? value <= target : value >= target;
  return `${sign} ${target}${unit}: ${ok ? 'met' : '**NOT met**'}`;
}

/** `p50 ≤ 50 ms: met; p95 ≤ 50 ms: NOT met`: both percentiles against one ceiling in milliseconds. */
export function percentileVerdicts(s: { p50: number; p95: number }, targetMs: number): string {
  return `p50 ${verdict(s.p50, targetMs, 'max', ' ms')}; p95 ${verdict(s.p95, targetMs, 'max', ' ms')}`;
}

export const STATS_HEAD = ['what', 'n', 'p50', 'p95', 'mean', 'max'];
export function statsRow(what: string, s: LatencyStats | undefined, unit: (x: number) => string = time): string[] {
  if (!s || s.n === 0) return [what, '0', '–', '–', '–', '–'];
  return [what, num(s.n), unit(s.p50), unit(s.p95), unit(s.mean), unit(s.max)];
}
