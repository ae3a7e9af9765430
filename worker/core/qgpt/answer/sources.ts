import type { Passage } from './passage.ts';

/** How an answer names where a passage comes from: `'name' (asset <id>)`, the file path, or both. */
export function sourceLabel(p: Passage): string {
  const name = p.source ?? p.path;
  if (p.asset !== undefined) return name !== undefined && name !== p.asset ? `'${name}' (asset ${p.asset})` : `asset ${p.asset}`;
  if (p.path !== undefined) return p.source !== undefined && p.source !== p.path ? `'${p.source}' (${p.path})` : p.path;
  if (p.source !== undefined) return `'${p.source}'`;
  return 'a snippet given with the question';
}

/** The distinct asset ids of some passages, in order. */
export function assetIdsOfPassages(passages: readonly Passage[]): string[] {
  return [...new Set(passages.map((p) => p.asset).filter((a): a is string => a !== undefined))];
}
