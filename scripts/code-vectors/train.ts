/**
 * Trains the code vectors: one learned vector a word feature, so that a question's words and the code
 * that answers it land near each other (a neural bag of words, the CodeSearchNet baseline), from the pairs
 * extract.py wrote. A text's vector is the idf-weighted sum of its features' vectors (code-vectors.ts
 * `codeFeatures`: the stems of identifiers' parts and of whole identifiers, by hash), normalised;
 * training pulls each docstring summary towards its function's code and away from the other functions of
 * its batch (in-batch softmax, InfoNCE).
 *
 *   npx esbuild scripts/code-vectors/train.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=.scratch/train.mjs && node .scratch/train.mjs --pairs .scratch/pairs.jsonl --out <file>
 *
 * Options: --name py1 (the model's name in the embedder's id), --dims 128, --vocab 50000, --keep <all>, --epochs 6, --batch 512, --lr 0.002, --temperature 0.05, --seed 1.
 * Plain loops over Float32Arrays: a few minutes on two cores for 100,000 pairs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { codeFeatures, encodeCodeVectors } from '../../worker/core/embed/code-vectors.ts';
import { HashingEmbedder } from '../../worker/core/embed/hashing.ts';
import { mulberry32 } from '../../test/support/random.ts';

const { values: args } = parseArgs({
  options: {
    pairs: { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string', default: 'py1' },
    dims: { type: 'string', default: '128' },
    vocab: { type: 'string', default: '50000' },
    keep: { type: 'string' },
    epochs: { type: 'string', default: '6' },
    batch: { type: 'string', default: '512' },
    lr: { type: 'string', default: '0.002' },
    temperature: { type: 'string', default: '0.05' },
    seed: { type: 'string', default: '1' },
    'min-count': { type: 'string', default: '3' },
  },
});
if (!args.pairs || !args.out) throw new Error('train: --pairs <jsonl> and --out <file> are required');
const DIMS = Number(args.dims);
const VOCAB = Number(args.vocab);
const EPOCHS = Number(args.epochs);
const BATCH = Number(args.batch);
const LR = Number(args.lr);
const TAU = Number(args.temperature);
const MIN_COUNT = Number(args['min-count']);

// Seeded (mulberry32): the same pairs and seed give the same model.
const rand = mulberry32(Number(args.seed));

interface Pair {
  query: string;
  code: string;
}
const pairs: Pair[] = readFileSync(args.pairs, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Pair);
console.error(`train: ${pairs.length} pairs`);

// Each text's features and their counts, as the embedder counts them.
const hashing = new HashingEmbedder();
const queryFeatures = pairs.map((p) => codeFeatures(p.query, hashing));
const codeSideFeatures = pairs.map((p) => codeFeatures(p.code, hashing));

// The vocabulary: the commonest features of both sides; document frequency over every text for the idf.
const df = new Map<number, number>();
for (const list of [...queryFeatures, ...codeSideFeatures]) for (const hash of list.keys()) df.set(hash, (df.get(hash) ?? 0) + 1);
const vocabulary = [...df.entries()]
  .filter(([, n]) => n >= MIN_COUNT)
  .sort((a, b) => b[1] - a[1] || a[0] - b[0])
  .slice(0, VOCAB)
  .map(([hash]) => hash);
const rowOf = new Map(vocabulary.map((hash, i) => [hash, i]));
const texts = 2 * pairs.length;
const idf = Float32Array.from(vocabulary, (hash) => Math.log(1 + texts / df.get(hash)!));
console.error(`train: vocabulary ${vocabulary.length} features`);

/** A text as its features' rows and weights ((1 + ln tf) * idf), the sum the embedder makes. */
interface Bag {
  ids: Int32Array;
  weights: Float32Array;
}
function bag(counts: Map<number, number>): Bag {
  const known = [...counts].filter(([hash]) => rowOf.has(hash));
  return { ids: Int32Array.from(known, ([hash]) => rowOf.get(hash)!), weights: Float32Array.from(known, ([hash, n]) => (1 + Math.log(n)) * idf[rowOf.get(hash)!]!) };
}
const examples = pairs.map((_, i) => ({ q: bag(queryFeatures[i]!), d: bag(codeSideFeatures[i]!) })).filter((e) => e.q.ids.length > 0 && e.d.ids.length > 0);
console.error(`train: ${examples.length} pairs with known terms on both sides`);

const V = vocabulary.length;
const E = new Float32Array(V * DIMS);
for (let i = 0; i < E.length; i++) E[i] = (rand() * 2 - 1) * 0.1;
const m = new Float32Array(V * DIMS);
const v2 = new Float32Array(V * DIMS);
const grad = new Float32Array(V * DIMS);
const touched = new Uint8Array(V);
const touchedList: number[] = [];

/** The text's vector before normalising, into `out`; returns its length. */
function sum(b: Bag, out: Float32Array): number {
  out.fill(0);
  for (let k = 0; k < b.ids.length; k++) {
    const row = b.ids[k]! * DIMS;
    const w = b.weights[k]!;
    for (let j = 0; j < DIMS; j++) out[j]! += w * E[row + j]!;
  }
  let n = 0;
  for (let j = 0; j < DIMS; j++) n += out[j]! * out[j]!;
  n = Math.sqrt(n) || 1;
  for (let j = 0; j < DIMS; j++) out[j]! /= n;
  return n;
}

/** Adds the gradient of a normalised vector `u` (length `n` before) back to its terms' rows. */
function backward(b: Bag, u: Float32Array, n: number, du: Float32Array): void {
  let dot = 0;
  for (let j = 0; j < DIMS; j++) dot += u[j]! * du[j]!;
  const dv = new Float32Array(DIMS);
  for (let j = 0; j < DIMS; j++) dv[j] = (du[j]! - u[j]! * dot) / n;
  for (let k = 0; k < b.ids.length; k++) {
    const id = b.ids[k]!;
    if (!touched[id]) {
      touched[id] = 1;
      touchedList.push(id);
    }
    const row = id * DIMS;
    const w = b.weights[k]!;
    for (let j = 0; j < DIMS; j++) grad[row + j]! += w * dv[j]!;
  }
}

let step = 0;
const B1 = 0.9;
const B2 = 0.999;
function adam(): void {
  step++;
  const c1 = 1 - B1 ** step;
  const c2 = 1 - B2 ** step;
  for (const id of touchedList) {
    const row = id * DIMS;
    for (let j = row; j < row + DIMS; j++) {
      const g = grad[j]!;
      m[j] = B1 * m[j]! + (1 - B1) * g;
      v2[j] = B2 * v2[j]! + (1 - B2) * g * g;
      E[j]! -= (LR * (m[j]! / c1)) / (Math.sqrt(v2[j]! / c2) + 1e-8);
      grad[j] = 0;
    }
    touched[id] = 0;
  }
  touchedList.length = 0;
}

const order = examples.map((_, i) => i);
for (let epoch = 0; epoch < EPOCHS; epoch++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  let lossSum = 0;
  let batches = 0;
  const t0 = performance.now();
  for (let start = 0; start + BATCH <= order.length; start += BATCH) {
    const batch = order.slice(start, start + BATCH).map((i) => examples[i]!);
    const Q = batch.map(() => new Float32Array(DIMS));
    const D = batch.map(() => new Float32Array(DIMS));
    const qn = batch.map((e, i) => sum(e.q, Q[i]!));
    const dn = batch.map((e, i) => sum(e.d, D[i]!));
    const dQ = batch.map(() => new Float32Array(DIMS));
    const dD = batch.map(() => new Float32Array(DIMS));
    const row = new Float64Array(BATCH);
    let loss = 0;
    for (let i = 0; i < BATCH; i++) {
      let max = -Infinity;
      for (let k = 0; k < BATCH; k++) {
        let s = 0;
        const q = Q[i]!;
        const d = D[k]!;
        for (let j = 0; j < DIMS; j++) s += q[j]! * d[j]!;
        row[k] = s / TAU;
        if (row[k]! > max) max = row[k]!;
      }
      let z = 0;
      for (let k = 0; k < BATCH; k++) z += (row[k] = Math.exp(row[k]! - max));
      loss += -Math.log(row[i]! / z);
      for (let k = 0; k < BATCH; k++) {
        const g = (row[k]! / z - (k === i ? 1 : 0)) / (BATCH * TAU);
        if (g === 0) continue;
        const q = Q[i]!;
        const d = D[k]!;
        const gq = dQ[i]!;
        const gd = dD[k]!;
        for (let j = 0; j < DIMS; j++) {
          gq[j]! += g * d[j]!;
          gd[j]! += g * q[j]!;
        }
      }
    }
    batch.forEach((e, i) => {
      backward(e.q, Q[i]!, qn[i]!, dQ[i]!);
      backward(e.d, D[i]!, dn[i]!, dD[i]!);
    });
    adam();
    lossSum += loss / BATCH;
    batches++;
  }
  console.error(`train: epoch ${epoch + 1}/${EPOCHS} loss ${(lossSum / batches).toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

// `--keep N` writes the N commonest features only (the vocabulary is in order of document frequency): the
// rarer ones' vectors were learnt with the rest but move few texts (docs/performance.md, "Code vectors").
const kept = Math.min(Number(args.keep ?? V), V);
writeFileSync(args.out, encodeCodeVectors({ name: args.name!, dims: DIMS, hashes: Uint32Array.from(vocabulary.slice(0, kept)), idf: idf.slice(0, kept), vectors: E.slice(0, kept * DIMS) }));
console.error(`train: wrote ${args.out}`);
