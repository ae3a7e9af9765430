import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadGuesslang, type GraphModelFiles, type GuesslangNetwork } from '../../worker/core/assets/language/guesslang.ts';
import { nodeModelFiles } from '../../worker/node/model-files.ts';
import { heldOutSample, languageSample } from '../fixtures/language-sample.ts';

// The reference: the same model run by TF.js, as `@vscode/vscode-languagedetection` runs it in VS Code.
type Reference = { runModel(text: string): Promise<{ languageId: string; confidence: number }[]> };
const { ModelOperations } = createRequire(import.meta.url)('@vscode/vscode-languagedetection') as {
  ModelOperations: new () => Reference;
};

const samples = [...languageSample, ...heldOutSample].map(({ code }) => code);
const ascii = (text: string) => /^[\x00-\x7f]*$/.test(text);

let files: GraphModelFiles;
let network: GuesslangNetwork;
let reference: Reference;

beforeAll(async () => {
  const model = nodeModelFiles();
  files = { modelJson: await model.modelJson(), weights: await model.weights() };
  network = loadGuesslang(files);
  reference = new ModelOperations();
});

describe('loadGuesslang', () => {
  it('gives the probabilities TF.js gives for the same model, and the same top label on every sample', { timeout: 120_000 }, async () => {
    let largest = 0;
    let compared = 0;
    for (const text of samples) {
      const expected = await reference.runModel(text);
      const actual = network.predict(text);
      expect(actual, text).toBeDefined();
      const top = network.labels[actual!.indexOf(Math.max(...actual!))];
      expect(top, text.slice(0, 80)).toBe(expected[0]!.languageId);
      // TF.js splits a non-ASCII text into bytes and decodes each one alone (a replacement character),
      // unlike TensorFlow, which hashes the bytes; those texts agree on the label but not to the digit.
      if (!ascii(text)) continue;
      compared++;
      const byLabel = new Map(expected.map((e) => [e.languageId, e.confidence]));
      network.labels.forEach((label, i) => {
        largest = Math.max(largest, Math.abs(actual![i]! - byLabel.get(label)!));
      });
    }
    expect(compared).toBeGreaterThan(100);
    expect(largest).toBeLessThan(1e-4);
  });

  it('has the 54 labels of the model and probabilities that sum to 1', () => {
    expect(network.labels).toHaveLength(54);
    expect(network.labels).toContain('py');
    const p = network.predict('def add(a, b):\n    return a + b\n')!;
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  it('has no opinion on a text under 20 characters, as VS Code', async () => {
    expect(network.predict('let x = 1;')).toBeUndefined();
    expect(await reference.runModel('let x = 1;')).toEqual([]);
  });

  it('reads only the first 10,000 bigrams, and CRLF as LF', () => {
    const head = 'function f(a, b) { return a + b; }\n'.repeat(300); // 10,500 bytes
    const withTail = network.predict(head + 'SELECT * FROM t WHERE x = 1;\n'.repeat(200))!;
    expect(Array.from(withTail)).toEqual(Array.from(network.predict(head)!));
    const lf = network.predict('int main(void) {\n  return 0;\n}\n')!;
    expect(Array.from(network.predict('int main(void) {\r\n  return 0;\r\n}\r\n')!)).toEqual(Array.from(lf));
  });

  it('refuses a graph it does not evaluate, and weights that do not match the manifest', () => {
    const text = JSON.stringify(files.modelJson);
    const otherBuckets = JSON.parse(text.replaceAll('"num_buckets":{"i":"5000"}', '"num_buckets":{"i":"4096"}'));
    expect(() => loadGuesslang({ ...files, modelJson: otherBuckets })).toThrow(/not the guesslang graph/);
    const trigrams = JSON.parse(text.replace('"ngram_widths":{"list":{"i":["2"]}}', '"ngram_widths":{"list":{"i":["3"]}}'));
    expect(() => loadGuesslang({ ...files, modelJson: trigrams })).toThrow(/not the guesslang graph/);
    expect(() => loadGuesslang({ ...files, weights: files.weights.slice(0, 1000) })).toThrow();
  });
});
