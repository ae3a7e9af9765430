/**
 * The statistical language model: the guesslang model VS Code uses (`@vscode/vscode-languagedetection`),
 * a probability for 54 languages, evaluated by ./guesslang.ts from the model's own files. The files come
 * from a `ModelFiles` provider (fetch-based in the browser, fs-based in Node) on the first prediction.
 */
import type { ClassificationSpecificEnum } from '../../model/schemas.ts';
import { loadGuesslang, type GuesslangNetwork } from './guesslang.ts';

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
 * The guesslang model that VS Code uses, its files from `files` on first use. A failed load rejects that
 * call and is retried on the next one.
 */
export function createVscodeLanguageModel(files: ModelFiles): LanguageModel {
  let ready: Promise<GuesslangNetwork> | undefined;

  function load() {
    ready ??= (async () => {
      const [modelJson, weights] = await Promise.all([files.modelJson(), files.weights()]);
      return loadGuesslang({ modelJson, weights });
    })();
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  }

  return {
    async predict(text) {
      const network = await load();
      const scores = new Map<Specific, number>();
      const probabilities = network.predict(text);
      if (!probabilities) return scores;
      network.labels.forEach((label, i) => {
        const specific = MODEL_LABELS[label] ?? 'UNKNOWN';
        scores.set(specific, (scores.get(specific) ?? 0) + probabilities[i]!);
      });
      return scores;
    },
  };
}
