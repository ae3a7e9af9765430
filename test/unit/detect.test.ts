import { describe, expect, it, vi } from 'vitest';
import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { createLanguageClassifier, MAX_DETECT_CHARS } from '../../worker/core/assets/language/classify.ts';
import { looksLikeMarkdown, looksLikeProse } from '../../worker/core/assets/language/shape.ts';
import { suggestName } from '../../worker/core/assets/suggest-name.ts';
import { isClassificationSpecific } from '../../worker/core/model/schemas.ts';
import { heldOutSample, languageSample, type LabelledSnippet } from '../fixtures/language-sample.ts';
import { nodeModelFiles } from '../../worker/node/model-files.ts';

// Measured with test/bench/detect-accuracy.ts: the model + signatures classifier gets 1.00 on both
// samples, signatures alone 0.99 and 0.96. The thresholds leave a margin for small changes.
const MIN_ACCURACY = 0.93;
const MIN_ACCURACY_WITHOUT_MODEL = 0.9;

const classifier = createLanguageClassifier({ modelFiles: nodeModelFiles() });

async function accuracy(c: Classifier, sample: readonly LabelledSnippet[]) {
  const misses: string[] = [];
  for (const { lang, code } of sample) {
    const { specific } = await c.classify(code);
    if (specific !== lang) misses.push(`${lang} -> ${specific}: ${code.split('\n')[0]}`);
  }
  return { accuracy: 1 - misses.length / sample.length, misses };
}

describe('the labelled sample', () => {
  it('has at least 12 languages with 6 snippets each, labelled with wire values', () => {
    const counts = new Map<string, number>();
    for (const { lang } of languageSample) counts.set(lang, (counts.get(lang) ?? 0) + 1);
    expect([...counts.values()].filter((n) => n >= 6).length).toBeGreaterThanOrEqual(12);
    for (const { lang } of [...languageSample, ...heldOutSample]) expect(isClassificationSpecific(lang)).toBe(true);
  });
});

describe('createLanguageClassifier', () => {
  it('reaches the measured accuracy on the development and held-out samples', { timeout: 60_000 }, async () => {
    for (const sample of [languageSample, heldOutSample]) {
      const result = await accuracy(classifier, sample);
      expect(result.accuracy, result.misses.join('\n')).toBeGreaterThanOrEqual(MIN_ACCURACY);
    }
  });

  it('falls back to signatures when the model cannot load, and says so', { timeout: 30_000 }, async () => {
    const onModelError = vi.fn();
    const broken = createLanguageClassifier({
      modelFiles: {
        modelJson: () => Promise.reject(new Error('404 model.json')),
        weights: () => Promise.reject(new Error('404 weights')),
      },
      onModelError,
    });
    const result = await accuracy(broken, [...languageSample, ...heldOutSample]);
    expect(result.accuracy, result.misses.join('\n')).toBeGreaterThanOrEqual(MIN_ACCURACY_WITHOUT_MODEL);
    expect(onModelError).toHaveBeenCalled();
  });

  it('classifies prose as TEXT/txt and markdown as TEXT/md', async () => {
    const prose =
      'Thanks for the quick reply. I will look at the proposal over the weekend and send you my comments on Monday morning.';
    expect(await classifier.classify(prose)).toEqual({ generic: 'TEXT', specific: 'txt' });
    expect(await classifier.classify('Hi Anna,\n\nCan we move our call to Thursday? Something came up.\n\nThanks,\nTom')).toEqual({
      generic: 'TEXT',
      specific: 'txt',
    });
    const markdown = '# Release notes\n\n- Faster search\n- A **new** [export](docs/export.md) option\n';
    expect(await classifier.classify(markdown)).toEqual({ generic: 'TEXT', specific: 'md' });
    expect(looksLikeProse(prose)).toBe(true);
    expect(looksLikeProse('for (let i = 0; i < n; i++) {\n  total += items[i];\n}')).toBe(false);
    expect(looksLikeMarkdown('# comment\necho "$HOME"\nls -la | grep foo')).toBe(false);
  });

  it('classifies code as CODE with its language', async () => {
    expect(await classifier.classify('def parse_args(argv):\n    parser = argparse.ArgumentParser()\n    return parser.parse_args(argv)\n')).toEqual({
      generic: 'CODE',
      specific: 'py',
    });
    expect(await classifier.classify('package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n')).toEqual({
      generic: 'CODE',
      specific: 'go',
    });
    expect((await classifier.classify('#include <iostream>\nint main() { std::cout << "hi"; }')).specific).toBe('cpp');
    expect((await classifier.classify('<?php echo "hi";')).specific).toBe('php');
    expect((await classifier.classify('{"name": "tessera", "version": 1}')).specific).toBe('json');
  });

  it('lets a filename hint with a known extension win over detection', async () => {
    const python = 'def main():\n    print("hello")\n';
    expect(await classifier.classify(python, { filename: 'script.rb' })).toEqual({ generic: 'CODE', specific: 'rb' });
    expect(await classifier.classify(python, { filename: 'notes.txt' })).toEqual({ generic: 'TEXT', specific: 'txt' });
    expect(await classifier.classify('FROM node:20\nRUN npm ci', { filename: 'docker/Dockerfile' })).toEqual({
      generic: 'CODE',
      specific: 'dockerfile',
    });
    // An unknown extension is no hint: detection decides.
    expect((await classifier.classify(python, { filename: 'snippet.unknownext' })).specific).toBe('py');
  });

  it('handles empty and very long input', async () => {
    expect(await classifier.classify('   \n ')).toEqual({ generic: 'TEXT', specific: 'txt' });
    // Ten times what detection reads (the first MAX_DETECT_CHARS): still answered, and right.
    const long = 'const x = foo(bar, baz);\n'.repeat(MAX_DETECT_CHARS / 2.5);
    expect((await classifier.classify(long)).generic).toBe('CODE');
  });

  it('takes no time over inputs that make careless regular expressions backtrack', async () => {
    // Signatures only: the model's cost is not what is measured here.
    const signaturesOnly = createLanguageClassifier();
    for (const unit of ['|', '_a', '[', 'a(', '<a ', ' ', '.a .b ', 'a\n', '[a](', '$a ', '::']) {
      const pathological = unit.repeat(Math.ceil(MAX_DETECT_CHARS / unit.length));
      // A per-input bound, far from both sides: linear expressions take milliseconds over these
      // MAX_DETECT_CHARS characters, one that backtracks quadratically (20,000² steps and more) takes
      // many seconds, so 1 s neither flakes on a loaded machine nor lets a backtracking one through.
      const start = performance.now();
      expect((await signaturesOnly.classify(pathological)).generic).toMatch(/^(CODE|TEXT)$/);
      for (const specific of ['c', 'js', 'md', 'txt'] as const) {
        expect(suggestName(pathological, { generic: 'CODE', specific }).length).toBeLessThanOrEqual(62);
      }
      expect(performance.now() - start, JSON.stringify(unit)).toBeLessThan(1_000);
    }
  });
});

describe('suggestName', () => {
  it('names code after its first function or class', () => {
    expect(suggestName('import argparse\n\ndef parse_args(argv):\n    return argv\n', { generic: 'CODE', specific: 'py' })).toBe('Python: parse_args');
    expect(suggestName('export class LruCache<K, V> {\n  get(key: K) {}\n}', { generic: 'CODE', specific: 'ts' })).toBe('TypeScript: LruCache');
    expect(suggestName('const add = (a, b) => a + b;', { generic: 'CODE', specific: 'js' })).toBe('JavaScript: add');
    expect(suggestName('func (r *Rect) Area() float64 {\n\treturn r.W * r.H\n}', { generic: 'CODE', specific: 'go' })).toBe('Go: Area');
    expect(suggestName('size_t str_len(const char *s) {\n  return 0;\n}', { generic: 'CODE', specific: 'c' })).toBe('C: str_len');
    expect(suggestName('public static void main(String[] args) {\n}', { generic: 'CODE', specific: 'java' })).toBe('Java: main');
    expect(suggestName('CREATE TABLE users (\n  id SERIAL PRIMARY KEY\n);', { generic: 'CODE', specific: 'sql' })).toBe(
      'SQL: CREATE TABLE users',
    );
  });

  it('falls back to the first code line, and names every sample snippet', () => {
    expect(suggestName('squares = [n * n for n in range(10)]\nprint(squares)', { generic: 'CODE', specific: 'py' })).toBe(
      'Python: squares = [n * n for n in range(10)]',
    );
    for (const { lang, code } of [...languageSample, ...heldOutSample]) {
      const name = suggestName(code, { generic: lang === 'txt' || lang === 'md' ? 'TEXT' : 'CODE', specific: lang });
      expect(name.length).toBeGreaterThan(0);
      expect(name.length).toBeLessThanOrEqual(62);
    }
  });

  it('names prose after its first words, markdown after its first heading', () => {
    const prose =
      'The old lighthouse stood at the edge of the cliff for more than a century, and sailors knew its light.';
    const name = suggestName(prose, { generic: 'TEXT', specific: 'txt' });
    expect(name.startsWith('The old lighthouse stood at the edge of the cliff')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(60);
    expect(name.endsWith('…')).toBe(true);
    expect(suggestName('Short note.', { generic: 'TEXT', specific: 'txt' })).toBe('Short note.');
    expect(suggestName('# Release notes\n\nSome text.', { generic: 'TEXT', specific: 'md' })).toBe('Release notes');
  });
});
