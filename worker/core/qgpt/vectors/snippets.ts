/**
 * Splits a text into snippets, the unit relevance ranks and answers quote. Code is cut at natural
 * boundaries (top-level definitions, with the comments and decorators above them; blank lines between
 * top-level blocks), prose at paragraphs. Small neighbours are merged up to a size cap and a piece over the
 * cap is cut at blank lines, then at line ends (a single huge line at the cap), so every snippet is at
 * most MAX_SNIPPET_CHARS long. Snippets cover the text's non-blank parts in order, as UTF-16 offsets.
 */

/** A snippet: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

export const MAX_SNIPPET_CHARS = 1500;
/** A snippet shorter than this takes in its neighbour while together they stay within MERGED_CHARS. */
const MIN_SNIPPET_CHARS = 300;
const MERGED_CHARS = 800;

/** A line that starts a definition in common languages (at the block's outer indentation). */
const DEFINITION =
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|class|function\*?|fn|func|fun|sub|proc|impl|struct|enum|trait|interface|type|module|namespace|package|macro|CREATE|create)\b|^(?:pub(?:\(\w+\))?\s+|public\s+|private\s+|protected\s+|internal\s+|static\s+|abstract\s+|final\s+|override\s+)+\S|^(?:const|let|var)\s+\w+\s*=\s*(?:async\s*)?(?:\(|function)|^#include\b|^\w[\w<>,\s*&:]*\s+\**\w+\s*\([^;]*$/;
/** Lines that belong to the definition below them. */
const PREAMBLE = /^(?:@|#\[|\/\/|\/\*|\*|#(?!include)|--|;;|"""|''')/;

interface Line {
  start: number;
  end: number;
  blank: boolean;
  indent: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end);
    const trimmed = raw.trimStart();
    lines.push({ start, end, blank: trimmed.trim() === '', indent: raw.length - trimmed.length, text: trimmed });
    start = end + 1;
  }
  return lines;
}

/** Splits `text`; `code` chooses definition boundaries over paragraphs. Blank text gives no snippets. */
export function splitSnippets(text: string, code: boolean): Span[] {
  const lines = linesOf(text);
  const blocks = code ? codeBlocks(lines) : paragraphBlocks(lines);
  const spans: Span[] = [];
  for (const block of blocks) spans.push(...capped(block, lines, text));
  return merge(spans, text);
}

/** Line ranges [from, to) of top-level code blocks. */
function codeBlocks(lines: Line[]): [number, number][] {
  const base = Math.min(...lines.filter((l) => !l.blank).map((l) => l.indent));
  if (!Number.isFinite(base)) return [];
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.blank || line.indent !== base) continue;
    const afterBlank = i > 0 && lines[i - 1]!.blank;
    if (!afterBlank && !DEFINITION.test(line.text)) continue;
    // Comments and decorators right above a definition belong to it.
    let from = i;
    while (from > 0 && !lines[from - 1]!.blank && lines[from - 1]!.indent === base && PREAMBLE.test(lines[from - 1]!.text)) from--;
    if (starts.length === 0 || from > starts[starts.length - 1]!) starts.push(from);
  }
  if (starts[0] !== 0) starts.unshift(0);
  return starts.map((s, k) => [s, starts[k + 1] ?? lines.length]);
}

function paragraphBlocks(lines: Line[]): [number, number][] {
  const blocks: [number, number][] = [];
  let from = -1;
  lines.forEach((line, i) => {
    if (line.blank) {
      if (from >= 0) blocks.push([from, i]);
      from = -1;
    } else if (from < 0) from = i;
  });
  if (from >= 0) blocks.push([from, lines.length]);
  return blocks;
}

/** The block's span without surrounding blank lines, cut into pieces of at most MAX_SNIPPET_CHARS. */
function capped([from, to]: [number, number], lines: Line[], text: string): Span[] {
  while (from < to && lines[from]!.blank) from++;
  while (to > from && lines[to - 1]!.blank) to--;
  if (from >= to) return [];
  const start = lines[from]!.start;
  const end = lines[to - 1]!.end;
  if (end - start <= MAX_SNIPPET_CHARS) return [{ start, end }];
  // Cut at a blank line near the middle of the allowance, else at a line end, else mid-line.
  const out: Span[] = [];
  let pieceStart = start;
  let lastBlank = -1;
  let lastLine = -1;
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (line.end - pieceStart > MAX_SNIPPET_CHARS) {
      const cut = lastBlank > pieceStart + MIN_SNIPPET_CHARS ? lastBlank : lastLine > pieceStart ? lastLine : -1;
      if (cut > 0) {
        out.push(trim({ start: pieceStart, end: cut }, text));
        pieceStart = nextNonSpace(text, cut);
      }
      while (line.end - pieceStart > MAX_SNIPPET_CHARS) {
        const cutAt = wordBoundary(text, pieceStart, pieceStart + MAX_SNIPPET_CHARS);
        out.push(trim({ start: pieceStart, end: cutAt }, text));
        pieceStart = nextNonSpace(text, cutAt);
      }
      lastBlank = lastLine = -1;
    }
    if (line.blank) lastBlank = line.start;
    lastLine = line.end;
  }
  if (end > pieceStart) out.push(trim({ start: pieceStart, end }, text));
  return out.filter((s) => s.end > s.start);
}

/** Merges small neighbours while the result stays within the cap. */
function merge(spans: Span[], text: string): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && (last.end - last.start < MIN_SNIPPET_CHARS || span.end - span.start < MIN_SNIPPET_CHARS / 3) && span.end - last.start <= MERGED_CHARS) {
      last.end = span.end;
    } else out.push({ ...span });
  }
  return out.map((s) => trim(s, text));
}

function trim(span: Span, text: string): Span {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/** The last sentence end or space before `limit` (within its last fifth), else `limit` itself. */
function wordBoundary(text: string, start: number, limit: number): number {
  const floor = limit - Math.floor((limit - start) / 5);
  for (const pattern of [/[.!?;]\s/g, /\s/g]) {
    let best = -1;
    pattern.lastIndex = floor;
    for (let m = pattern.exec(text); m && m.index < limit; m = pattern.exec(text)) best = m.index + m[0].length - 1;
    if (best > floor) return best;
  }
  return limit;
}

function nextNonSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}
