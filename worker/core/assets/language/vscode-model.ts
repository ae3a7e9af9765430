/**
 * The statistical language model: the guesslang model VS Code uses (`@vscode/vscode-languagedetection`,
 * TF.js), a probability for 54 languages. Its code (~840 KB) is loaded on first use through the host
 * (../../lazy-modules.ts), so that starting the worker neither compiles nor evaluates it. The model files
 * come from a `ModelFiles` provider: fetch-based in the browser, fs-based in Node.
 */
import type { ClassificationSpecificEnum } from '../../model/schemas.ts';
import type { LoadModule } from '../../lazy-modules.ts';

type Specific = ClassificationSpecificEnum;

/** Where the classifier gets the two files of the model (`model.json` and its weights). */
export interface ModelFiles {
  /** The parsed `model.json`. */
  modelJson(): Promise<Record<string, unknown>>;
  /** The bytes of `group1-shard1of1.bin`. */
  weights(): Promise<ArrayBuffer>;
}

/**
 * The files a host must serve, all from one folder: in this package they are
 * `node_modules/@vscode/vscode-languagedetection/model/<name>`.
 */
export const MODEL_FILE_NAMES = ['model.json', 'group1-shard1of1.bin'] as const;

/**
 * Model files fetched from an absolute folder URL, e.g. `https://example.com/models/vscode-languagedetection/`,
 * with `fetchFn` (the service worker's answers from its cache of lazy files, so detection works offline).
 */
export function fetchModelFiles(folder: string | URL, fetchFn: (url: string) => Promise<Response> = (url) => fetch(url)): ModelFiles {
  const href = String(folder);
  const url = (name: string) => new URL(name, href.endsWith('/') ? href : `${href}/`).href;
  const get = async (name: string) => {
    const response = await fetchFn(url(name));
    if (!response.ok) throw new Error(`language model: GET ${url(name)} answered ${response.status}`);
    return response;
  };
  return {
    modelJson: async () => (await (await get('model.json')).json()) as Record<string, unknown>,
    weights: async () => (await get('group1-shard1of1.bin')).arrayBuffer(),
  };
}

/** Scores per language (probabilities from 0 to 1); empty when the model has no opinion. */
export type LanguageScores = ReadonlyMap<Specific, number>;

type Lib = typeof import('@vscode/vscode-languagedetection');
type ModelOperations = InstanceType<Lib['ModelOperations']>;

/** A statistical language model: the classifier's first opinion on code. */
export interface LanguageModel {
  predict(text: string): Promise<LanguageScores>;
}

/**
 * The model's 54 labels (file extensions) as wire values. Labels the enum lacks map to the closest
 * `hljs-*` value (asm, cmake, makefile, prolog, verilog) or, with no such value (COBOL, DM), to UNKNOWN.
 */
const MODEL_LABELS: Record<string, Specific> = {
  asm: 'hljs-x86asm', bat: 'bat', c: 'c', cs: 'cs', cpp: 'cpp', clj: 'clj', cmake: 'hljs-cmake', cbl: 'UNKNOWN',
  coffee: 'coffee', css: 'css', csv: 'csv', dart: 'dart', dm: 'UNKNOWN', dockerfile: 'dockerfile', ex: 'ex',
  erl: 'erl', f90: 'f90', go: 'go', groovy: 'groovy', hs: 'hs', html: 'html', ini: 'ini', java: 'java', js: 'js',
  json: 'json', jl: 'jl', kt: 'kt', lisp: 'lisp', lua: 'lua', makefile: 'hljs-makefile', md: 'md', matlab: 'matlab',
  mm: 'mm', ml: 'ml', pas: 'pas', pm: 'pl', php: 'php', ps1: 'ps1', prolog: 'hljs-prolog', py: 'py', r: 'r',
  rb: 'rb', rs: 'rs', scala: 'scala', sh: 'sh', sql: 'sql', swift: 'swift', tex: 'tex', toml: 'toml', ts: 'ts',
  v: 'hljs-verilog', vba: 'vba', xml: 'xml', yaml: 'yaml',
};

/**
 * Runs `run` with a global `require` that hands the package's webpack runtime its CPU-backend chunk.
 * In a bundled service worker there is no `require`; in Node the package's own `require` is used and
 * this global is never read. The runtime asks for the chunk once, synchronously, on the first load.
 */
function withChunkRequire<T>(chunk: unknown, run: () => T): T {
  const g = globalThis as { require?: unknown };
  if (g.require !== undefined) return run();
  g.require = (id: string) => {
    if (/(^|\/)979\.js$/.test(id)) return chunk;
    throw new Error(`require('${id}') is not available in this runtime`);
  };
  try {
    return run();
  } finally {
    delete g.require;
  }
}

/**
 * TF.js turns the input into thousands of tiny strings and back per prediction, and its browser
 * platform builds a new TextDecoder for each: in Chromium that was 80% of the time (130 ms a call).
 * Short ASCII strings are converted by hand, the rest by one encoder and one decoder per encoding.
 * The platform is reached through the engine TF.js keeps on the global object.
 */
const ASCII = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i));
/** Short strings whose bytes are kept (a few MB at most); emptied whole when full. */
const MAX_ENCODED = 50_000;

function speedUpStringCoding(): void {
  type Platform = {
    decode?: (bytes: Uint8Array, encoding: string) => string;
    encode?: (text: string, encoding: string) => Uint8Array;
    tesseraCoding?: true;
  };
  const platform = (globalThis as { _tfengine?: { ENV?: { platform?: Platform } } })._tfengine?.ENV?.platform;
  if (!platform?.decode || !platform.encode || platform.tesseraCoding || typeof TextDecoder === 'undefined') return;
  const decoders = new Map<string, TextDecoder>();
  const encoded = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  const encode = platform.encode.bind(platform);
  platform.decode = (bytes, encoding) => {
    // A plain loop: \`every\` with a callback and a spread call cost 30 times as much (a profile of creates
    // with 8 in flight had them at a sixth of the worker's time).
    const n = bytes.length;
    if (n <= 64) {
      let text = '';
      let i = 0;
      for (; i < n; i++) {
        const b = bytes[i]!;
        if (b >= 0x80) break;
        text += ASCII[b]!;
      }
      if (i === n) return text;
    }
    let decoder = decoders.get(encoding);
    if (!decoder) decoders.set(encoding, (decoder = new TextDecoder(encoding)));
    return decoder.decode(bytes);
  };
  platform.encode = (text, encoding) => {
    if (encoding !== 'utf-8' && encoding !== 'utf8') return encode(text, encoding);
    if (text.length <= 64) {
      // The same short strings (n-grams of the input) come back thousands of times a prediction, and a new
      // typed array for each cost more than the rest of the encoding. TF.js only reads what it is given.
      const known = encoded.get(text);
      if (known) return known;
      const bytes = new Uint8Array(text.length);
      let ascii = true;
      for (let i = 0; i < text.length && ascii; i++) ascii = (bytes[i] = text.charCodeAt(i)) < 0x80;
      if (ascii) {
        if (encoded.size >= MAX_ENCODED) encoded.clear();
        encoded.set(text, bytes);
        return bytes;
      }
    }
    return encoder.encode(text);
  };
  platform.tesseraCoding = true;
}

/** What the model needs of `@vscode/vscode-languagedetection`. */
export interface LanguageDetectionLib {
  ModelOperations: Lib['ModelOperations'];
  /**
   * The TF.js CPU backend: a separate webpack chunk of the package, which its runtime loads with
   * `require('./979.js')`; see `withChunkRequire`.
   */
  cpuBackendChunk: unknown;
}

/**
 * The guesslang model that VS Code uses (TF.js on its CPU backend), its code from `loadModule`, its
 * files from `files`, both on first use. A failed load rejects that call and is retried on the next one.
 */
export function createVscodeLanguageModel(files: ModelFiles, loadModule: LoadModule): LanguageModel {
  let ready: Promise<ModelOperations> | undefined;

  function load() {
    ready ??= (async () => {
      const { ModelOperations, cpuBackendChunk } = await loadModule('languagedetection');
      const ops = new ModelOperations({
        modelJsonLoaderFunc: () => files.modelJson(),
        weightsLoaderFunc: () => files.weights(),
      });
      // The first run loads the backend chunk, the files and the graph.
      await withChunkRequire(cpuBackendChunk, () => ops.runModel('function warmUp() { return 1; }'));
      speedUpStringCoding();
      return ops;
    })();
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  }

  return {
    async predict(text) {
      const ops = await load();
      const scores = new Map<Specific, number>();
      for (const { languageId, confidence } of await ops.runModel(text)) {
        const specific = MODEL_LABELS[languageId] ?? 'UNKNOWN';
        scores.set(specific, (scores.get(specific) ?? 0) + confidence);
      }
      return scores;
    },
  };
}
