/** Latency statistics and their printed form, shared by the bench sections. */

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/** Milliseconds to three decimals, as the results keep them. */
export const round = (x: number) => Math.round(x * 1000) / 1000;

/** The statistics of the finite samples (a missing Server-Timing entry reads as NaN and is left out). */
export function stats(samples: readonly number[]): Stats {
  const sorted = samples.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, p50: NaN, p95: NaN, mean: NaN, min: NaN, max: NaN };
  return {
    n: sorted.length,
    p50: round(quantile(sorted, 0.5)),
    p95: round(quantile(sorted, 0.95)),
    mean: round(sorted.reduce((s, x) => s + x, 0) / sorted.length),
    min: round(sorted[0]!),
    max: round(sorted[sorted.length - 1]!),
  };
}

export const ms = (x: number) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)} ms` : 'n/a');

export function line(label: string, s: Stats, extra = ''): string {
  return `  ${label.padEnd(40)} p50 ${ms(s.p50).padStart(9)}   p95 ${ms(s.p95).padStart(9)}   mean ${ms(s.mean).padStart(9)}   max ${ms(s.max).padStart(9)}   (n=${s.n}${extra})`;
}
