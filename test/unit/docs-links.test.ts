/**
 * The links of README.md and docs/: every relative link (and image) resolves to a file or folder of this
 * repository, never outside it, and a `#fragment` names a heading of the Markdown file it points into
 * (GitHub's heading ids). Web addresses (`https:`, `mailto:`) are not checked. Links inside code (fenced
 * blocks, inline code) are not links and are skipped.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Folders that exist only on a machine that built or tested (ignored by git): nothing may link into them. */
const LOCAL_ONLY = ['node_modules', 'dist', '.bench', 'test-results', 'playwright-report', '.scratch'];

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return [join(root, 'README.md'), ...walk(join(root, 'docs'))];
}

/** The text without fenced code blocks and inline code spans (kept as blank space, so line numbers hold). */
export function withoutCode(markdown: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return markdown.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1\2[`~]*[ \t]*$|(?![\s\S]))/gm, blank).replace(/(`+)[^`\n][\s\S]*?\1/g, blank);
}

/** Every link target with its line: inline links and images `[text](target "title")`, and reference definitions. */
export function linkTargets(markdown: string): { target: string; line: number }[] {
  const text = withoutCode(markdown);
  const out: { target: string; line: number }[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
    out.push({ target: m[1]!.replace(/^<|>$/g, ''), line: lineOf(m.index) });
  }
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) out.push({ target: m[1]!.replace(/^<|>$/g, ''), line: lineOf(m.index) });
  return out;
}

/** The ids GitHub gives a Markdown file's headings: lower-cased text, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of markdown.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[`~]*[ \t]*$/gm, '').matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const text = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/`/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return /^(https?|mailto):/i.test(target) ? undefined : `a link with the scheme of ${target}`;
  if (target.startsWith('/')) return 'an absolute path (write it relative to the file)';
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const fragment = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const path = pathPart === '' ? file : resolve(dirname(file), pathPart);
  const inRepo = relative(root, path);
  if (inRepo.startsWith('..') || resolve(root, inRepo) !== path) return 'a path outside the repository';
  const top = inRepo.split(sep)[0]!;
  if (LOCAL_ONLY.includes(top)) return `a path into ${top}/, which a fresh clone does not have`;
  if (!existsSync(path)) return 'a file that does not exist';
  if (fragment !== undefined && fragment !== '') {
    if (!statSync(path).isFile() || !path.endsWith('.md')) return `a #fragment on ${inRepo}, which is not a Markdown file`;
    if (!headingIds(readFileSync(path, 'utf8')).has(fragment)) return `no heading of ${inRepo} has the id #${fragment}`;
  }
  return undefined;
}

describe('links in README.md and docs/', () => {
  const files = markdownFiles();

  it('finds the documents', () => {
    const names = files.map((f) => relative(root, f).split(sep).join('/'));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/developing.md', 'docs/performance.md']));
  });

  it.each(files.map((f) => [relative(root, f).split(sep).join('/'), f] as const))('%s: every relative link resolves inside the repository', (_name, file) => {
    const markdown = readFileSync(file, 'utf8');
    const broken = linkTargets(markdown)
      .map(({ target, line }) => ({ target, line, why: problem(file, target) }))
      .filter((l) => l.why !== undefined)
      .map((l) => `line ${l.line}: (${l.target}) is ${l.why}`);
    expect(broken).toEqual([]);
  });
});

describe('the link checker itself', () => {
  it('reads inline links, images, titles, angle brackets and reference definitions, not code', () => {
    const md = [
      'See [a](docs/a.md) and ![b](b.png "title") and [c](<c d.md>).',
      '`[not](code.md)` and',
      '```',
      '[not](fenced.md)',
      '```',
      '[ref]: ../x.md',
    ].join('\n');
    expect(linkTargets(md)).toEqual([
      { target: 'docs/a.md', line: 1 },
      { target: 'b.png', line: 1 },
      { target: 'c d.md', line: 1 },
      { target: '../x.md', line: 6 },
    ]);
  });

  it('gives headings the ids GitHub gives them', () => {
    const ids = headingIds('# Tessera\n## Live streams: WebSockets in the page\n### The `/qgpt/stream` frames\n## Search\n## Search\n```\n# not a heading\n```\n');
    expect([...ids]).toEqual(['tessera', 'live-streams-websockets-in-the-page', 'the-qgptstream-frames', 'search', 'search-1']);
  });

  it('refuses links outside the repository, into build output, to missing files and headings', () => {
    const readme = join(root, 'README.md');
    expect(problem(readme, '../shared/design.md')).toBe('a path outside the repository');
    expect(problem(readme, 'dist/index.html')).toMatch(/fresh clone/);
    expect(problem(readme, 'docs/nothing-here.md')).toBe('a file that does not exist');
    expect(problem(readme, 'docs/architecture.md#no-such-heading')).toMatch(/no heading/);
    expect(problem(readme, '/docs/architecture.md')).toMatch(/absolute/);
    expect(problem(readme, 'docs/architecture.md#the-request-path')).toBeUndefined();
    expect(problem(readme, 'https://example.org/x')).toBeUndefined();
  });
});
