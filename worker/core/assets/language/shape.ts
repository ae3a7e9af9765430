/** The shape of a text: code, prose, or prose with markdown markup (cheap heuristics, no model). */


const STOP_WORDS = new Set(
  ('a an the and or but if then so of to in on at by for with from as is are was were be been being it its this that ' +
    'these those i you he she we they me him her us them my your our their have has had do does did will would can ' +
    'could should may might must not no there here what which who when where why how all any some more most very ' +
    'just also than too about into over after before again please thanks let know').split(' '),
);

/** Characters that are rare in prose and common in code. */
const CODE_CHARS = /[{}[\]();=<>$@&|\\^~`*#_/+]/g;

interface TextStats {
  words: number;
  stopRatio: number;
  symbolRatio: number;
  codeLineRatio: number;
}

function textStats(text: string): TextStats {
  const words = text.match(/[A-Za-z][A-Za-z']*/g) ?? [];
  const stop = words.filter((w) => STOP_WORDS.has(w) || (w[0] !== w[0]!.toUpperCase() && STOP_WORDS.has(w.toLowerCase()))).length;
  const nonSpace = text.replace(/\s+/g, '').length || 1;
  const symbols = text.match(CODE_CHARS)?.length ?? 0;
  const lines = text.split('\n').filter((l) => l.trim());
  const codeLines = lines.filter(
    (l) =>
      /[;{}]\s*$|^\s*[}\])]|=>|->|::|^\s*(def|fn|func|function|class|import|return|if|for|while|var|let|const|public|private|#include|SELECT|INSERT|CREATE)\b/.test(l) ||
      (/\)\s*$/.test(l) && /\w\(/.test(l)),
  ).length;
  return {
    words: words.length,
    stopRatio: words.length ? stop / words.length : 0,
    symbolRatio: symbols / nonSpace,
    codeLineRatio: lines.length ? codeLines / lines.length : 0,
  };
}

/** Code-shaped: lines ending in `;`, `{` or `}`, calls, arrows, or many code characters. */
export function looksLikeCode(text: string): boolean {
  const s = textStats(text);
  return s.codeLineRatio >= 0.3 || s.symbolRatio >= 0.05;
}

/** Natural-language sentences: many stop words, few code characters, no code-shaped lines. */
export function looksLikeProse(text: string): boolean {
  const s = textStats(text);
  if (s.words < 4) return false;
  return s.stopRatio >= 0.2 && s.symbolRatio < 0.04 && s.codeLineRatio <= 0.2;
}

const MARKDOWN_MARKERS: Record<string, RegExp> = {
  heading: /^#{1,6} +[^\s=(){};]+[^=(){};]*$/m,
  fence: /^ {0,3}(```|~~~)/m,
  list: /^ {0,3}(?:[-*+]|\d+\.) +\S/m,
  link: /\[[^\]\n]{1,200}\]\([^)\s]{1,500}\)/,
  emphasis: /\*\*[^*\n]+\*\*|(^|\s)_[^_\n]+_(\s|$)|(^|\s)\*[^*\s][^*\n]*\*(\s|[.,;:]|$)/m,
  inlineCode: /(^|[^`])`[^`\n]+`(?!`)/,
  table: /^ {0,3}\|? *:?-{3,}:? *\|/m,
  quote: /^> /m,
};

/** Prose with markdown markup: headings, lists, links, emphasis, fences or tables around prose. */
export function looksLikeMarkdown(text: string): boolean {
  const kinds = Object.entries(MARKDOWN_MARKERS)
    .filter(([, re]) => re.test(text))
    .map(([kind]) => kind);
  if (kinds.length === 0) return false;
  if (kinds.includes('table')) return true;
  // What is left once code blocks, inline code and markup are gone must read like prose.
  const rest = text
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, ' ')
    .replace(/`[^`\n]+`/g, ' x ')
    .replace(/\[([^\]\n]{1,200})\]\([^)\s]{1,500}\)/g, '$1')
    .replace(/^ {0,3}(#{1,6}|[-*+]|\d+\.|>) +/gm, '')
    .replace(/[*_]{1,2}/g, '');
  const s = textStats(rest);
  if (s.words < 3 || s.symbolRatio > 0.06) return false;
  if (kinds.length >= 3) return true;
  return kinds.length >= 2 ? s.stopRatio >= 0.12 : s.stopRatio >= 0.2 && (kinds.includes('heading') || kinds.includes('fence'));
}
