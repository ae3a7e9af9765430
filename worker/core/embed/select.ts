/**
 * Chooses the active embedder: transformers.js when a sentence-embedding model's files are present
 * under the models path (or, when the user allows network access, can be fetched from the model hub),
 * else the code vectors Tessera ships (code-vectors.ts) beside the hashing embedder, else (their file
 * missing or unreadable) the hashing embedder alone, which needs no files. The choice comes with a
 * reason for people (`GET /api/embeddings` shows it).
 *
 * Probing reads `<model>/config.json` (it must parse and name a `model_type`: a static host that answers
 * every path with index.html does not count), checks `tokenizer.json`, and picks the ONNX weights:
 * `onnx/model_quantized.onnx` (dtype q8) when present, else `onnx/model.onnx` (fp32). The model itself
 * is loaded on first use (or by `load()`), not here, so a host's start stays fast.
 */
import { CodeVectorsEmbedder, decodeCodeVectors } from './code-vectors.ts';
import { HashingEmbedder, type HashingOptions } from './hashing.ts';
import { describeEmbedder, type Embedder, type EmbedderInfo } from './embedder.ts';
import { DEFAULT_MODEL, ONNX_FILE_OF, type ModelDtype } from './model-files.ts';
import type { TransformersEmbedder, TransformersOptions } from './transformers.ts';
import type { LoadModule } from '../lazy-modules.ts';

/** Read access to the models folder, relative paths such as `Xenova/all-MiniLM-L6-v2/config.json`. */
export interface ModelSource {
  /** The file's text, or undefined when it is missing. */
  readText(path: string): Promise<string | undefined>;
  /** Whether a (possibly large) file is there, without reading it. */
  exists(path: string): Promise<boolean>;
}

/**
 * A ModelSource over HTTP (web-standard `fetch`): the service worker probes its own origin's `/models/`.
 * A response counts only when it is 200 and not HTML (SPA hosts answer unknown paths with index.html).
 */
export function fetchModelSource(base: string | URL, fetcher: typeof fetch = fetch): ModelSource {
  const url = (path: string) => new URL(path, base);
  const usable = (r: Response) => r.ok && !(r.headers.get('content-type') ?? '').includes('text/html');
  return {
    async readText(path) {
      const response = await fetcher(url(path)).catch(() => undefined);
      return response && usable(response) ? response.text() : undefined;
    },
    async exists(path) {
      const response = await fetcher(url(path), { method: 'HEAD' }).catch(() => undefined);
      return !!response && usable(response);
    },
  };
}

export interface SelectOptions {
  /** How transformers.js finds model folders: `/models/` in the browser, a folder in Node. */
  modelPath: string;
  /** The same folder, for probing. */
  source: ModelSource;
  /** Default `Xenova/all-MiniLM-L6-v2`. */
  model?: string;
  /** Fetch the model from the hub when its files are not local (once; cached). Default false. */
  allowRemote?: boolean;
  /** The hub to fetch from (see TransformersOptions.remoteHost). Default the Hugging Face hub. */
  remoteHost?: string;
  hashing?: HashingOptions;
  /** Where transformers.js comes from (the host's, see ../lazy-modules.ts), loaded only when a model is in use. */
  loadModule: LoadModule;
  /** Passed on to the transformers embedder (batching budget, onnxruntime-web settings, …). */
  transformers?: Omit<TransformersOptions, 'model' | 'modelPath' | 'allowRemote' | 'remoteHost' | 'dtype' | 'dimensions'>;
  /** Reads the code vectors' file (CODE_VECTORS_FILE), for when no sentence-embedding model is in use. */
  codeVectors?: CodeVectorsFile;
}

/** The code vectors' file: where it is (for people) and its bytes. */
export interface CodeVectorsFile {
  where: string;
  read(): Promise<ArrayBuffer>;
}

/**
 * The built-in embedder when no sentence-embedding model is in use: the code vectors beside the hashing
 * embedder, or the hashing embedder alone when there is no file or it cannot be read. `why` says why no
 * model is in use.
 */
export async function builtInEmbedder(file: CodeVectorsFile | undefined, why: string, hashing?: HashingOptions): Promise<HashingEmbedder | CodeVectorsEmbedder> {
  const alone = (reason: string) => {
    const embedder = new HashingEmbedder(hashing);
    embedder.reason = `${why}; ${reason}`;
    return embedder;
  };
  if (!file) return alone('the hashing embedder needs no files');
  let bytes: ArrayBuffer;
  try {
    bytes = await file.read();
  } catch (error) {
    return alone(`no code vectors (${error instanceof Error ? error.message : String(error)}), so the hashing embedder alone`);
  }
  try {
    const embedder = new CodeVectorsEmbedder(decodeCodeVectors(bytes), { hashing: new HashingEmbedder(hashing) });
    embedder.reason = `${why}; the code vectors from ${file.where} beside the hashing embedder`;
    return embedder;
  } catch (error) {
    console.warn(`embeddings: the code vectors at ${file.where} are unusable: ${error instanceof Error ? error.message : String(error)}`);
    return alone(`the code vectors at ${file.where} are unusable, so the hashing embedder alone`);
  }
}

/**
 * An embedder chosen in the background, so a host's start does not wait for the probe (a round trip to
 * the origin): `embed` and `ready()` wait for the choice; `id` and `dimensions` throw until it is made.
 * A failed choice falls back to the hashing embedder.
 */
export class DeferredEmbedder implements Embedder {
  private chosen: Embedder | undefined;
  private choosing: Promise<Embedder> | undefined;

  /**
   * `selection` is the choice under way, or a function that starts it on first use (`embed`, `ready`): a
   * worker that never embeds during its lifetime then never probes.
   */
  constructor(
    private readonly selection: Promise<Embedder> | (() => Promise<Embedder>),
    private readonly fallback: () => Embedder = () => new HashingEmbedder(),
  ) {
    if (typeof selection !== 'function') this.choice();
  }

  private choice(): Promise<Embedder> {
    this.choosing ??= (typeof this.selection === 'function' ? this.selection() : this.selection).then(
      (embedder) => (this.chosen = embedder),
      (error: unknown) => {
        const embedder = this.fallback();
        if (embedder instanceof HashingEmbedder) embedder.reason = `choosing an embedder failed: ${error instanceof Error ? error.message : String(error)}`;
        return (this.chosen = embedder);
      },
    );
    return this.choosing;
  }

  /** The chosen embedder, once chosen. */
  get current(): Embedder | undefined {
    return this.chosen;
  }

  get id(): string {
    return this.settled().id;
  }

  get dimensions(): number {
    return this.settled().dimensions;
  }

  async ready(): Promise<void> {
    await (await this.choice()).ready?.();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return (await this.choice()).embed(texts);
  }

  describe(): EmbedderInfo {
    if (!this.chosen) return { id: '', dimensions: 0, kind: 'custom', status: 'loading', reason: 'choosing the embedder' };
    return describeEmbedder(this.chosen);
  }

  private settled(): Embedder {
    if (!this.chosen) throw new Error('the embedder is still being chosen: await ready() first');
    return this.chosen;
  }
}

/** The active embedder; its `describe()` says which and why (`reason`). */
export async function selectEmbedder(options: SelectOptions): Promise<HashingEmbedder | CodeVectorsEmbedder | TransformersEmbedder> {
  const model = options.model ?? DEFAULT_MODEL;
  const where = `${options.modelPath}${model}/`;
  const probe = await probeModel(options.source, model);
  let dtype: ModelDtype = 'q8';
  let dimensions: number | undefined;
  let reason: string;
  if (probe.kind === 'found') {
    ({ dtype, dimensions } = probe);
    reason = `model files found at ${where} (${ONNX_FILE_OF[dtype]})`;
  } else if (options.allowRemote) {
    reason = `no model files at ${where} (${probe.reason}); fetching ${model} from ${options.remoteHost ?? 'the model hub'} once, then cached`;
  } else {
    return builtInEmbedder(options.codeVectors, `no sentence-embedding model: ${probe.reason} at ${where}`, options.hashing);
  }
  // Loaded only now, so transformers.js and onnxruntime-web are compiled and evaluated only when a model is in use.
  const { TransformersEmbedder } = await options.loadModule('transformers');
  const embedder = new TransformersEmbedder({
    ...options.transformers,
    model,
    modelPath: options.modelPath,
    allowRemote: options.allowRemote ?? false,
    ...(options.remoteHost ? { remoteHost: options.remoteHost } : {}),
    dtype,
    ...(dimensions ? { dimensions } : {}),
  });
  embedder.reason = reason;
  return embedder;
}

type Probe = { kind: 'found'; dtype: ModelDtype; dimensions?: number } | { kind: 'missing'; reason: string };

async function probeModel(source: ModelSource, model: string): Promise<Probe> {
  const text = await source.readText(`${model}/config.json`).catch(() => undefined);
  if (text === undefined) return { kind: 'missing', reason: 'no config.json' };
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { kind: 'missing', reason: 'config.json is not JSON' };
  }
  if (typeof config !== 'object' || config === null || typeof config.model_type !== 'string') {
    return { kind: 'missing', reason: 'config.json names no model_type' };
  }
  if (!(await source.exists(`${model}/tokenizer.json`))) return { kind: 'missing', reason: 'no tokenizer.json' };
  const dtype = (await source.exists(`${model}/${ONNX_FILE_OF.q8}`))
    ? 'q8'
    : (await source.exists(`${model}/${ONNX_FILE_OF.fp32}`))
      ? 'fp32'
      : undefined;
  if (!dtype) return { kind: 'missing', reason: `neither ${ONNX_FILE_OF.q8} nor ${ONNX_FILE_OF.fp32}` };
  const hidden = [config.hidden_size, config.dim, config.d_model].find((n) => typeof n === 'number') as number | undefined;
  return { kind: 'found', dtype, ...(hidden ? { dimensions: hidden } : {}) };
}
