import type { Classification } from './classifier.ts';

const MAX = 60;

/** Declarations whose name makes a good title, across common languages. */
const DECLARATIONS = [
  /\b(?:def|fn|func|function|sub|proc)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/,
  /\b(?:class|struct|interface|trait|enum|module|type|impl)\s+([A-Za-z_$][\w$]*)/,
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>/,
  /^\s*(?:public|private|protected|static|final|async|virtual|override|\s)*[\w<>[\],\s]+?\s+([A-Za-z_]\w*)\s*\([^;]*\)\s*\{/m,
  /\bCREATE\s+(?:TABLE|VIEW|FUNCTION|PROCEDURE|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)/i,
];

/** A short human name for new content: the first declared name in code, the first words of prose. */
export function suggestName(text: string, classification: Classification): string {
  if (classification.generic === 'CODE') {
    for (const pattern of DECLARATIONS) {
      const name = pattern.exec(text)?.[1];
      if (name && !/^(if|for|while|switch|return|catch)$/.test(name)) return clip(name);
    }
  }
  const firstLine = text
    .split('\n')
    .map((line) => line.replace(/^[#>*\-\s/]+/, '').trim())
    .find((line) => line.length > 0);
  return firstLine ? clip(firstLine) : 'Untitled';
}

function clip(text: string): string {
  if (text.length <= MAX) return text;
  const cut = text.slice(0, MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
