import { describe, expect, it } from 'vitest';
import { dot } from '../../worker/core/embed/embedder.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { dotQuantized, quantize, VectorMatrix } from '../../worker/core/qgpt/vectors/vector-matrix.ts';
import type { SnippetRecord } from '../../worker/core/store/records.ts';

const embedder = new HashingEmbedder();
const TEXTS = ['def parse_config(path): return yaml.safe_load(open(path))', 'function retryWithBackoff(task) { return task() }', 'SELECT id FROM users'];

describe('quantised snippet vectors', () => {
  it('keep dot products within a small error of the float ones', async () => {
    const [query, ...docs] = await embedder.embed(['load a yaml config', ...TEXTS]);
    for (const doc of docs) {
      const { vector, scale } = quantize(doc!);
      expect(vector).toBeInstanceOf(Int8Array);
      expect(Math.max(...Array.from(vector, Math.abs))).toBe(127);
      expect(Math.abs(dotQuantized(query!, vector, scale) - dot(query!, doc!))).toBeLessThan(0.01);
    }
    expect(quantize(new Float32Array(4))).toEqual({ vector: new Int8Array(4), scale: 0 });
    expect(() => dotQuantized(query!, new Int8Array(3), 1)).toThrow(RangeError);
  });

  it('score each asset by its best snippet, over all assets or the given ones', async () => {
    const [query, ...docs] = await embedder.embed(['load a yaml config', ...TEXTS]);
    const record = (id: string, vectors: Float32Array[]): SnippetRecord => ({
      id,
      updated: '',
      embedder: embedder.id,
      snippets: vectors.map((v) => ({ format: 'f', start: 0, end: 1, ...quantize(v) })),
    });
    const matrix = VectorMatrix.of([record('a', [docs[1]!, docs[0]!]), record('b', [docs[2]!]), record('empty', [])]);
    const best = matrix.bestByAsset(query!);
    expect([...best.keys()].sort()).toEqual(['a', 'b']);
    expect(best.get('a')).toBeCloseTo(dot(query!, docs[0]!), 2); // its yaml snippet, not the other one
    expect(best.get('a')!).toBeGreaterThan(best.get('b')!);
    expect([...matrix.bestByAsset(query!, new Set(['b'])).keys()]).toEqual(['b']);
    expect(VectorMatrix.of([]).bestByAsset(query!).size).toBe(0);
    // Over rows that do not match their scales or assets: refused, not scanned out of bounds.
    expect(() => VectorMatrix.over(4, new Int8Array(8), new Float32Array(2), ['a'])).toThrow(RangeError);
    expect(() => VectorMatrix.over(4, new Int8Array(8), new Float32Array(1), ['a', 'b'])).toThrow(RangeError);
  });
});
