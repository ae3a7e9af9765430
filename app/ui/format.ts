/** Small formatting helpers of the views. */

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "3 minutes ago", "yesterday". */
export function timeAgo(epochMs: number, now = Date.now()): string {
  let value = (epochMs - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return RELATIVE.format(Math.round(value), unit);
    value /= size;
  }
  return new Date(epochMs).toLocaleDateString();
}

export function dateTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString();
}

/** A safe file name from an asset's name. */
export function fileNameOf(name: string, ext: string): string {
  const base = name.replace(/[^\p{L}\p{N}._ -]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'asset';
  return `${base}.${ext}`;
}

/** Starts a download of `content` named `name` (a file the browser saves). */
export function download(name: string, content: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A wire timestamp (`GroupedTimestamp.value`, an ISO string on the wire) in epoch milliseconds. */
export function epochOf(value: string | Date): number {
  return typeof value === 'string' ? Date.parse(value) : value.getTime();
}
