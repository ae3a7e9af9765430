/**
 * Code vectors: a learned vector for each word feature of a text (the stem of each lower-cased part of an
 * identifier, and of each whole identifier of several parts, by its 32-bit hash: `codeFeatures`), trained
 * so that the words of a question and the code that answers it lie close (scripts/code-vectors: docstring
 * summaries against their functions' code, from Python sources; worker/models/code-vectors/README.md says
 * which). A text's vector is the sum of its features' vectors weighted by (1 + ln tf) * idf, L2-normalised;
 * features the model does not know add nothing. The text is split once, by the hashing embedder beside
 * them (hashing.ts `embedWords`). Keyed by hash, a model holds no words; a word outside the vocabulary
 * whose hash equals a known one's (about one in 80,000 for a vocabulary of 50,000) borrows that vector.
 * Runtime-agnostic (no DOM, no node:*).
 *
 * The file (`.tcv`): `TCV1`; a little-endian u32 byte length, then a JSON header `{name, dims, count}`;
 * zero bytes to a 4-byte boundary; `count` u32 feature hashes in ascending order; `count` float32 idf weights; `count`
 * float32 row scales; `count * dims` int8 components (row i's component j is `int8 * scale[i]`).
 */
import { stem } from '../search/tokenize.ts';
import type { Embedder, EmbedderInfo } from './embedder.ts';
import { embedInSlices, FeatureCounts, fnv1a, HashingEmbedder } from './hashing.ts';

/** A model as it is trained: one float vector a term. */
export interface TrainedCodeVectors {
  /** Names the model in the embedder's id, so vectors made with another model are redone. */
  name: string;
  dims: number;
  /** The vocabulary in row order: each feature's hash (`codeFeatures`). */
  hashes: Uint32Array;
  idf: Float32Array;
  /** `hashes.length * dims` components, row by row. */
  vectors: Float32Array;
}

/** A model as it is read: the components kept in 8 bits (a quarter of the memory), one scale a row. */
export interface CodeVectors {
  name: string;
  dims: number;
  hashes: Uint32Array;
  idf: Float32Array;
  scales: Float32Array;
  components: Int8Array;
}

const MAGIC = 'TCV1';
const utf8 = new TextEncoder();

export function encodeCodeVectors(model: TrainedCodeVectors): Uint8Array {
  const { dims, vectors } = model;
  const count = model.hashes.length;
  // Rows in the order of their hashes: a reader finds a feature by binary search, with no table to build.
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => model.hashes[a]! - model.hashes[b]!);
  const header = utf8.encode(JSON.stringify({ name: model.name, dims, count }));
  const hashes = Uint32Array.from(order, (i) => model.hashes[i]!);
  const idf = Float32Array.from(order, (i) => model.idf[i]!);
  const scales = new Float32Array(count);
  const components = new Int8Array(count * dims);
  order.forEach((from, row) => {
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(vectors[from * dims + j]!));
    scales[row] = max / 127;
    for (let j = 0; j < dims; j++) components[row * dims + j] = max === 0 ? 0 : Math.round((vectors[from * dims + j]! * 127) / max);
  });
  const head = [utf8.encode(MAGIC), u32(header.length), header];
  const headLength = head.reduce((n, p) => n + p.length, 0);
  // The arrays start on a 4-byte boundary, so a reader views them in place.
  const pad = new Uint8Array((4 - (headLength % 4)) % 4);
  return concat([...head, pad, bytesOf(hashes), bytesOf(idf), bytesOf(scales), bytesOf(components)]);
}

export function decodeCodeVectors(bytes: ArrayBuffer): CodeVectors {
  const fail = (why: string): never => {
    throw new Error(`code vectors: ${why}`);
  };
  const view = new DataView(bytes);
  const text = new TextDecoder();
  if (bytes.byteLength < 12 || text.decode(new Uint8Array(bytes, 0, 4)) !== MAGIC) fail('not a TCV1 file');
  let at = 4;
  const chunk = (): Uint8Array => {
    if (at + 4 > bytes.byteLength) fail('the file is cut short');
    const length = view.getUint32(at, true);
    if (at + 4 + length > bytes.byteLength) fail('the file is cut short');
    const part = new Uint8Array(bytes, at + 4, length);
    at += 4 + length;
    return part;
  };
  const header = JSON.parse(text.decode(chunk())) as { name?: unknown; dims?: unknown; count?: unknown };
  const { name, dims, count } = header;
  if (typeof name !== 'string' || !Number.isInteger(dims) || !Number.isInteger(count) || (dims as number) < 1 || (count as number) < 1) fail('a bad header');
  at += (4 - (at % 4)) % 4;
  const [d, n] = [dims as number, count as number];
  if (at + n * 12 + n * d !== bytes.byteLength) fail('the file is cut short or has bytes to spare');
  const hashes = new Uint32Array(bytes, at, n);
  for (let i = 1; i < n; i++) if (hashes[i]! <= hashes[i - 1]!) fail('its feature hashes are not in ascending order');
  return {
    name: name as string,
    dims: d,
    hashes,
    idf: new Float32Array(bytes, at + n * 4, n),
    scales: new Float32Array(bytes, at + n * 8, n),
    components: new Int8Array(bytes, at + n * 12, n * d),
  };
}

/**
 * The hashing embedder's vector and the code vectors side by side, as one vector: `[sqrt(1 - w) * hashing,
 * sqrt(w) * code]`, both parts unit length, so the dot product of two is `1 - w` times their hashing cosine
 * plus `w` times their code-vector cosine. The hashing part matches spellings (typos, parts of words); the
 * code part matches meaning learnt from docstrings (a question's words to the code that does it). A text
 * with no term the model knows has only its hashing part (its length is then `sqrt(1 - w)`, not 1: its
 * code cosine with anything is 0, not a reason to count its spelling more).
 */
export class CodeVectorsEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Why it is the active embedder (set by whoever chose it). */
  reason: string | undefined;
  private readonly hashingScale: number;
  private readonly codeScale: number;
  private readonly hashing: HashingEmbedder;

  constructor(
    private readonly model: CodeVectors,
    options: { weight?: number; hashing?: HashingEmbedder } = {},
  ) {
    const weight = options.weight ?? CODE_WEIGHT;
    if (!(weight > 0 && weight < 1)) throw new RangeError(`code vectors: weight ${weight} is not between 0 and 1`);
    this.hashing = options.hashing ?? new HashingEmbedder();
    this.hashingScale = Math.sqrt(1 - weight);
    this.codeScale = Math.sqrt(weight);
    this.dimensions = this.hashing.dimensions + model.dims;
    this.id = `${this.hashing.id}+code-vectors-${model.name}-w${weight}`;
  }

  /** Yields to the event loop as the hashing embedder does, so a large call never stalls other requests long. */
  embed(texts: string[]): Promise<Float32Array[]> {
    return embedInSlices(texts, (text) => this.embedOne(text));
  }

  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    const { dims, idf, scales, components } = this.model;
    const rows = this.rows;
    rows.clear();
    const spelling = this.hashing.embedWords(text, (whole, parts) => forEachFeature(whole, parts, this.countRow));
    for (let i = 0; i < spelling.length; i++) vector[i] = spelling[i]! * this.hashingScale;
    const out = vector.subarray(spelling.length);
    rows.forEach((row, n) => {
      const w = (1 + Math.log(n)) * idf[row]! * scales[row]!;
      const at = row * dims;
      for (let j = 0; j < dims; j++) out[j]! += w * components[at + j]!;
    });
    this.scaleCodePart(out);
    return vector;
  }

  /** The rows of the text being embedded's known features, and how often each occurs (reused: embedOne is synchronous). */
  private readonly rows = new FeatureCounts();
  /**
   * Each word's row (-1: unknown) by seed, for the words seen lately: most of a library's words recur, and
   * stemming, hashing and searching them again cost more than the rest of the code part.
   */
  private readonly rowOfWord = new Map<number, Map<string, number>>([
    [SEED_WHOLE, new Map()],
    [SEED_STEM, new Map()],
  ]);

  private readonly countRow = (word: string, seed: number): void => {
    const cache = this.rowOfWord.get(seed)!;
    let row = cache.get(word);
    if (row === undefined) {
      if (cache.size >= MAX_CACHED_WORDS) cache.clear();
      cache.set(word, (row = rowOf(this.model.hashes, featureHash(word, seed))));
    }
    if (row >= 0) this.rows.add(row);
  };

  /** The code part made unit length, then times its share. */
  private scaleCodePart(out: Float32Array): void {
    const { dims } = this.model;
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += out[j]! * out[j]!;
    if (norm === 0) return;
    const k = this.codeScale / Math.sqrt(norm);
    for (let j = 0; j < dims; j++) out[j]! *= k;
  }

  describe(): EmbedderInfo {
    return { id: this.id, dimensions: this.dimensions, kind: 'code-vectors', status: 'ready', ...(this.reason ? { reason: this.reason } : {}) };
  }
}

/**
 * The code vectors' share of the blended cosine (see CodeVectorsEmbedder), chosen with relevance nDCG@10
 * on the tuning half of CoSQA (test/bench/relevance-quality.ts; docs/performance.md has the figures).
 */
export const CODE_WEIGHT = 0.4;

/** Distinct seeds keep a stem apart from the hashing embedder's word of the same letters. */
const SEED_STEM = fnv1a('code-vectors stem');
const SEED_WHOLE = fnv1a('code-vectors whole');

/** One identifier's features as (word, seed): the stem of each part, and of the whole when it has several. */
function forEachFeature(whole: string, parts: string[], visit: (word: string, seed: number) => void): void {
  if (parts.length > 1) visit(whole, SEED_WHOLE);
  for (const part of parts) visit(part, SEED_STEM);
}

/** A feature's hash: what the model's rows are keyed by. */
const featureHash = (word: string, seed: number) => fnv1a(stem(word), seed);

/** A text's code-vector features (hash -> count), as the embedder counts them: for training (scripts/code-vectors). */
export function codeFeatures(text: string, hashing = new HashingEmbedder()): Map<number, number> {
  const counts = new FeatureCounts();
  hashing.embedWords(text, (whole, parts) => forEachFeature(whole, parts, (word, seed) => counts.add(featureHash(word, seed))));
  const out = new Map<number, number>();
  counts.forEach((hash, n) => out.set(hash, n));
  return out;
}

/** How many words' rows an embedder keeps (per seed) before it starts again. */
const MAX_CACHED_WORDS = 100_000;

/** A feature's row: binary search over the hashes, which the file keeps in ascending order; -1 when unknown. */
function rowOf(hashes: Uint32Array, hash: number): number {
  let lo = 0;
  let hi = hashes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = hashes[mid]!;
    if (at === hash) return mid;
    if (at < hash) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The file of the code vectors Tessera ships, under its models folder (worker/models/ in this repository). */
export const CODE_VECTORS_FILE = 'code-vectors/python.tcv';

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

function bytesOf(a: Float32Array | Int8Array | Uint32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
