/**
 * The transformers.js path, end to end in Node: a tiny generated model (test/support/tiny-model.ts) in
 * the real file layout, loaded by the same TransformersEmbedder and selectEmbedder the service worker
 * uses (here transformers.js runs it on onnxruntime-node).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine, describeEmbedder, dot } from '../../worker/core/embed/embedder.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { selectEmbedder, type ModelSource } from '../../worker/core/embed/select.ts';
import { importModule } from '../../worker/node/import-modules.ts';
import { TransformersEmbedder } from '../../worker/core/embed/transformers.ts';
import { TINY_MODEL_ID, tinyModelFiles, writeTinyModel } from '../support/tiny-model.ts';

let root: string; // the models folder: <root>/<model id>/…

/** A ModelSource on the file system (the browser host uses fetchModelSource on its origin). */
function folderSource(dir: string): ModelSource {
  return {
    readText: (path) => readFile(join(dir, path), 'utf8').catch(() => undefined),
    exists: (path) => stat(join(dir, path)).then((s) => s.isFile(), () => false),
  };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tessera-models-'));
  await writeTinyModel(join(root, TINY_MODEL_ID));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

describe('transformers embedder on the generated tiny model', () => {
  it('loads from a local folder and returns normalised vectors of the hidden size', async () => {
    const embedder = new TransformersEmbedder({ model: TINY_MODEL_ID, modelPath: root + sep, dtype: 'fp32' });
    expect(embedder.id).toBe(`transformers:${TINY_MODEL_ID}`);
    expect(embedder.describe().status).toBe('available');
    const texts = ['read a json file', 'sort a list of numbers', 'read a json file', 'open a socket connection to the server'];
    const vectors = await embedder.embed(texts);
    expect(embedder.dimensions).toBe(32);
    expect(embedder.describe()).toMatchObject({ status: 'ready', dimensions: 32, kind: 'transformers' });
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(32);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    // Equal texts, equal vectors (whatever the batch and padding); different texts differ.
    expect(cosine(vectors[0]!, vectors[2]!)).toBeCloseTo(1, 5);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeLessThan(0.999);
    expect(cosine(vectors[1]!, vectors[3]!)).toBeLessThan(0.999);
    const [again] = await embedder.embed(['read a json file']);
    for (let i = 0; i < 32; i++) expect(again![i]).toBeCloseTo(vectors[0]![i]!, 5);
  });

  it('keeps order across adaptive batches, gives empty texts the zero vector, and reports slices', async () => {
    const embedder = new TransformersEmbedder({ model: TINY_MODEL_ID, modelPath: root + sep, dtype: 'fp32', sliceBudgetMs: 5 });
    const texts = Array.from({ length: 300 }, (_, i) => `${'token text code '.repeat(1 + (i % 40))} number ${i}`);
    texts[7] = '';
    const start = performance.now();
    const vectors = await embedder.embed(texts);
    const ms = performance.now() - start;
    expect(norm(vectors[7]!)).toBe(0);
    const [single] = await embedder.embed([texts[123]!]);
    expect(cosine(single!, vectors[123]!)).toBeCloseTo(1, 5);
    const info = embedder.describe();
    expect(info.stats!.batches).toBeGreaterThan(1);
    console.log(
      `tiny model (32-d, 1 layer) in Node: ${(ms / texts.length).toFixed(3)} ms/text over ${texts.length} texts, ` +
        `${info.stats!.batches} batches, longest slice ${info.stats!.longestSliceMs.toFixed(1)} ms, load ${info.stats!.loadMs.toFixed(0)} ms`,
    );
  });

  it('fails clearly when the weights are missing, and retries on the next call', async () => {
    const embedder = new TransformersEmbedder({ model: TINY_MODEL_ID, modelPath: root + sep, dtype: 'q8' });
    await expect(embedder.embed(['x'])).rejects.toThrow();
    expect(embedder.describe().status).toBe('failed');
    expect(embedder.describe().error).toBeTruthy();
  });
});

describe('selectEmbedder', () => {
  it('picks transformers when the model files are there, with the config hidden size', async () => {
    const embedder = await selectEmbedder({ loadModule: importModule, modelPath: root + sep, source: folderSource(root), model: TINY_MODEL_ID });
    expect(embedder).toBeInstanceOf(TransformersEmbedder);
    expect(describeEmbedder(embedder)).toMatchObject({ kind: 'transformers', status: 'available', dimensions: 32 });
    expect(describeEmbedder(embedder).reason).toContain('onnx/model.onnx');
    const [v] = await embedder.embed(['hello world']);
    expect(norm(v!)).toBeCloseTo(1, 5);
  });

  it('picks hashing when there are no files, and says why', async () => {
    const embedder = await selectEmbedder({ loadModule: importModule, modelPath: root + sep, source: folderSource(root) }); // default MiniLM: absent
    expect(embedder).toBeInstanceOf(HashingEmbedder);
    expect(describeEmbedder(embedder)).toMatchObject({ kind: 'hashing', status: 'ready', id: 'hashing-v3-1024' });
    expect(describeEmbedder(embedder).reason).toContain('no config.json');
  });

  it('does not take an HTML page or a config without weights for a model', async () => {
    const html: ModelSource = { readText: async () => '<!doctype html><title>app</title>', exists: async () => true };
    expect(await selectEmbedder({ loadModule: importModule, modelPath: '/models/', source: html })).toBeInstanceOf(HashingEmbedder);
    const noWeights: ModelSource = {
      readText: async () => JSON.stringify({ model_type: 'bert', hidden_size: 384 }),
      exists: async (path) => path.endsWith('tokenizer.json'),
    };
    const embedder = await selectEmbedder({ loadModule: importModule, modelPath: '/models/', source: noWeights });
    expect(embedder).toBeInstanceOf(HashingEmbedder);
    expect(describeEmbedder(embedder).reason).toContain('model_quantized.onnx');
  });

  it('picks the quantized weights when present', async () => {
    const both: ModelSource = {
      readText: async () => JSON.stringify({ model_type: 'bert', hidden_size: 384 }),
      exists: async () => true,
    };
    const embedder = await selectEmbedder({ loadModule: importModule, modelPath: '/models/', source: both });
    expect(embedder).toBeInstanceOf(TransformersEmbedder);
    expect((embedder as TransformersEmbedder).dtype).toBe('q8');
    expect(embedder.dimensions).toBe(384);
    expect(embedder.id).toBe('transformers:Xenova/all-MiniLM-L6-v2');
  });
});

describe('fetching from a model hub when allowed', () => {
  // A loopback stand-in for the hub: `/<model>/resolve/main/<file>`, counting the requests it answers.
  const HUB_MODEL = 'tessera-test/hub-only';
  const files = tinyModelFiles({ hidden: 16, seed: 7 });
  // Hub repos such as Xenova/all-MiniLM-L6-v2 have the int8 file, which is what is fetched (q8); here
  // the fp32 graph stands in for it under that name.
  files['onnx/model_quantized.onnx'] = files['onnx/model.onnx']!;
  delete files['onnx/model.onnx'];
  const served: string[] = [];
  let server: Server;
  let hub: string;
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'tessera-model-cache-'));
    server = createServer((req, res) => {
      const prefix = `/${HUB_MODEL}/resolve/main/`;
      const name = req.url?.startsWith(prefix) ? decodeURIComponent(req.url.slice(prefix.length)) : undefined;
      const body = name ? files[name] : undefined;
      if (body === undefined) return void res.writeHead(404).end();
      served.push(name!);
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hub = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('is refused unless allowed', async () => {
    const embedder = await selectEmbedder({ loadModule: importModule, modelPath: root + sep, source: folderSource(root), model: HUB_MODEL, remoteHost: hub });
    expect(embedder).toBeInstanceOf(HashingEmbedder);
    expect(served).toEqual([]);
  });

  it('fetches the files once, then loads them from the cache', async () => {
    const select = () =>
      selectEmbedder({
        loadModule: importModule,
        modelPath: root + sep,
        source: folderSource(root),
        model: HUB_MODEL,
        allowRemote: true,
        remoteHost: hub,
        transformers: { cacheDir },
      });
    const first = await select();
    expect(first).toBeInstanceOf(TransformersEmbedder);
    expect(describeEmbedder(first)).toMatchObject({ status: 'available', dimensions: 0 }); // known once loaded
    expect(describeEmbedder(first).reason).toContain(hub);
    const [a] = await first.embed(['fetched once']);
    expect(first.dimensions).toBe(16);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(served).toEqual(expect.arrayContaining(['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']));
    const fetched = served.length;

    const second = await select(); // a new worker lifetime: a new pipeline, the same cache
    const [b] = await second.embed(['fetched once']);
    expect(served.length).toBe(fetched);
    for (let i = 0; i < 16; i++) expect(b![i]).toBeCloseTo(a![i]!, 6);
  });
});

describe('meanPool', () => {
  it('averages the masked tokens of each sequence like transformers.js mean_pooling', async () => {
    const { Tensor, mean_pooling } = await import('@huggingface/transformers');
    const { meanPool } = await import('../../worker/core/embed/transformers.ts');
    const [batch, length, width] = [3, 5, 4];
    const hidden = new Tensor('float32', Float32Array.from({ length: batch * length * width }, (_, i) => Math.sin(i)), [batch, length, width]);
    const mask = new Tensor('int64', BigInt64Array.from([1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0].map(BigInt)), [batch, length]);
    const ours = meanPool(hidden, mask);
    const theirs = mean_pooling(hidden, mask).tolist() as number[][];
    ours.forEach((row, b) => row.forEach((x, i) => expect(x).toBeCloseTo(theirs[b]![i]!, 6)));
  });
});
