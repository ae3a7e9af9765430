/**
 * A sentence embedder on transformers.js (`@huggingface/transformers` v4): the `feature-extraction`
 * pipeline with mean pooling and L2 normalisation, the way sentence-transformers models such as
 * `Xenova/all-MiniLM-L6-v2` are meant to be used.
 *
 * Model files come from `modelPath` (`<modelPath><model>/config.json`, `tokenizer.json`,
 * `tokenizer_config.json`, `onnx/model_quantized.onnx` or `onnx/model.onnx`): a URL path such as
 * `/models/` in the browser, a folder in Node. Nothing is fetched from the model hub unless
 * `allowRemote` is set; then missing files are fetched once from the hub and kept in the browser's
 * Cache Storage (`transformers-cache`) for offline use.
 *
 * The same code runs in Node (transformers.js picks onnxruntime-node) and in the bundled service worker
 * (onnxruntime-web's wasm build, which the host points at self-hosted `.wasm` files through `onnx`).
 *
 * Inference never holds the thread for long: `embed` runs batches whose size adapts so one batch takes
 * about `sliceBudgetMs`, and yields to the event loop between batches, so requests that arrive meanwhile
 * are answered between two batches. `longestSliceMs` reports the longest batch seen.
 */
import { env, pipeline, type FeatureExtractionPipeline, type Tensor } from '@huggingface/transformers';
import { yieldToEventLoop } from '../timers.ts';
import { normalize, type Embedder, type EmbedderInfo } from './embedder.ts';
import { DEFAULT_MODEL, type ModelDtype } from './model-files.ts';

export { DEFAULT_MODEL, ONNX_FILE_OF, type ModelDtype } from './model-files.ts';

export interface TransformersOptions {
  /** Model id, also its folder under `modelPath`. Default `Xenova/all-MiniLM-L6-v2`. */
  model?: string;
  /** Where model folders live: `/models/` (a URL path) in the browser, a folder path in Node. */
  modelPath: string;
  /** Which ONNX file to load (see ONNX_FILE_OF). Default `q8` (`model_quantized.onnx`). */
  dtype?: ModelDtype;
  /** Fetch missing files from the model hub once and cache them. Default false: local files only. */
  allowRemote?: boolean;
  /**
   * The hub to fetch from when `allowRemote`: a URL to which `<model>/resolve/main/<file>` is appended.
   * Default the Hugging Face hub; a mirror, or a test's local server, otherwise.
   */
  remoteHost?: string;
  /** Node: the folder that caches fetched files. Default transformers.js's. */
  cacheDir?: string;
  /** Browsers: keep fetched files in Cache Storage (when `allowRemote`). Default false. */
  browserCache?: boolean;
  /** Vector length when known before loading (the config's `hidden_size`); corrected once loaded. */
  dimensions?: number;
  /** Longer texts are truncated to this many tokens (MiniLM was trained on 256). Default 256. */
  maxTokens?: number;
  /** Target duration of one inference batch, hence of the longest stall. Default 50 ms. */
  sliceBudgetMs?: number;
  /** Largest batch. Default 32. */
  maxBatch?: number;
  /** onnxruntime-web settings for browsers: self-hosted `.wasm` location and thread count. */
  onnx?: { wasmPaths?: string | { wasm: string }; numThreads?: number };
}

type Status = 'idle' | 'loading' | 'ready' | 'failed';

/** transformers.js's own settings, restored for an embedder that does not set them (env is global). */
const ENV_DEFAULTS = { remoteHost: env.remoteHost, cacheDir: env.cacheDir };

export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  readonly dtype: ModelDtype;
  private knownDimensions: number | undefined;
  private pipe: Promise<FeatureExtractionPipeline> | undefined;
  private state: Status = 'idle';
  private failure: string | undefined;
  private msPerText = 0; // running estimate, drives the batch size
  /** The longest single inference batch so far, in ms: the longest the thread was held. */
  longestSliceMs = 0;
  /** Texts embedded so far, and the time spent in inference for them. */
  readonly stats = { texts: 0, batches: 0, inferenceMs: 0, loadMs: 0 };
  /** Why it is the active embedder (set by selectEmbedder). */
  reason: string | undefined;

  constructor(private readonly options: TransformersOptions) {
    this.model = options.model ?? DEFAULT_MODEL;
    this.dtype = options.dtype ?? 'q8';
    this.id = `transformers:${this.model}`;
    this.knownDimensions = options.dimensions;
  }

  /** The vector length: from the options or the config until loaded, then from the model's output. */
  get dimensions(): number {
    return this.knownDimensions ?? 0;
  }

  get status(): Status {
    return this.state;
  }

  get error(): string | undefined {
    return this.failure;
  }

  describe(): EmbedderInfo {
    return {
      id: this.id,
      dimensions: this.dimensions,
      kind: 'transformers',
      status: this.state === 'idle' ? 'available' : this.state,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.failure ? { error: this.failure } : {}),
      stats: { ...this.stats, longestSliceMs: this.longestSliceMs },
    };
  }

  /** Loads the model (once; a failed load is retried on the next call) and learns its vector length. */
  load(): Promise<FeatureExtractionPipeline> {
    if (!this.pipe) {
      this.state = 'loading';
      this.pipe = this.createPipeline().then(
        (pipe) => {
          this.state = 'ready';
          this.failure = undefined;
          return pipe;
        },
        (error: unknown) => {
          this.state = 'failed';
          this.failure = error instanceof Error ? error.message : String(error);
          this.pipe = undefined;
          throw error;
        },
      );
    }
    return this.pipe;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const pipe = await this.load();
    if (texts.length === 0) return [];
    const budget = this.options.sliceBudgetMs ?? 50;
    const maxBatch = this.options.maxBatch ?? 32;
    // Similar lengths batch together (less padding); results go back in the callers' order.
    const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const out = new Array<Float32Array>(texts.length);
    let done = 0;
    while (done < order.length) {
      if (done > 0) await yieldToEventLoop();
      const size = this.msPerText > 0 ? Math.max(1, Math.min(maxBatch, Math.floor(budget / this.msPerText))) : 1;
      const batch = order.slice(done, done + size);
      const started = performance.now();
      const vectors = await this.run(pipe, batch.map((i) => texts[i]!));
      const ms = performance.now() - started;
      batch.forEach((index, k) => (out[index] = vectors[k]!));
      done += batch.length;
      this.longestSliceMs = Math.max(this.longestSliceMs, ms);
      this.stats.texts += batch.length;
      this.stats.batches += 1;
      this.stats.inferenceMs += ms;
      // Per-text cost of the longest texts so far dominates: weigh the new measure in quickly.
      const perText = ms / batch.length;
      this.msPerText = this.msPerText === 0 ? perText : Math.max(perText, 0.5 * this.msPerText + 0.5 * perText);
    }
    return out;
  }

  private async run(pipe: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
    // Empty strings would tokenise to [CLS] [SEP] and get a vector that means nothing: give them zero.
    const nonEmpty = texts.map((t, i) => [t, i] as const).filter(([t]) => t.trim() !== '');
    const result: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    if (nonEmpty.length === 0) return result;
    // What the pipeline's own call does, with our truncation length (its tokenizer would use the
    // config's model_max_length, 512 for MiniLM, though the model was trained on 256).
    const inputs = pipe.tokenizer(
      nonEmpty.map(([t]) => t),
      { padding: true, truncation: true, max_length: this.options.maxTokens ?? 256 },
    );
    const outputs = (await pipe.model(inputs)) as { last_hidden_state: Tensor };
    const pooled = meanPool(outputs.last_hidden_state, inputs.attention_mask as Tensor);
    pooled.forEach((vector, r) => (result[nonEmpty[r]![1]] = normalize(vector)));
    return result;
  }

  private async createPipeline(): Promise<FeatureExtractionPipeline> {
    const started = performance.now();
    const { allowRemote = false, onnx } = this.options;
    // transformers.js keeps one global environment: set it for this model before loading.
    env.localModelPath = this.options.modelPath;
    env.allowLocalModels = true;
    env.allowRemoteModels = allowRemote;
    env.useBrowserCache = allowRemote && (this.options.browserCache ?? false);
    const host = this.options.remoteHost;
    env.remoteHost = host ? (host.endsWith('/') ? host : `${host}/`) : ENV_DEFAULTS.remoteHost;
    env.cacheDir = this.options.cacheDir ?? ENV_DEFAULTS.cacheDir;
    const wasm = env.backends.onnx?.wasm;
    if (wasm && onnx) {
      if (onnx.wasmPaths) wasm.wasmPaths = onnx.wasmPaths;
      wasm.numThreads = onnx.numThreads ?? 1;
      wasm.proxy = false;
    }
    const pipe = (await pipeline('feature-extraction', this.model, {
      dtype: this.dtype,
      local_files_only: !allowRemote,
    })) as FeatureExtractionPipeline;
    // The true vector length: one probe through the model (also warms it up).
    const probe = await pipe(['probe'], { pooling: 'mean' });
    // (A model whose pooled output is not `hidden_size` wide corrects the guess from its config here.)
    this.knownDimensions = probe.dims.at(-1)!;
    this.stats.loadMs = performance.now() - started;
    return pipe;
  }
}

/**
 * Mean of each sequence's token vectors where the attention mask is set: what transformers.js's
 * `mean_pooling` computes, in one pass over typed arrays; 4-10x faster than that one, which converts
 * every mask element from BigInt (Node, warmed up: 32 x 100 tokens x 32 wide 0.8 vs 4 ms; 8 x 128 x 384
 * 2 vs 17 ms), and that cost was comparable to the tiny model's whole inference.
 */
export function meanPool(hidden: Tensor, mask: Tensor): Float32Array[] {
  const [batch, length, width] = hidden.dims as [number, number, number];
  const data = hidden.data as Float32Array;
  const bits = mask.data as BigInt64Array | Int32Array | Float32Array;
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const sum = new Float32Array(width);
    let count = 0;
    for (let t = 0; t < length; t++) {
      // eslint-disable-next-line eqeqeq -- 0n == 0 for BigInt masks, 0 == 0 for number masks
      if (bits[b * length + t] == 0) continue;
      count++;
      const offset = (b * length + t) * width;
      for (let i = 0; i < width; i++) sum[i]! += data[offset + i]!;
    }
    if (count > 0) for (let i = 0; i < width; i++) sum[i]! /= count;
    out.push(sum);
  }
  return out;
}
