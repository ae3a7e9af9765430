/**
 * The guesslang network that VS Code ships (`@vscode/vscode-languagedetection`), evaluated directly
 * instead of through TF.js. Its graph (model.json) is small and fixed:
 *
 *   bytes of the text -> byte bigrams joined by a space ("a b") -> the first 10,000 of them ->
 *   each hashed into 5,000 buckets (TensorFlow's StringToHashBucketFast: Fingerprint64 mod 5,000) ->
 *   DNN:    mean of the buckets' 70-wide embeddings -> 512 ReLU -> 32 ReLU -> 54 logits
 *   linear: sum of the buckets' 54 weights + bias
 *   -> softmax of the two logits added.
 *
 * The weights are read from the model's own files, dequantised as TF.js does. A bigram is three bytes,
 * so its hash depends on two bytes only: the 65,536 buckets are computed once, at load. Evaluating
 * the network is then a few hundred thousand multiply-adds, with no graph executor, no string tensors
 * and no 840 KB library to load (test/unit/guesslang.test.ts checks it against TF.js).
 */

/** The parsed files of a TF.js graph model: model.json and its one weights shard. */
export interface GraphModelFiles {
  modelJson: Record<string, unknown>;
  weights: ArrayBuffer;
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'string' | 'bool';
  quantization?: { dtype: 'uint8' | 'uint16' | 'float16'; min?: number; scale?: number };
}

/** What the network needs, under the names its graph gives them. */
const WEIGHT_NAMES = {
  labels: 'head/ExpandDims/input',
  embedding: 'dnn/input_from_feature_columns/input_layer/content_embedding/embedding_weights',
  hidden0Kernel: 'dnn/hiddenlayer_0/kernel',
  hidden0Bias: 'dnn/hiddenlayer_0/bias',
  hidden1Kernel: 'dnn/hiddenlayer_1/kernel',
  hidden1Bias: 'dnn/hiddenlayer_1/bias',
  logitsKernel: 'dnn/logits/kernel',
  logitsBias: 'dnn/logits/bias',
  linear: 'linear/linear_model/content/weights',
  linearBias: 'linear/linear_model/bias_weights',
} as const;

type WeightKey = keyof typeof WEIGHT_NAMES;

/** The graph's fixed choices (checked against model.json at load, so a different model is refused). */
const BUCKETS = 5000;
const MAX_BIGRAMS = 10_000;
/** `ModelOperations.runModel`: shorter texts get no opinion, longer ones are cut. */
const MIN_CONTENT_CHARS = 20;
const MAX_CONTENT_CHARS = 100_000;

interface Dense {
  kernel: Float32Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
}

export interface GuesslangNetwork {
  /** The model's labels (file extensions such as `py`, `ts`), in the order of its outputs. */
  readonly labels: readonly string[];
  /** A probability per label (summing to 1); empty for a text too short to judge. */
  predict(text: string): Float32Array | undefined;
}

/** A weight of the shard: where its bytes are, and its strings once decoded. */
interface StoredWeight {
  spec: WeightSpec;
  offset: number;
  strings?: string[];
}

/** Finds the weights named in the manifest in the shard (laid out in manifest order, as TF.js reads it). */
function locateWeights(files: GraphModelFiles): Map<string, StoredWeight> {
  const manifest = files.modelJson.weightsManifest as { paths: string[]; weights: WeightSpec[] }[] | undefined;
  if (manifest?.length !== 1) throw new Error('language model: expected one weights group');
  const wanted = new Set<string>(Object.values(WEIGHT_NAMES));
  const bytes = new Uint8Array(files.weights);
  const view = new DataView(files.weights);
  const decoder = new TextDecoder();
  const found = new Map<string, StoredWeight>();
  let offset = 0;
  for (const spec of manifest[0]!.weights) {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const stored: StoredWeight = { spec, offset };
    if (spec.dtype === 'string') {
      // Each string is its length (uint32) and its bytes; only the labels are decoded.
      const strings: string[] = [];
      for (let i = 0; i < size; i++) {
        const length = view.getUint32(offset, true);
        offset += 4;
        if (wanted.has(spec.name)) strings.push(decoder.decode(bytes.subarray(offset, offset + length)));
        offset += length;
      }
      stored.strings = strings;
    } else {
      const q = spec.quantization?.dtype;
      offset += size * (q === 'uint8' || spec.dtype === 'bool' ? 1 : q ? 2 : 4);
    }
    if (wanted.has(spec.name)) found.set(spec.name, stored);
  }
  if (offset !== bytes.length) throw new Error(`language model: the weights file has ${bytes.length} bytes, the manifest ${offset}`);
  return found;
}

/** A uint8-quantised table, kept as bytes: value = byte * scale + min. */
interface QuantizedTable {
  bytes: Uint8Array;
  scale: number;
  min: number;
}

function quantizedTable(weights: ArrayBuffer, { spec, offset }: StoredWeight): QuantizedTable {
  const q = spec.quantization;
  if (spec.dtype !== 'float32' || q?.dtype !== 'uint8') throw new Error(`language model: ${spec.name} is not a uint8-quantised table`);
  const size = spec.shape.reduce((a, b) => a * b, 1);
  return { bytes: new Uint8Array(weights, offset, size), scale: q.scale ?? 1, min: q.min ?? 0 };
}

function floats(weights: ArrayBuffer, { spec, offset }: StoredWeight): Float32Array {
  if (spec.dtype !== 'float32') throw new Error(`language model: ${spec.name} is ${spec.dtype}, not float32`);
  const size = spec.shape.reduce((a, b) => a * b, 1);
  const q = spec.quantization;
  if (!q) return new Float32Array(weights.slice(offset, offset + 4 * size));
  if (q.dtype !== 'uint8') throw new Error(`language model: ${q.dtype} quantisation is not supported`);
  const { bytes, scale, min } = quantizedTable(weights, { spec, offset });
  return Float32Array.from(bytes, (b) => b * scale + min);
}

// Fingerprint64 (farmhash) of a string of three bytes, the only length a byte bigram has, in unsigned
// 64-bit arithmetic on four 16-bit limbs (BigInt made building the table 100 times slower).
type U64 = [number, number, number, number];
const K0: U64 = [0x3127, 0x97cb, 0xc85c, 0xc3a5]; // 0xc3a5c85c97cb3127
const K2: U64 = [0x404f, 0x2f90, 0x6a3b, 0x9ae1]; // 0x9ae16a3b2f90404f

function u64(n: number): U64 {
  return [n & 0xffff, (n >>> 16) & 0xffff, 0, 0];
}

/** a * b mod 2^64. */
function mul(a: U64, b: U64): U64 {
  const r = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    let carry = 0;
    for (let j = 0; i + j < 4; j++) {
      const t = r[i + j]! + a[i]! * b[j]! + carry;
      r[i + j] = t % 0x10000;
      carry = Math.floor(t / 0x10000);
    }
  }
  return r as U64;
}

function xor(a: U64, b: U64): U64 {
  return [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]];
}

/** v >> 47: bits 47-63 of v, i.e. the top bit of limb 2 and limb 3. */
function shiftRight47(v: U64): U64 {
  return [(v[2] >>> 15) | ((v[3] << 1) & 0xffff), v[3] >>> 15, 0, 0];
}

/** v mod m for a small m, exactly: Horner over the limbs stays below 2^53. */
function mod(v: U64, m: number): number {
  let r = 0;
  for (let i = 3; i >= 0; i--) r = (r * 0x10000 + v[i]!) % m;
  return r;
}

/** farmhash's HashLen0to16 for the three bytes a, b, c. */
function fingerprint64Of3(a: number, b: number, c: number): U64 {
  const y = u64(a + (b << 8));
  const z = u64(3 + (c << 2));
  const v = xor(mul(y, K2), mul(z, K0));
  return mul(xor(v, shiftRight47(v)), K2);
}

/** Not computed yet (a bucket is below 5,000). */
const UNKNOWN_BUCKET = 0xffff;

/**
 * The bucket of the bigram "x y" (x, space, y) is `table[x * 256 + y]`, filled on first use: a text
 * meets a few hundred of the 65,536, and computing them all at load took about 25 ms.
 */
function bucketOfBigram(table: Uint16Array, x: number, y: number): number {
  const i = x * 256 + y;
  let bucket = table[i]!;
  if (bucket === UNKNOWN_BUCKET) table[i] = bucket = mod(fingerprint64Of3(x, 0x20, y), BUCKETS);
  return bucket;
}

function dense(kernel: Float32Array, bias: Float32Array, inputs: number): Dense {
  return { kernel, bias, inputs, outputs: bias.length };
}

/** x (inputs) times the kernel (inputs x outputs, row-major) plus bias, in place into `out`. */
function apply(layer: Dense, x: Float32Array, out: Float32Array, relu: boolean): void {
  const { kernel, bias, inputs, outputs } = layer;
  out.set(bias);
  for (let i = 0; i < inputs; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    const row = i * outputs;
    for (let j = 0; j < outputs; j++) out[j] += xi * kernel[row + j]!;
  }
  if (relu) for (let j = 0; j < outputs; j++) if (out[j]! < 0) out[j] = 0;
}

interface GraphNode {
  op: string;
  attr?: Record<string, { i?: string; s?: string; list?: { i?: string[] } }>;
}

/** Checks that the graph is the one this code evaluates: byte bigrams joined by a space, 5,000 buckets. */
function checkGraph(modelJson: Record<string, unknown>): void {
  const topology = modelJson.modelTopology as { node?: GraphNode[]; library?: { function?: { nodeDef?: GraphNode[] }[] } } | undefined;
  const nodes = [...(topology?.node ?? []), ...(topology?.library?.function ?? []).flatMap((f) => f.nodeDef ?? [])];
  const ngrams = nodes.filter((n) => n.op === 'StringNGrams');
  const hashes = nodes.filter((n) => n.op === 'StringToHashBucketFast');
  const bigrams =
    ngrams.length === 1 &&
    ngrams[0]!.attr?.ngram_widths?.list?.i?.join() === '2' &&
    ngrams[0]!.attr?.separator?.s === 'IA==' && // base64 of ' '
    nodes.some((n) => n.op === 'StringSplit');
  const buckets = hashes.length > 0 && hashes.every((n) => n.attr?.num_buckets?.i === String(BUCKETS));
  if (!bigrams || !buckets) throw new Error('language model: not the guesslang graph this code evaluates');
}

/** Builds the network from its files; throws when they are not the expected model. */
export function loadGuesslang(files: GraphModelFiles): GuesslangNetwork {
  checkGraph(files.modelJson);
  const stored = locateWeights(files);
  const weight = (key: WeightKey) => {
    const found = stored.get(WEIGHT_NAMES[key]);
    if (!found) throw new Error(`language model: no weight ${WEIGHT_NAMES[key]}`);
    return found;
  };
  const floatsOf = (key: WeightKey) => floats(files.weights, weight(key));
  const labels = weight('labels').strings ?? [];
  const [rows, width] = weight('embedding').spec.shape as [number, number];
  if (rows !== BUCKETS) throw new Error(`language model: ${rows} buckets, expected ${BUCKETS}`);
  const classes = labels.length;

  // The two tables a bigram selects rows of stay quantised: the sum of n rows is
  // scale * (sum of their bytes) + n * min, so nothing is dequantised at load.
  const embedding = quantizedTable(files.weights, weight('embedding'));
  const linear = quantizedTable(files.weights, weight('linear'));
  const linearBias = floatsOf('linearBias');
  const hidden0 = dense(floatsOf('hidden0Kernel'), floatsOf('hidden0Bias'), width);
  const hidden1 = dense(floatsOf('hidden1Kernel'), floatsOf('hidden1Bias'), hidden0.outputs);
  const logits = dense(floatsOf('logitsKernel'), floatsOf('logitsBias'), hidden1.outputs);
  if (logits.outputs !== classes || linearBias.length !== classes || linear.bytes.length !== BUCKETS * classes) {
    throw new Error('language model: labels and outputs disagree');
  }

  const buckets = new Uint16Array(65_536).fill(UNKNOWN_BUCKET);
  const encoder = new TextEncoder();
  // Scratch buffers, reused: predict runs to completion without awaiting.
  const counts = new Uint16Array(BUCKETS);
  const seen = new Uint16Array(MAX_BIGRAMS);
  const embeddingSum = new Int32Array(width);
  const linearSum = new Int32Array(classes);
  const meanEmbedding = new Float32Array(width);
  const h0 = new Float32Array(hidden0.outputs);
  const h1 = new Float32Array(hidden1.outputs);
  const out = new Float32Array(classes);

  return {
    labels,
    predict(input) {
      if (!input || input.length < MIN_CONTENT_CHARS) return undefined;
      let text = input.length >= MAX_CONTENT_CHARS ? input.slice(0, MAX_CONTENT_CHARS) : input;
      text = text.replace(/\r\n/g, '\n');
      // Only the first 10,001 bytes make bigrams; a character is at least one byte.
      const bytes = encoder.encode(text.length > MAX_BIGRAMS + 1 ? text.slice(0, MAX_BIGRAMS + 1) : text);
      const bigrams = Math.min(bytes.length - 1, MAX_BIGRAMS);
      if (bigrams <= 0) return undefined;

      let distinct = 0;
      for (let i = 0; i < bigrams; i++) {
        const bucket = bucketOfBigram(buckets, bytes[i]!, bytes[i + 1]!);
        if (counts[bucket]++ === 0) seen[distinct++] = bucket;
      }

      embeddingSum.fill(0);
      linearSum.fill(0);
      for (let k = 0; k < distinct; k++) {
        const bucket = seen[k]!;
        const n = counts[bucket]!;
        counts[bucket] = 0;
        const e = bucket * width;
        for (let j = 0; j < width; j++) embeddingSum[j] += n * embedding.bytes[e + j]!;
        const l = bucket * classes;
        for (let j = 0; j < classes; j++) linearSum[j] += n * linear.bytes[l + j]!;
      }
      for (let j = 0; j < width; j++) meanEmbedding[j] = (embedding.scale * embeddingSum[j]!) / bigrams + embedding.min;

      apply(hidden0, meanEmbedding, h0, true);
      apply(hidden1, h0, h1, true);
      apply(logits, h1, out, false);
      let max = -Infinity;
      for (let j = 0; j < classes; j++) {
        out[j] += linearBias[j]! + linear.scale * linearSum[j]! + bigrams * linear.min;
        if (out[j]! > max) max = out[j]!;
      }
      let sum = 0;
      for (let j = 0; j < classes; j++) sum += out[j] = Math.exp(out[j]! - max);
      const probabilities = new Float32Array(classes);
      for (let j = 0; j < classes; j++) probabilities[j] = out[j]! / sum;
      return probabilities;
    },
  };
}
