/**
 * The code vectors (worker/core/embed/code-vectors.ts): the file format on a small model made here, the
 * embedder's blend of the hashing and the learned parts, the choice of the built-in embedder when the
 * file is missing or broken, and the model this repository ships (worker/models/code-vectors), read as
 * the Node host reads it.
 */
import { describe, expect, it, vi } from 'vitest';
import { codeFeatures, CodeVectorsEmbedder, CODE_WEIGHT, decodeCodeVectors, encodeCodeVectors, type TrainedCodeVectors } from '../../worker/core/embed/code-vectors.ts';
import { describeEmbedder, dot } from '../../worker/core/embed/embedder.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { builtInEmbedder } from '../../worker/core/embed/select.ts';
import { codeVectorsFile } from '../../worker/node/model-files.ts';

/** The hash of a word's one feature. */
function featureOf(word: string): number {
  const hashes = [...codeFeatures(word).keys()];
  expect(hashes).toHaveLength(1);
  return hashes[0]!;
}

/** Four words in 3 dimensions: `sort` and `order` share a direction, `file` and `read` another. */
function smallModel(): TrainedCodeVectors {
  return {
    name: 'test1',
    dims: 3,
    hashes: Uint32Array.from(['sort', 'order', 'file', 'read'], featureOf),
    idf: Float32Array.of(1, 1.5, 2, 0.5),
    vectors: Float32Array.of(1, 0, 0, 0.9, 0.1, 0, 0, 0, 1, 0, 0.2, 0.8),
  };
}

const bufferOf = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
const decodeSmall = () => decodeCodeVectors(bufferOf(encodeCodeVectors(smallModel())));

describe('the code vectors file', () => {
  it('reads back what was written, the rows in the order of their hashes, the components in 8 bits', () => {
    const model = smallModel();
    const read = decodeSmall();
    expect(read).toMatchObject({ name: 'test1', dims: 3 });
    expect([...read.hashes]).toEqual([...model.hashes].sort((a, b) => a - b));
    read.hashes.forEach((hash, row) => {
      const from = model.hashes.indexOf(hash);
      expect(read.idf[row]).toBe(model.idf[from]);
      for (let j = 0; j < 3; j++) expect(read.components[row * 3 + j]! * read.scales[row]!).toBeCloseTo(model.vectors[from * 3 + j]!, 2);
    });
  });

  it('refuses a file that is not one, is cut short, or has bytes to spare', () => {
    const bytes = encodeCodeVectors(smallModel());
    expect(() => decodeCodeVectors(bufferOf(new TextEncoder().encode('not a model file')))).toThrow(/code vectors: not a TCV1 file/);
    expect(() => decodeCodeVectors(bufferOf(bytes.subarray(0, bytes.length - 1)))).toThrow(/code vectors: the file is cut short/);
    expect(() => decodeCodeVectors(bufferOf(bytes.subarray(0, 20)))).toThrow(/code vectors: the file is cut short/);
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(() => decodeCodeVectors(bufferOf(longer))).toThrow(/bytes to spare/);
    // Two hashes swapped: a binary search would miss features, so the file is refused.
    const swapped = bytes.slice();
    const first = bytes.length - (4 * 4 * 3 + 4 * 3); // the hashes: before idf, scales (4 x 4 bytes each) and 4 x 3 components
    swapped.set(bytes.subarray(first + 4, first + 8), first);
    swapped.set(bytes.subarray(first, first + 4), first + 4);
    expect(() => decodeCodeVectors(bufferOf(swapped))).toThrow(/not in ascending order/);
  });
});

describe('the code vectors embedder', () => {
  const hashing = new HashingEmbedder();
  const embedder = new CodeVectorsEmbedder(decodeSmall(), { hashing, weight: 0.4 });

  it('names the hashing embedder, the model and the weight in its id, and adds their dimensions', () => {
    expect(embedder.id).toBe('hashing-v3-1024+code-vectors-test1-w0.4');
    expect(embedder.dimensions).toBe(1027);
    expect(describeEmbedder(embedder)).toMatchObject({ id: embedder.id, dimensions: 1027, kind: 'code-vectors', status: 'ready' });
  });

  it('gives a dot product that is the two cosines blended by the weight', async () => {
    const [a, b] = await embedder.embed(['sort a list of file names', 'order by name and read']);
    const [ha, hb] = await hashing.embed(['sort a list of file names', 'order by name and read']);
    const code = (v: Float32Array) => v.subarray(1024);
    const codeCosine = dot(code(a!), code(b!)) / Math.sqrt(dot(code(a!), code(a!)) * dot(code(b!), code(b!)));
    expect(dot(a!, b!)).toBeCloseTo(0.6 * dot(ha!, hb!) + 0.4 * codeCosine, 5);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
  });

  it('puts words the model learnt together near each other, which spelling alone does not', async () => {
    const [sort, order, read] = await embedder.embed(['sort', 'order', 'read']);
    const code = (v: Float32Array) => v.subarray(1024);
    expect(dot(code(sort!), code(order!)) / 0.4).toBeGreaterThan(0.99);
    expect(dot(code(sort!), code(read!))).toBeLessThan(0.1);
    const [hSort, hOrder] = await hashing.embed(['sort', 'order']);
    expect(dot(sort!, order!)).toBeGreaterThan(dot(hSort!, hOrder!) + 0.35);
  });

  it('leaves the code part empty for a text of no known term', () => {
    const vector = embedder.embedOne('zebra giraffe');
    expect(vector.subarray(1024).every((x) => x === 0)).toBe(true);
    expect(dot(vector, vector)).toBeCloseTo(0.6, 5);
  });

  it('refuses a weight that is not between 0 and 1', () => {
    expect(() => new CodeVectorsEmbedder(decodeSmall(), { weight: 1 })).toThrow(RangeError);
    expect(() => new CodeVectorsEmbedder(decodeSmall(), { weight: 0 })).toThrow(RangeError);
  });
});

describe('the built-in embedder', () => {
  const file = (read: () => Promise<ArrayBuffer>) => ({ where: '/models/code-vectors/python.tcv', read });

  it('is the code vectors beside hashing when their file reads', async () => {
    const embedder = await builtInEmbedder(file(async () => bufferOf(encodeCodeVectors(smallModel()))), 'no model');
    expect(describeEmbedder(embedder)).toMatchObject({ kind: 'code-vectors', id: `hashing-v3-1024+code-vectors-test1-w${CODE_WEIGHT}` });
    expect(describeEmbedder(embedder).reason).toBe('no model; the code vectors from /models/code-vectors/python.tcv beside the hashing embedder');
  });

  it('is the hashing embedder alone, saying why, with no file, a failed read or a broken file', async () => {
    expect(describeEmbedder(await builtInEmbedder(undefined, 'no model'))).toMatchObject({ kind: 'hashing', id: 'hashing-v3-1024', reason: 'no model; the hashing embedder needs no files' });
    const failed = await builtInEmbedder(file(() => Promise.reject(new Error('GET answered 404'))), 'no model');
    expect(describeEmbedder(failed)).toMatchObject({ kind: 'hashing', reason: 'no model; no code vectors (GET answered 404), so the hashing embedder alone' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const broken = await builtInEmbedder(file(async () => bufferOf(new TextEncoder().encode('<html>'))), 'no model');
      expect(describeEmbedder(broken)).toMatchObject({ kind: 'hashing', reason: 'no model; the code vectors at /models/code-vectors/python.tcv are unusable, so the hashing embedder alone' });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('not a TCV1 file'));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the code vectors this repository ships', () => {
  it('are found and read as the Node host reads them, and put each question nearer the code that answers it', async () => {
    const found = codeVectorsFile();
    expect(found?.where).toMatch(/worker[/\\]models[/\\]code-vectors[/\\]python\.tcv$/);
    const embedder = await builtInEmbedder(found, 'test');
    expect(describeEmbedder(embedder).kind).toBe('code-vectors');
    const code = (v: Float32Array) => v.subarray(1024);
    const [iterable, reading, q1, q2] = (await embedder.embed([
      "def f(obj):\n    try:\n        iter(obj)\n    except TypeError:\n        return False\n    return True\n",
      "def g(path):\n    with open(path, encoding='utf-8') as handle:\n        return handle.read()\n",
      'check whether a variable can be looped over',
      'load the text of a document from disk',
    ])).map(code);
    expect(dot(q1!, iterable!)).toBeGreaterThan(dot(q1!, reading!));
    expect(dot(q2!, reading!)).toBeGreaterThan(dot(q2!, iterable!));
  });
});
