/**
 * Embedders turn texts into vectors for relevance ranking (design decision 8). Every stored vector
 * carries the `id` of the embedder that made it, so a change of embedder (or of its settings) is
 * detected and the library re-embedded. Runtime-agnostic: no DOM, no node:*.
 */
export interface Embedder {
  /**
   * Stable identity of the vector space, stored with every vector: `hashing-v3-1024`,
   * `transformers:Xenova/all-MiniLM-L6-v2`. Two embedders with the same id give the same vectors.
   */
  readonly id: string;
  /**
   * Length of every vector `embed` returns. A model fetched from a hub reports 0 until its first
   * `embed` has loaded it (local models know it from their config.json).
   */
  readonly dimensions: number;
  /** One vector per text, in order, each L2-normalised (an empty text gives the zero vector). */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * `embed`, saying which embedder's vectors they are: an embedder that switches (configured.ts, an
   * endpoint that fails mid-call falls back to the built-in one) answers the id of the one that made them.
   * Call it through `embedTagged`.
   */
  embedTagged?(texts: string[]): Promise<TaggedVectors>;
  /** What it is and how it is doing, for people and the API (see `describeEmbedder`). */
  describe?(): EmbedderInfo;
  /**
   * Resolves once `id` and `dimensions` may be read: an embedder chosen in the background (see
   * `DeferredEmbedder`) has them only then. Callers that store or compare ids await it first.
   */
  ready?(): Promise<void>;
}

export interface TaggedVectors {
  /** The id of the embedder that made `vectors`. */
  embedder: string;
  vectors: Float32Array[];
}

/** Vectors and the id of the embedder that made them; whoever stores or compares vectors embeds this way. */
export async function embedTagged(embedder: Embedder, texts: string[]): Promise<TaggedVectors> {
  if (embedder.embedTagged) return embedder.embedTagged(texts);
  const vectors = await embedder.embed(texts);
  await embedder.ready?.();
  return { embedder: embedder.id, vectors };
}

/** What a host reports about its active embedder (`GET /api/embeddings`). */
export interface EmbedderInfo {
  id: string;
  /** 0 while unknown (a model fetched from the hub, before it has loaded). */
  dimensions: number;
  kind: 'hashing' | 'code-vectors' | 'transformers' | 'endpoint' | 'custom';
  /**
   * `ready`: embeds at once. `available`: files found, the model loads on first use. `loading`,
   * `failed` (then `error` says why; the next use tries again).
   */
  status: 'ready' | 'available' | 'loading' | 'failed';
  /** Why this embedder is the active one: "model files found at /models/…", "no config.json at …". */
  reason?: string;
  error?: string;
  /** The embeddings endpoint the user configured (configured.ts), when there is one: in use, or failed. */
  endpoint?: { url: string; model: string; status: 'active' | 'failed'; error?: string; retryAt?: string };
  /** Inference figures since the worker started (transformers): texts, batches, ms, longest slice. */
  stats?: { texts: number; batches: number; inferenceMs: number; loadMs: number; longestSliceMs: number };
}

export function describeEmbedder(embedder: Embedder): EmbedderInfo {
  return embedder.describe?.() ?? { id: embedder.id, dimensions: embedder.dimensions, kind: 'custom', status: 'ready' };
}

/** Dot product of two vectors of the same length: the cosine similarity when both are normalised. */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vector lengths differ: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** Cosine similarity in [-1, 1]; 0 when either vector is zero. Works on unnormalised vectors too. */
export function cosine(a: Float32Array, b: Float32Array): number {
  const d = dot(a, b);
  const na = Math.sqrt(dot(a, a));
  const nb = Math.sqrt(dot(b, b));
  return na === 0 || nb === 0 ? 0 : d / (na * nb);
}

/** Scales `v` in place to unit length (a zero vector stays zero); returns it. */
export function normalize<T extends Float32Array>(v: T): T {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}
