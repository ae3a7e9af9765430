import { describe, expect, it } from 'vitest';
import { MAX_SNIPPET_CHARS, splitSnippets } from '../../worker/core/qgpt/vectors/snippets.ts';

const PYTHON = `import os
import sys


# Read the settings file.
@cache
def load_settings(path):
    """Parse it as YAML."""
    with open(path) as handle:
        return yaml.safe_load(handle)


class Store:
    def get(self, key):
        return self.items[key]

    def put(self, key, value):
        self.items[key] = value


def main():
    print(load_settings(sys.argv[1]))
`;

const texts = (text: string, code: boolean) => splitSnippets(text, code).map((s) => text.slice(s.start, s.end));

describe('splitSnippets', () => {
  it('cuts code at top-level definitions, keeping comments and decorators with the definition below them', () => {
    // Bodies long enough that no neighbours are merged: every cut shows.
    const body = '    # keeps the snippet above the merge size\n'.repeat(8);
    const long = PYTHON.replace('def load_settings(path):\n', `def load_settings(path):\n${body}`)
      .replace('class Store:\n', `class Store:\n${body}`)
      .replace('def main():\n', `def main():\n${body}`);
    const pieces = texts(long, true);
    // The two import lines are too small to stand alone: they join the first definition.
    expect(pieces.map((p) => p.split('\n')[0])).toEqual(['import os', 'class Store:', 'def main():']);
    expect(pieces[0]).toMatch(/\n# Read the settings file\.\n@cache\ndef load_settings\(path\):/);
    expect(pieces[1]).toContain('def put'); // methods stay with their class
  });

  it('merges small neighbours and trims blank lines; offsets index the original text', () => {
    const spans = splitSnippets(PYTHON, true);
    expect(spans.length).toBeLessThan(4);
    for (const s of spans) {
      const piece = PYTHON.slice(s.start, s.end);
      expect(piece).toBe(piece.trim());
      expect(piece.length).toBeGreaterThan(0);
    }
    const joined = spans.map((s) => PYTHON.slice(s.start, s.end)).join('\n');
    for (const name of ['load_settings', 'class Store', 'def main']) expect(joined).toContain(name);
  });

  it('cuts prose at paragraphs and never makes a snippet longer than the cap, also for one huge line', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'talks about deployment and rollbacks. '.repeat(8)}`).join('\n\n');
    const spans = splitSnippets(paragraphs, false);
    expect(spans.length).toBeGreaterThan(2);
    for (const s of spans) {
      expect(s.end - s.start).toBeLessThanOrEqual(MAX_SNIPPET_CHARS);
      expect(paragraphs.slice(s.start, s.end)).toMatch(/^Paragraph \d+/);
    }
    const line = 'word '.repeat(2000);
    const cut = splitSnippets(line, false);
    expect(cut.length).toBeGreaterThanOrEqual(Math.ceil(line.trim().length / MAX_SNIPPET_CHARS));
    for (const s of cut) {
      expect(s.end - s.start).toBeLessThanOrEqual(MAX_SNIPPET_CHARS);
      expect(line.slice(s.start, s.end)).toMatch(/^word( word)*$/); // cut between words
    }
  });

  it('gives nothing for blank text and one snippet for a short one', () => {
    expect(splitSnippets(' \n\n \t', true)).toEqual([]);
    expect(splitSnippets('x = 1', true)).toEqual([{ start: 0, end: 5 }]);
  });
});
