/**
 * The deterministic hashing embedder: no model files, no network, the same vector for the same text on
 * every runtime. Features are hashed (FNV-1a, 32-bit) into a fixed-size vector with signed hashing (the
 * sign comes from a hash bit the index does not use, so collisions cancel out on average instead of
 * piling up); each feature's weight is sub-linear in its count (1 + ln tf); the vector is L2-normalised.
 *
 * Features of a text:
 * - words, code-aware: runs of letters and digits, split at snake_case / kebab-case / dots (not letters)
 *   and at camelCase / PascalCase / letter-digit boundaries (`parseHTTPResponse2` -> parse, http,
 *   response, 2), lower-cased, weight `wordWeight`;
 * - the whole identifier (`parsehttpresponse2`) when it had several parts, weight `wordWeight`, so an
 *   exact identifier match counts more than its parts;
 * - character n-grams (`ngramMin`..`ngramMax`) of each part framed as `<part>`, weight `ngramWeight`,
 *   so morphological variants (`parse`, `parser`, `parsing`) and typos still share mass.
 *
 * Runtime-agnostic (no DOM, no node:*). About 0.03 ms per CoSQA function in Node, counting its features
 * in reused typed arrays (FeatureCounts); it yields every 20 ms inside `embed`.
 *
 * Defaults, from vector-only retrieval on CoSQA (6,267 functions, the 500 dev queries with the word
 * "python" dropped from them, nDCG@10): 384 dimensions 0.298, 1024 0.349, 2048 0.365 (n-gram weight
 * 0.35); at 1024, n-gram weight 0.2 / 0.35 / 0.6 / 0.8 / 1.0 gave 0.258 (at 384) / 0.349 / 0.365 /
 * 0.365 / 0.363, no n-grams 0.193 (at 384), 2-4-grams 0.373, 3-6-grams 0.359. So 1024 dimensions at
 * weight 0.8 (plain BM25 reaches 0.386 there; the two blend). Blended with BM25F in `/qgpt/relevance`
 * (qgpt/rank.ts, test/bench/relevance-quality.ts), 3-5-grams gave nDCG@10 0.456 and 2-4-grams 0.466: 2-4.
 */
import { timeSlices } from '../timers.ts';
import { normalize, type Embedder, type EmbedderInfo } from './embedder.ts';
import { CAMEL } from '../search/tokenize.ts';

export interface HashingOptions {
  /** Vector length. Default 1024 (see the CoSQA figures above). */
  dimensions?: number;
  /** Smallest and largest character n-gram. Default 2 and 4; `ngramMax: 0` turns n-grams off. */
  ngramMin?: number;
  ngramMax?: number;
  /** Weight of a word (and of a whole identifier) feature. Default 1. */
  wordWeight?: number;
  /** Weight of a character n-gram feature. Default 0.8. */
  ngramWeight?: number;
}

/** Bumped whenever a change to this file changes the vectors, so stored vectors are recomputed. */
export const HASHING_VERSION = 3;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
// Distinct seeds keep word, identifier and n-gram features apart (`ab` the word vs `ab` the n-gram).
const SEED_WORD = fnvStep(FNV_OFFSET, 0x57);
const SEED_IDENT = fnvStep(FNV_OFFSET, 0x49);
const SEED_NGRAM = fnvStep(FNV_OFFSET, 0x47);
const BOUNDARY = 0x1f; // frames a part for its n-grams, a code no word contains

/** Tables larger than this (a text of tens of thousands of features) are not kept for the next text. */
const MAX_KEPT_SLOTS = 1 << 16;

/**
 * How often each feature (its 32-bit hash) occurs in one text, in the order first seen: what a Map would
 * count, in typed arrays that one embedder reuses for every text (the Map's allocations were most of the
 * embedder's time). Visiting in first-seen order keeps the vector's float sums, so the bits, as before.
 */
export class FeatureCounts {
  private hashes = new Uint32Array(256);
  /** 0: an empty slot. */
  private counts = new Uint32Array(256);
  /** The slots taken, in the order their features were first seen. */
  private order = new Uint32Array(256);
  private size = 0;

  add(hash: number): void {
    const mask = this.hashes.length - 1;
    let slot = hash & mask;
    while (this.counts[slot] !== 0 && this.hashes[slot] !== hash) slot = (slot + 1) & mask;
    if (this.counts[slot]++ !== 0) return;
    this.hashes[slot] = hash;
    this.order[this.size++] = slot;
    if (this.size * 2 > this.hashes.length) this.grow();
  }

  forEach(fn: (hash: number, count: number) => void): void {
    for (let i = 0; i < this.size; i++) fn(this.hashes[this.order[i]!]!, this.counts[this.order[i]!]!);
  }

  /** Empties it for the next text: the slots used only, or new small tables after a very long text. */
  clear(): void {
    if (this.hashes.length > MAX_KEPT_SLOTS) this.use(new Uint32Array(256), new Uint32Array(256), new Uint32Array(256), 0);
    for (let i = 0; i < this.size; i++) this.counts[this.order[i]!] = 0;
    this.size = 0;
  }

  private grow(): void {
    const { hashes, counts, order, size } = this;
    const length = hashes.length * 2;
    const [newHashes, newCounts, newOrder] = [new Uint32Array(length), new Uint32Array(length), new Uint32Array(length)];
    for (let i = 0; i < size; i++) {
      let slot = hashes[order[i]!]! & (length - 1);
      while (newCounts[slot] !== 0) slot = (slot + 1) & (length - 1);
      newHashes[slot] = hashes[order[i]!]!;
      newCounts[slot] = counts[order[i]!]!;
      newOrder[i] = slot;
    }
    this.use(newHashes, newCounts, newOrder, size);
  }

  /** Swaps in tables already filled, all at once (an allocation that fails leaves the old ones whole). */
  private use(hashes: Uint32Array<ArrayBuffer>, counts: Uint32Array<ArrayBuffer>, order: Uint32Array<ArrayBuffer>, size: number): void {
    this.hashes = hashes;
    this.counts = counts;
    this.order = order;
    this.size = size;
  }
}

function fnvStep(hash: number, code: number): number {
  // One FNV-1a round per UTF-16 code unit, both bytes of it.
  hash = Math.imul(hash ^ (code & 0xff), FNV_PRIME);
  return Math.imul(hash ^ (code >>> 8), FNV_PRIME);
}

/** FNV-1a (32-bit, unsigned) of a string's UTF-16 code units, from `seed`. */
export function fnv1a(text: string, seed = FNV_OFFSET): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) hash = fnvStep(hash, text.charCodeAt(i));
  return hash >>> 0;
}

const RUN = /[\p{L}\p{N}]+/gu;

/** A text's identifiers (runs of letters and digits), each with its lower-cased camelCase parts. */
export function identifiers(text: string): { whole: string; parts: string[] }[] {
  const out: { whole: string; parts: string[] }[] = [];
  for (const match of text.matchAll(RUN)) {
    const run = match[0];
    const parts = run.split(CAMEL).map((p) => p.toLowerCase());
    out.push({ whole: run.toLowerCase(), parts });
  }
  return out;
}

/** The code-aware words of a text: `getUserName(user_id)` -> get, user, name, user, id. */
export function words(text: string): string[] {
  return identifiers(text).flatMap((i) => i.parts);
}

/**
 * Each text's `embedOne`, yielding to the event loop every `HashingEmbedder.sliceBudgetMs` or so: how the
 * embedders that compute on the worker's own thread (this one, code-vectors.ts) keep a large call from
 * stalling other requests.
 */
export async function embedInSlices(texts: readonly string[], embedOne: (text: string) => Float32Array): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  const slices = timeSlices(HashingEmbedder.sliceBudgetMs);
  for (const text of texts) {
    if (slices.due()) await slices.next();
    out.push(embedOne(text));
  }
  return out;
}

export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly ngramMin: number;
  private readonly ngramMax: number;
  private readonly wordWeight: number;
  private readonly ngramWeight: number;
  /** Why it is the active embedder (set by selectEmbedder). */
  reason: string | undefined;
  /** Feature hash -> count for the text being embedded, one per weight class (reused: embedOne is synchronous). */
  private readonly wordCounts = new FeatureCounts();
  private readonly ngramCounts = new FeatureCounts();

  constructor(options: HashingOptions = {}) {
    this.dimensions = options.dimensions ?? 1024;
    this.ngramMin = options.ngramMin ?? 2;
    this.ngramMax = options.ngramMax ?? 4;
    this.wordWeight = options.wordWeight ?? 1;
    this.ngramWeight = options.ngramWeight ?? 0.8;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 1) throw new RangeError(`bad dimensions ${this.dimensions}`);
    // The id names every setting that changes vectors; the defaults keep the short form.
    const custom =
      this.ngramMin !== 2 || this.ngramMax !== 4 || this.wordWeight !== 1 || this.ngramWeight !== 0.8
        ? `-n${this.ngramMin}-${this.ngramMax}-w${this.wordWeight}-g${this.ngramWeight}`
        : '';
    this.id = `hashing-v${HASHING_VERSION}-${this.dimensions}${custom}`;
  }

  /** Yields to the event loop every `sliceBudgetMs` or so, so a large call never stalls other requests long. */
  embed(texts: string[]): Promise<Float32Array[]> {
    return embedInSlices(texts, (text) => this.embedOne(text));
  }

  /** How long `embed` computes before it yields. */
  static sliceBudgetMs = 20;

  describe(): EmbedderInfo {
    return { id: this.id, dimensions: this.dimensions, kind: 'hashing', status: 'ready', ...(this.reason ? { reason: this.reason } : {}) };
  }

  /** The synchronous core of `embed`, for callers that batch themselves. */
  embedOne(text: string): Float32Array {
    return this.embedWords(text);
  }

  /**
   * `embedOne`, also handing each identifier of the text (lower-cased, whole and in its camelCase parts) to
   * `onIdentifier` as it is read: what the code vectors (code-vectors.ts) make their features of, so the
   * text is split once for both.
   */
  embedWords(text: string, onIdentifier?: (whole: string, parts: string[]) => void): Float32Array {
    // The 32-bit hash identifies a feature (a collision merely merges two counts).
    const { wordCounts, ngramCounts } = this;
    // Emptied first: a call that threw part-way leaves nothing behind for this one.
    wordCounts.clear();
    ngramCounts.clear();
    const ngrams = this.ngramMax > 0 && this.ngramWeight > 0;
    for (const { whole, parts } of identifiers(text)) {
      onIdentifier?.(whole, parts);
      if (parts.length > 1) wordCounts.add(fnv1a(whole, SEED_IDENT));
      for (const part of parts) {
        wordCounts.add(fnv1a(part, SEED_WORD));
        if (ngrams) this.addNgrams(part, ngramCounts);
      }
    }
    const vector = new Float32Array(this.dimensions);
    this.scatter(vector, wordCounts, this.wordWeight);
    this.scatter(vector, ngramCounts, this.ngramWeight);
    return normalize(vector);
  }

  private scatter(vector: Float32Array, counts: FeatureCounts, weight: number): void {
    counts.forEach((hash, count) => {
      // Bit 31 decides the sign; `hash % dimensions` mostly uses the low bits (only them for powers of 2).
      const value = weight * (1 + Math.log(count));
      vector[hash % this.dimensions]! += hash & 0x80000000 ? -value : value;
    });
  }

  private addNgrams(part: string, counts: FeatureCounts): void {
    // The part framed by boundary marks, hashed without building substrings.
    const length = part.length + 2;
    const codes = new Array<number>(length);
    codes[0] = codes[length - 1] = BOUNDARY;
    for (let i = 1; i < length - 1; i++) codes[i] = part.charCodeAt(i - 1);
    for (let n = this.ngramMin; n <= Math.min(this.ngramMax, length); n++) {
      const seed = fnvStep(SEED_NGRAM, n);
      for (let start = 0; start + n <= length; start++) {
        let hash = seed;
        for (let i = start; i < start + n; i++) hash = fnvStep(hash, codes[i]!);
        counts.add(hash >>> 0);
      }
    }
  }
}
