/**
 * Detects whether a text is prose or code and, for code, its language.
 *
 * The pipeline, cheapest and surest first:
 *  1. a file name hint with a known extension wins;
 *  2. near-certain signatures (`<?php`, a shebang, `<!DOCTYPE html>`, a JSON document) decide alone;
 *  3. prose is `TEXT` (`md` when it carries markdown markup, else `txt`);
 *  4. otherwise the guesslang model VS Code uses (`@vscode/vscode-languagedetection`, TF.js) gives a
 *     probability for 54 languages, and a table of hand-written language signatures (keywords and
 *     constructs typical of one language) adds evidence; the best combined score wins. The signatures
 *     mainly split the pairs the model confuses on short snippets (C/C++, JS/TS, Java/C#/Groovy/Kotlin).
 *     Without the model (files not served, load failure) the signatures decide alone.
 *
 * Runtime-agnostic: no DOM, no `node:*`. The model's code (TF.js, ~840 KB) is loaded on first use, so
 * that starting the worker neither compiles nor evaluates it: `import()` in Node, the lazy script
 * `languagedetection` in the worker (see ../lazy-script.ts). The model files come from a
 * `ModelFiles` provider: fetch-based in the browser, fs-based in Node tests.
 * Measured in test/bench/detect-accuracy.ts.
 */
import type { ClassificationGenericEnum, ClassificationSpecificEnum } from '../model/schemas.ts';
import type { Classification, Classifier } from './classifier.ts';
import { genericOf, specificOfFilename } from './content.ts';
import { fetchCached, loadLazyScript } from '../lazy-script.ts';

/** Defined by the worker build only (see ../lazy-script.ts). */
declare const TESSERA_LAZY_SCRIPTS: true;

type Specific = ClassificationSpecificEnum;

// ---------------------------------------------------------------------------------------------
// The model and its files

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
 * Model files fetched from a folder URL (relative URLs resolve against the worker's location), e.g.
 * `fetchModelFiles('/models/vscode-languagedetection/')`; by default from the worker's cache of lazy
 * files when it holds them (precached at install, so detection works offline).
 */
export function fetchModelFiles(folder: string, fetchFn: (url: string) => Promise<Response> = fetchCached): ModelFiles {
  const base = typeof location !== 'undefined' ? location.href : undefined;
  const url = (name: string) => new URL(name, new URL(folder.endsWith('/') ? folder : `${folder}/`, base)).href;
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
function speedUpStringCoding(): void {
  type Platform = {
    decode?: (bytes: Uint8Array, encoding: string) => string;
    encode?: (text: string, encoding: string) => Uint8Array;
    tesseraCoding?: true;
  };
  const platform = (globalThis as { _tfengine?: { ENV?: { platform?: Platform } } })._tfengine?.ENV?.platform;
  if (!platform?.decode || !platform.encode || platform.tesseraCoding || typeof TextDecoder === 'undefined') return;
  const decoders = new Map<string, TextDecoder>();
  const encoder = new TextEncoder();
  const encode = platform.encode.bind(platform);
  platform.decode = (bytes, encoding) => {
    if (bytes.length <= 64 && bytes.every((b) => b < 0x80)) return String.fromCharCode(...bytes);
    let decoder = decoders.get(encoding);
    if (!decoder) decoders.set(encoding, (decoder = new TextDecoder(encoding)));
    return decoder.decode(bytes);
  };
  platform.encode = (text, encoding) => {
    if (encoding !== 'utf-8' && encoding !== 'utf8') return encode(text, encoding);
    if (text.length <= 64) {
      const bytes = new Uint8Array(text.length);
      let ascii = true;
      for (let i = 0; i < text.length && ascii; i++) ascii = (bytes[i] = text.charCodeAt(i)) < 0x80;
      if (ascii) return bytes;
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
 * The package's code: the lazy script `languagedetection` in the worker (vite.config.ts builds it with
 * the same two exports), `import()` elsewhere. The constant test lets esbuild leave the imports out of
 * the worker bundle.
 */
async function loadLanguageDetectionLib(): Promise<LanguageDetectionLib> {
  if (typeof TESSERA_LAZY_SCRIPTS !== 'undefined') {
    return loadLazyScript<LanguageDetectionLib>('languagedetection');
  } else {
    // (An `else`, not code after the return: esbuild drops a constant condition's dead branch only.)
    const [lib, chunk] = await Promise.all([
      import('@vscode/vscode-languagedetection') as Promise<Lib & { default?: Lib }>,
      // @ts-ignore: the chunk has no types.
      import('@vscode/vscode-languagedetection/dist/lib/979.js') as Promise<{ default: unknown }>,
    ]);
    // A CommonJS package: Node's ESM loader puts it on `default`, bundlers give the named exports.
    return { ModelOperations: (lib.default ?? lib).ModelOperations, cpuBackendChunk: chunk.default };
  }
}

/**
 * The guesslang model that VS Code uses (TF.js on its CPU backend), loaded from `files` on first use.
 * A failed load rejects that call and is retried on the next one.
 */
export function createVscodeLanguageModel(files: ModelFiles): LanguageModel {
  let ready: Promise<ModelOperations> | undefined;

  function load() {
    ready ??= (async () => {
      const { ModelOperations, cpuBackendChunk } = await loadLanguageDetectionLib();
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

// ---------------------------------------------------------------------------------------------
// Prose and markdown

const STOP_WORDS = new Set(
  ('a an the and or but if then so of to in on at by for with from as is are was were be been being it its this that ' +
    'these those i you he she we they me him her us them my your our their have has had do does did will would can ' +
    'could should may might must not no there here what which who when where why how all any some more most very ' +
    'just also than too about into over after before again please thanks let know').split(' '),
);

/** Characters that are rare in prose and common in code. */
const CODE_CHARS = /[{}[\]();=<>$@&|\\^~`*#_/+]/g;

interface TextStats {
  words: number;
  stopRatio: number;
  symbolRatio: number;
  codeLineRatio: number;
}

function textStats(text: string): TextStats {
  const words = text.match(/[A-Za-z][A-Za-z']*/g) ?? [];
  const stop = words.filter((w) => STOP_WORDS.has(w) || (w[0] !== w[0]!.toUpperCase() && STOP_WORDS.has(w.toLowerCase()))).length;
  const nonSpace = text.replace(/\s+/g, '').length || 1;
  const symbols = text.match(CODE_CHARS)?.length ?? 0;
  const lines = text.split('\n').filter((l) => l.trim());
  const codeLines = lines.filter(
    (l) =>
      /[;{}]\s*$|^\s*[}\])]|=>|->|::|^\s*(def|fn|func|function|class|import|return|if|for|while|var|let|const|public|private|#include|SELECT|INSERT|CREATE)\b/.test(l) ||
      (/\)\s*$/.test(l) && /\w\(/.test(l)),
  ).length;
  return {
    words: words.length,
    stopRatio: words.length ? stop / words.length : 0,
    symbolRatio: symbols / nonSpace,
    codeLineRatio: lines.length ? codeLines / lines.length : 0,
  };
}

/** Code-shaped: lines ending in `;`, `{` or `}`, calls, arrows, or many code characters. */
export function looksLikeCode(text: string): boolean {
  const s = textStats(text);
  return s.codeLineRatio >= 0.3 || s.symbolRatio >= 0.05;
}

/** Natural-language sentences: many stop words, few code characters, no code-shaped lines. */
export function looksLikeProse(text: string): boolean {
  const s = textStats(text);
  if (s.words < 4) return false;
  return s.stopRatio >= 0.2 && s.symbolRatio < 0.04 && s.codeLineRatio <= 0.2;
}

const MARKDOWN_MARKERS: Record<string, RegExp> = {
  heading: /^#{1,6} +[^\s=(){};]+[^=(){};]*$/m,
  fence: /^ {0,3}(```|~~~)/m,
  list: /^ {0,3}(?:[-*+]|\d+\.) +\S/m,
  link: /\[[^\]\n]{1,200}\]\([^)\s]{1,500}\)/,
  emphasis: /\*\*[^*\n]+\*\*|(^|\s)_[^_\n]+_(\s|$)|(^|\s)\*[^*\s][^*\n]*\*(\s|[.,;:]|$)/m,
  inlineCode: /(^|[^`])`[^`\n]+`(?!`)/,
  table: /^ {0,3}\|? *:?-{3,}:? *\|/m,
  quote: /^> /m,
};

/** Prose with markdown markup: headings, lists, links, emphasis, fences or tables around prose. */
export function looksLikeMarkdown(text: string): boolean {
  const kinds = Object.entries(MARKDOWN_MARKERS)
    .filter(([, re]) => re.test(text))
    .map(([kind]) => kind);
  if (kinds.length === 0) return false;
  if (kinds.includes('table')) return true;
  // What is left once code blocks, inline code and markup are gone must read like prose.
  const rest = text
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, ' ')
    .replace(/`[^`\n]+`/g, ' x ')
    .replace(/\[([^\]\n]{1,200})\]\([^)\s]{1,500}\)/g, '$1')
    .replace(/^ {0,3}(#{1,6}|[-*+]|\d+\.|>) +/gm, '')
    .replace(/[*_]{1,2}/g, '');
  const s = textStats(rest);
  if (s.words < 3 || s.symbolRatio > 0.06) return false;
  if (kinds.length >= 3) return true;
  return kinds.length >= 2 ? s.stopRatio >= 0.12 : s.stopRatio >= 0.2 && (kinds.includes('heading') || kinds.includes('fence'));
}

// ---------------------------------------------------------------------------------------------
// Signatures

/** Deterministic signatures: one match decides. */
function certainLanguage(text: string): Specific | undefined {
  const head = text.trimStart();
  if (/^<\?php\b/.test(head)) return 'php';
  const [, program, argument] = /^#![ \t]*(\S+)(?:[ \t]+(?:-\S+[ \t]+)*(\S+))?/.exec(head) ?? [];
  const interpreter = program?.split('/').pop() === 'env' ? argument : program?.split('/').pop();
  const shebang = interpreter?.replace(/[\d.]+$/, '');
  if (shebang) {
    if (/^(ba|z|k|da|a)?sh$/.test(shebang)) return 'sh';
    if (/^python/.test(shebang)) return 'py';
    if (shebang === 'node' || shebang === 'deno') return 'js';
    if (shebang === 'ruby') return 'rb';
    if (shebang === 'perl') return 'pl';
    if (shebang === 'php') return 'php';
  }
  if (/^<!DOCTYPE html|^<html[\s>]/i.test(head)) return 'html';
  if (/^<\?xml\b/.test(head)) return 'xml';
  if (/^[[{]/.test(head) && /[\]}]\s*$/.test(head)) {
    try {
      JSON.parse(head);
      return 'json';
    } catch {
      // not JSON
    }
  }
  return undefined;
}

/**
 * `[language, weight, pattern, on]`: the weight is added when the pattern matches (for a global
 * pattern, per match, at most three times). `on: 'code'` tests the text with its string literals
 * blanked, for keywords that also occur inside strings of other languages (SQL in PHP, say).
 */
type Signature = readonly [Specific, number, RegExp, ('code' | 'raw')?];

const CSS_PROPERTY =
  '(?:color|background(?:-color|-image)?|margin(?:-\\w+)?|padding(?:-\\w+)?|display|font(?:-\\w+)?|border(?:-\\w+)*|width|height|' +
  'max-width|min-width|max-height|min-height|position|top|left|right|bottom|inset|z-index|grid(?:-\\w+)*|flex(?:-\\w+)?|' +
  'align-\\w+|justify-\\w+|gap|transform|transition|animation(?:-\\w+)?|opacity|content|text-\\w+|cursor|line-height|' +
  'overflow(?:-\\w)?|box-shadow|box-sizing|visibility|outline|list-style|white-space|vertical-align|--[\\w-]+)';

const SIGNATURES: readonly Signature[] = [
  // Python
  ['py', 3, /^\s*(async\s+)?def \w+\s*\(.*\)\s*(->\s*[^:{]+)?:\s*(#.*)?$/m],
  ['py', 3, /^\s*class \w+(\([^)]*\))?:\s*$/m],
  ['py', 2.5, /^\s*from [\w.]+ import (\w+|\*|\()/m],
  ['py', 1.5, /^\s*import [\w.]+(\s+as\s+\w+)?(\s*,\s*[\w.]+)*\s*$/m],
  ['py', 3, /^\s*(elif\b.*|else|try|finally|except\b.*):\s*$/m],
  ['py', 3, /^[ \t]*(if|for|while|with)\b[^{};\n]*:[ \t]*$/m],
  ['py', 2, /\[[^\]\n]{1,200} for \w+(, \w+)* in [^\]\n]{1,200}\]|\{[^}\n]{1,200} for \w+(, \w+)* in [^}\n]{1,200}\}/],
  ['py', 1.5, /\bself\.\w+/],
  ['py', 1, /\b(None|True|False)\b/],
  ['py', 1.5, /\bf"[^"\n]*\{|\bf'[^'\n]*\{/],
  ['py', 2, /__name__\s*==\s*["']__main__|\b__init__\b|\bos\.environ\b/],
  ['py', 1.5, /^\s*@[\w.]+(\(.*\))?\s*$/m],
  ['py', 1, /\bprint\(|\blen\(|\brange\(/],
  ['py', 2, /\blambda\s+\w*(, \w+)*:|\bnot in\b|\bis not\b|"""|'''/],
  // TypeScript (on top of the JavaScript family signatures below)
  ['ts', 3, /^\s*(export\s+)?(declare\s+)?interface \w+(<[^>]*>)?\s*(extends [\w<>, .]+)?\{/m],
  ['ts', 3, /^\s*(export\s+)?type \w+(<[^>]*>)?\s*=/m],
  ['ts', 3, /[(,]\s*(readonly\s+)?\w+\??:\s*(string|number|boolean|any|unknown|never|void|object|bigint|readonly|[A-Z]\w*(<[^>]*>)?(\[\])?)\s*(\|[^,)]+)?[,)=]/],
  ['ts', 3, /\)\s*:\s*(Promise<[^>]+>|[\w.]+(<[^>]+>)?(\[\])?( \| [\w.]+)*)\s*(\{|=>)/],
  ['ts', 3, /\b(const|let|var)\s+\w+\s*:\s*[\w<>[\]|, ]+=/],
  ['ts', 2.5, /\bas const\b|\bsatisfies\b|\bkeyof\b|\bimport type\b|\bas unknown as\b|\breadonly \w+(\[\])?[;,)]/],
  ['ts', 2.5, /^\s*(public|private|protected)\s+(readonly\s+)?\w+\s*[?!]?:\s*\w/m],
  ['ts', 2, /\b(private|public|protected)\s+(readonly\s+)?\w+\s*:/],
  ['ts', 1, /\benum \w+ \{/],
  ['ts', 1.5, /<\w+(, \w+)*>\(|\b\w+<[A-Z]\w*(, [A-Z]\w*)*>/],
  ['ts', 1.5, /\bas [A-Z]\w*\b/],
  // JavaScript family: plain JavaScript unless TypeScript evidence wins
  ['js', 1.5, /\b(const|let|var) \w+ = /],
  ['ts', 1, /\b(const|let) \w+ = /],
  ['js', 1.5, /=>\s*[{(\w]/],
  ['ts', 1, /=>\s*[{(\w]/],
  ['js', 3, /\brequire\(['"][^'"]+['"]\)|\bmodule\.exports\b|\bexports\.\w+ =/],
  ['js', 2, /\bdocument\.\w+|\bwindow\.\w+|\bconsole\.(log|error|warn)\(|\blocalStorage\b|\baddEventListener\(/],
  ['ts', 1, /\bdocument\.\w+|\bconsole\.(log|error|warn)\(/],
  ['js', 1.5, /\bfunction\s*\*?\s*\w*\s*\((\s*\w+(\s*=\s*[^,)]+)?\s*,?)*\)\s*\{/],
  ['js', 1, /\bthis\.\w+\s*=|\bawait\b|\basync\b|===|!==/],
  ['ts', 0.8, /\bthis\.\w+\s*=|\bawait\b|\basync\b|===|!==/],
  ['js', 1.5, /\bexport (default|const|function|class|async)\b|^\s*import .* from ['"]/m],
  ['ts', 1.5, /\bexport (default|const|function|class|async|enum|abstract)\b|^\s*import .* from ['"]/m],
  ['js', 1, /\.(map|filter|reduce|forEach|then)\(\(?\w*\)? =>/],
  ['ts', 0.8, /\.(map|filter|reduce|forEach|then)\(\(?\w*\)? =>/],
  ['js', 1.5, /`[^`]*\$\{[^}]+\}[^`]*`/],
  ['ts', 1, /`[^`]*\$\{[^}]+\}[^`]*`/],
  // Java
  ['java', 4, /System\.(out|err)\.print|public static void main\s*\(\s*String/],
  ['java', 3, /^\s*import (static )?java(x)?\.[\w.]+;|^\s*package [\w.]+;\s*$/m],
  ['java', 3, /@(Override|RestController|Controller|Service|Autowired|RequestMapping|GetMapping|PostMapping|PathVariable|RequestBody|Test|Entity|Id|Bean|Component)\b/],
  ['java', 3, /\.stream\(\)|\bCollectors\.|\bOptional<|\b(ArrayList|HashMap|HashSet|LinkedList)<|\bthrows [A-Z]\w+/],
  ['java', 2.5, /[(,]\s*[A-Z]\w*::[a-z]\w*\s*[),]/],
  ['java', 2.5, /\bString\[\]|\bboolean \w+|\bfinal [A-Z]\w* \w+|\bString \w+\s*[=;,)]/],
  ['java', 2, /\b(public|private|protected)( static)?( final)? [\w<>[\], ]+ \w+\s*\([^)]*\)\s*(throws [\w, ]+)?\{?\s*$/m],
  ['java', 1, /\bnew [A-Z]\w*(<[^>]*>)?\(/],
  ['java', 1.5, /\b(public|private|protected) (static )?(final )?(class|interface|enum|record) \w+/],
  ['java', 2, /\) -> |\b\w+ -> [\w{(]/],
  ['java', 2, /\bassert(Equals|True|False|Throws|NotNull)\(|\bextends [A-Z]\w*(<[^>]*>)? (implements|\{)|\bimplements [A-Z]/],
  ['java', 1.5, /\b(int|long|double|float|char) \w+ = |\bStringBuilder\b|\bInteger\b|\.equals\(|\.length\(\)|\.size\(\)/],
  ['java', 1.5, /^\s*(public )?(enum|interface) \w+(<[^>]*>)? (extends [\w<>, ]+ )?\{/m],
  // C#
  ['cs', 4, /\{\s*get;\s*((private |protected |init)?\s*set;)?\s*\}|\{\s*get\s*=>/],
  ['cs', 4, /^\s*using System(\.[\w.]+)?;|\bConsole\.(Write|WriteLine|ReadLine)\(/m],
  ['cs', 3, /\basync Task\b|\bTask<|\bIActionResult\b|\bControllerBase\b|\bILogger<|\bIEnumerable<|\bDictionary<|\bCancellationToken\b/],
  ['cs', 3, /\.(Where|Select|OrderBy|OrderByDescending|GroupBy|FirstOrDefault|Any|All|Sum|Count|ToList|ToArray)\(\w+ => /],
  ['cs', 3, /^\s*\[(ApiController|HttpGet|HttpPost|Route|Fact|Test|TestMethod|Serializable|Required|Authorize)\b[^\]]*\]\s*$/m],
  ['cs', 2, /^\s*\[[A-Z]\w*(\(.*\))?\]\s*$/m],
  ['cs', 2.5, /\bforeach \((var|[\w<>]+) \w+ in /],
  ['cs', 2.5, /\b(string|bool|decimal|object)\b(\[\])? \w+\s*[=;,)]|\bvar \w+ = new\b|\bnew\(\)|\bthis with \{/],
  ['cs', 2.5, /^\s*namespace [A-Z][\w.]*\s*(\{|;)?\s*$/m],
  ['cs', 2, /^\s*using (var )?\w+ = |\bprivate readonly [A-Z]\w*(<[^>]*>)? _\w+|\b_[a-z]\w* = /m],
  ['cs', 2, /\b(public|private|protected|internal) (static |override |virtual |async |readonly )*[\w<>[\]?, ]+ [A-Z]\w*\s*\(/],
  ['cs', 2, /\.[A-Z]\w+\(/g],
  ['cs', 1.5, /\bstring\.\w+|\bDateTime\.|\bMath\.[A-Z]|\bnameof\(|\bawait [A-Z]?\w+\.?\w*Async\(|\)\s*=>\s*\w/],
  ['cs', 1.5, /\bnew [A-Z]\w*(<[^>]*>)?\(|\bnew\[\]/],
  ['cs', 1, /^\s*(public |private |internal )?(record|class|interface|struct|enum) \w+/m],
  ['cs', 2, /^\s*(public )?interface I[A-Z]\w*/m],
  // Go
  ['go', 4, /^package \w+\s*$/m],
  ['go', 3, /\bfunc (\([^)]*\) )?\w+\(/],
  ['go', 3, /:= |\berr != nil\b|\bfmt\.\w+\(|\bgo func\b|\bchan\b|\bdefer \w/],
  ['go', 3, /^\s*import \($|^\s*import "[\w./-]+"/m],
  ['go', 3, /\btype \w+ (struct|interface)\s*\{|\[\](byte|string|int|rune|\*?[A-Z]\w*)\b|\bmap\[\w+\]/],
  ['go', 1.5, /\bnil\b|\bfor \w+(, \w+)? := range\b|\bctx context\.Context/],
  ['go', 1, /\b[a-z]\w*\.[A-Z]\w*\(/],
  // Rust
  ['rs', 4, /\bfn \w+(<[^>]*>)?\s*\(|\blet mut\b|&mut self|&self\b|\bimpl(<[^>]*>)? [\w:]+( for \w+)?\s*\{/],
  ['rs', 3, /\b(println|print|format|vec|write|writeln|panic|assert|assert_eq)!\(|#\[[\w:]+(\(.*\))?\]/],
  ['rs', 3, /\bpub (fn|struct|enum|trait|mod|use|crate)\b|^\s*use [\w:]+(::\{[^}]*\})?;/m],
  ['rs', 3, /\bmatch \w+ \{|\bSome\(|\bOk\(|\bErr\(|\bNone\b|::new\(|\.unwrap\(\)|\.iter\(\)|\.to_string\(\)|\.to_owned\(\)|\.clone\(\)/],
  ['rs', 3, /\b(u8|u16|u32|u64|usize|i32|i64|f64|&str|&'\w+)\b|\bString::\w+|\bResult<|\bOption</],
  ['rs', 2, /[(,]\s*\|\w*(: [^|]+)?\|\s|\) -> [^:{\n]+\{/],
  ['rs', 1.5, /\b\w+::\w+/],
  // C
  ['c', 3, /#include\s*<(stdio|stdlib|string|stdint|stdbool|stddef|unistd|signal|math|errno|ctype|time|assert|limits|fcntl|pthread)\.h>/],
  ['c', 2.5, /\b(printf|fprintf|sprintf|snprintf|scanf|malloc|calloc|realloc|free|memcpy|memset|strlen|strcmp|strcpy|fopen|fgets|fclose|fread|fwrite|perror|puts|qsort|exit)\s*\(/],
  ['c', 3, /\btypedef (struct|enum|union)\b|\bstruct \w+ \*\w+|\bint main\s*\(\s*(void|int argc)/],
  ['c', 2, /\bNULL\b|\bsizeof\b|\bvoid \*|\bchar \*|\(void\)|\bsize_t\b|\bconst char \*/],
  ['c', 2, /(?<![$\w])[a-z_]\w*->[a-z_]\w*/],
  ['c', 2, /^\s*#define \w+/m],
  ['c', 1, /^\s*(static |extern )?(unsigned |const |volatile )*(int|void|char|long|short|float|double|size_t|struct \w+) \*?\w+\s*[(=;[]/m],
  // C++
  ['cpp', 4, /\bstd::|#include\s*<(iostream|vector|string|map|unordered_map|set|memory|algorithm|thread|mutex|utility|functional|array|optional|sstream|fstream)>/],
  ['cpp', 3, /\btemplate\s*<|\bnullptr\b|\bnoexcept\b|\bconstexpr\b|\bexplicit \w+\(|\bcout\b|\bendl\b/],
  ['cpp', 3, /^\s*(public|private|protected):\s*$|\)\s*const\s*(override\s*)?(noexcept\s*)?[{;=]|=\s*(default|delete|0);/m],
  ['cpp', 2.5, /\bconst auto&|\bauto&?\s+\w+\s*[=:]|\[[&=]?\]\s*\(|\bvirtual\b|\boperator\s*(\(\)|[-+*/=<>!\[]+)\s*\(/],
  ['cpp', 2, /^\s*namespace \w+\s*\{|\}\s*\/\/\s*namespace|\b\w+::\w+\s*\(|::~?\w+\(/m],
  ['cpp', 1.5, /(?<![$\w])[a-z_]\w*->\w+\(|\bclass \w+ (: (public|private) \w+ )?\{|^\s*\};\s*$/m],
  ['cpp', 1, /\b(int|void|double|bool|size_t) \w+\s*\(/],
  // Ruby
  ['rb', 3, /^\s*def (self\.)?\w+[?!=]?(\(.*\))?\s*$|^\s*def \w+[?!]?\s+\w/m],
  ['rb', 3, /\bdo\s*\|[\w, *]+\||\{\s*\|[\w, ]+\|/],
  ['rb', 3, /\battr_(accessor|reader|writer)\b|\belsif\b|\bunless\b|%[wi][[({]|\.each(_with_index)? do\b|\bputs\b/],
  ['rb', 3, /#\{[^}]+\}/],
  ['rb', 2, /^\s*end\s*$/m],
  ['rb', 3, /^\s*require(_relative)? ['"][\w/.-]+['"]\s*$|^\s*module [A-Z]\w*\s*$|^\s*class \w+ < [\w:]+\s*$/m],
  ['rb', 2.5, /(^|[\s(,{]):[a-z_]\w*\b(?!:)/m],
  ['rb', 2.5, /\.\w+\?(\s|$|\)|\}|\.)|->\s*\{|\bRSpec\.|\bexpect\(.*\)\.(to|not_to)\b|\b(belongs_to|has_many|has_one|validates|scope|before_action)\b|\.freeze\b/],
  ['rb', 1.5, /@[a-z_]\w*\b/],
  ['rb', 1, /\bnil\b|\.new\b/],
  // PHP
  ['php', 3, /\$this->|\$\w+->\w+|\$_(GET|POST|SERVER|SESSION|COOKIE|REQUEST)\b|::class\b/],
  ['php', 3, /\bfunction \w*\s*\([^)]*\$\w+|\bforeach \(\$\w+ as \$|\bnamespace [A-Z]\w*\\|\b(public|private|protected) function\b/],
  ['php', 2.5, /\$\w+\s*(=|\.=|\+=|\[\]\s*=)\s/],
  ['php', 2, /\b(echo|isset|empty|unset|array|in_array|array_\w+|str_\w+|preg_\w+|strtolower|strtoupper|json_encode|json_decode|htmlspecialchars|count|implode|explode)\s*\(|\becho\b/],
  ['php', 2, /\$\w+\[['"]\w+['"]\]|=> \$\w+|\bRoute::|\bnew [A-Z]\w*\(\$/],
  ['php', 1.5, /'\w+' => /],
  ['php', 1.5, /[(\[,=!<>]\s*\$[a-z_]\w*|\$[a-z_]\w*\s*[)\];,]/],
  // Shell
  ['sh', 3, /^\s*(if|elif|while|until) \[\[? .*\]\]?;?\s*(then|do)?\s*$|^\s*(fi|done|esac)\s*$|;;\s*$|\bthen\s*$/m],
  ['sh', 3, /\$\([a-z]|\$[0-9@#?*]|\$\{[#!]?\w+([:%#/][^}]*)?\}|>&2|2>&1|>\s*\/dev\/null/],
  ['sh', 3, /^\s*(export|local|readonly|declare) \w+(=|\s|$)|^\s*[A-Za-z_]\w*=("|'|\$|\S)/m],
  ['sh', 3, /^\s*(function \w+\s*(\(\))?|\w+\(\))\s*\{/m],
  ['sh', 1.5, /^\s*(echo|cd|mkdir|rm|cp|mv|cat|grep|sed|awk|curl|wget|tar|chmod|chown|sudo|apt|apt-get|brew|npm|npx|yarn|pip|git|docker|kubectl|make|find|xargs|ls|source|exit|set|read|printf|du|df|ln|touch|systemctl|convert|ssh|scp|tail|head|sort|uniq|wc|tee|jq|python3?|node)\b(?![.(])/gm],
  ['sh', 2, /\s\|\s*(grep|awk|sed|sort|uniq|head|tail|wc|xargs|cut|tr|tee|jq|less)\b|\s&&\s[a-z]/],
  ['sh', 1.5, /(^|\s)--?[a-z][\w-]*(?=\s|=|$)/gm],
  ['sh', 1.5, /"\$\w+"|"\$\{\w+\}"|\$[A-Z_][A-Z0-9_]*\b/],
  // SQL (string literals blanked, so SQL inside another language's strings counts less)
  ['sql', 3, /\bSELECT\b[\s\S]+?\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b/i, 'code'],
  ['sql', 3, /\b(CREATE|ALTER|DROP)\s+(OR\s+REPLACE\s+)?(TABLE|INDEX|UNIQUE\s+INDEX|VIEW|DATABASE|SCHEMA|FUNCTION|PROCEDURE|TRIGGER|SEQUENCE)\b/i, 'code'],
  ['sql', 2, /\b(WHERE|GROUP\s+BY|ORDER\s+BY|HAVING|LIMIT|VALUES|(LEFT|RIGHT|INNER|OUTER|FULL|CROSS)\s+JOIN|JOIN|NOT\s+NULL|PRIMARY\s+KEY|DEFAULT|IS\s+(NOT\s+)?NULL|IF\s+(NOT\s+)?EXISTS|OVER|INTERVAL)\b/g, 'code'],
  ['sql', 2, /\b(VARCHAR|INTEGER|SERIAL|TIMESTAMP|BOOLEAN|NUMERIC|DECIMAL)\b|\b(COUNT|SUM|AVG|MIN|MAX|COALESCE|NOW)\s*\(/, 'code'],
  // HTML
  ['html', 2.5, /<\/?(html|head|body|div|span|p|a|ul|ol|li|table|thead|tbody|tr|td|th|form|input|button|label|select|option|textarea|nav|header|footer|main|section|article|aside|img|script|style|link|meta|title|h[1-6]|br|hr|strong|em|iframe|svg)\b[^>\n]{0,300}>/g],
  ['html', 2, /<\/\w+>\s*$/m],
  ['html', 1.5, /\s(class|id|href|src|alt|type|name|rel|content|for|action|method)="[^"]*"/],
  // CSS
  ['css', 3, new RegExp(`^\\s*${CSS_PROPERTY}\\s*:\\s*[^;{}]+;`, 'gm')],
  ['css', 3, /^\s*@(media|keyframes|import|font-face|supports|layer)\b|^\s*:root\s*\{|\bvar\(--[\w-]+\)/m],
  ['css', 2, /^[ \t]*(?:[.#][\w-]|(?:html|body|h[1-6]|p|a|ul|ol|li|div|span|img|table|tr|td|th|input|button|label|form|nav|header|footer|main|section|article|aside|pre|code|blockquote|\*)(?![\w-]))[^{};=()\n]*\{[ \t]*$/m],
  ['css', 1.5, /\b\d+(px|rem|em|vh|vw|%|s|ms|deg|fr)\b|#[0-9a-fA-F]{3,8}\b/],
  // Markdown in a code path (prose with markup is caught earlier)
  ['md', 2, /^#{1,6} \S/m],
  ['md', 2, /^ {0,3}```/m],
  // JSON and YAML
  ['yaml', 2, /^[\w-]+:\s*(\S.*)?$/m],
  ['yaml', 2, /^\s+- [\w"']/m],
];

/** Blanks string literals (keeping their quotes) so keywords inside strings do not count. */
function blankStrings(text: string): string {
  return text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, (m) => m[0]! + m.at(-1)!);
}

/** The signature evidence for each language: the sum of the weights of its matching signatures. */
export function signatureScores(text: string): Map<Specific, number> {
  const code = blankStrings(text);
  const scores = new Map<Specific, number>();
  for (const [lang, weight, pattern, on] of SIGNATURES) {
    const subject = on === 'code' ? code : text;
    let hits: number;
    if (pattern.global) {
      pattern.lastIndex = 0;
      hits = Math.min(3, subject.match(pattern)?.length ?? 0);
    } else {
      hits = pattern.test(subject) ? 1 : 0;
    }
    if (hits) scores.set(lang, (scores.get(lang) ?? 0) + weight * hits);
  }
  return scores;
}

// ---------------------------------------------------------------------------------------------
// The classifier

export interface LanguageClassifierOptions {
  /** Files for the VS Code model (preferred), or a ready model; neither means signatures only. */
  modelFiles?: ModelFiles;
  model?: LanguageModel;
  /** Told when the model fails (the classifier then falls back to signatures); default: console.warn once. */
  onModelError?: (error: unknown) => void;
}

/** How much the model's log-probability counts next to one unit of signature weight. */
const MODEL_WEIGHT = 1.5;
/** The floor of a language's model probability (languages outside the model's labels get it too). */
const MODEL_FLOOR = 0.005;

const TEXT: Classification = { generic: 'TEXT', specific: 'txt' };

/** Only the start of a long text is examined: enough to tell, and it bounds the cost. */
export const MAX_DETECT_CHARS = 20_000;

/** File names (lower-cased, also before a suffix: `Dockerfile.dev`) the wire enum lacks. */
const FILE_NAMES: Record<string, Specific> = {
  dockerfile: 'dockerfile', containerfile: 'dockerfile', makefile: 'hljs-makefile', gnumakefile: 'hljs-makefile',
  'cmakelists.txt': 'hljs-cmake',
};
/** Extensions the wire enum spells differently or lacks. */
const EXTENSIONS: Record<string, Specific> = {
  mts: 'ts', cts: 'ts', cjs: 'js', kts: 'kt', jsonc: 'json', json5: 'json', mk: 'hljs-makefile', cmake: 'hljs-cmake',
  gradle: 'hljs-gradle', proto: 'hljs-protobuf',
};

/** The classification a file name gives, if it names a known extension or file. */
export function specificOfHint(filename: string | undefined): Specific | undefined {
  const base = filename?.split(/[\\/]/).pop()?.toLowerCase();
  if (!base) return undefined;
  const dot = base.lastIndexOf('.');
  const named = FILE_NAMES[base] ?? (dot > 0 ? FILE_NAMES[base.slice(0, dot)] : undefined);
  if (named) return named;
  const known = specificOfFilename(filename);
  if (known && known !== 'UNKNOWN') return known;
  return dot >= 0 ? EXTENSIONS[base.slice(dot + 1)] : undefined;
}

function classification(specific: Specific): Classification {
  const generic: ClassificationGenericEnum = specific === 'UNKNOWN' ? 'CODE' : genericOf(specific);
  return { generic, specific };
}

/**
 * Combines the model's probabilities with the signature evidence. Undefined when the text does not
 * look like code and neither a confident model nor a signature points anywhere.
 */
export function decide(model: LanguageScores, signatures: ReadonlyMap<Specific, number>, codeShaped: boolean): Specific | undefined {
  const candidates = new Set<Specific>([...model.keys(), ...signatures.keys()]);
  const hasModel = model.size > 0;
  let best: Specific | undefined;
  let bestScore = -Infinity;
  for (const lang of candidates) {
    if (lang === 'UNKNOWN') continue;
    const evidence = signatures.get(lang) ?? 0;
    const score = (hasModel ? MODEL_WEIGHT * Math.log(Math.max(model.get(lang) ?? 0, MODEL_FLOOR)) : 0) + evidence;
    if (score > bestScore) {
      bestScore = score;
      best = lang;
    }
  }
  if (!best || codeShaped) return best;
  // Neither a confident model nor any signature: not enough to call it code in a given language.
  const p = model.get(best) ?? 0;
  const evidence = signatures.get(best) ?? 0;
  if (evidence < 2 && p < 0.3) return undefined;
  return best;
}

/**
 * A classifier for content saved without a classification. Build it once per worker; the model
 * loads on the first call that needs it.
 */
export function createLanguageClassifier(options: LanguageClassifierOptions = {}): Classifier {
  const model = options.model ?? (options.modelFiles ? createVscodeLanguageModel(options.modelFiles) : undefined);
  let warned = false;
  const onModelError =
    options.onModelError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      console.warn('language detection: model unavailable, using signatures only:', error);
    });

  return {
    async classify(content, hint) {
      const fromName = specificOfHint(hint?.filename);
      if (fromName) return classification(fromName);
      if (!content.trim()) return TEXT;
      const text = content.length > MAX_DETECT_CHARS ? content.slice(0, MAX_DETECT_CHARS) : content;
      const certain = certainLanguage(text);
      if (certain) return classification(certain);
      if (looksLikeMarkdown(text)) return { generic: 'TEXT', specific: 'md' };
      if (looksLikeProse(text)) return TEXT;

      let scores: LanguageScores = new Map();
      if (model) {
        try {
          scores = await model.predict(text);
        } catch (error) {
          onModelError(error);
        }
      }
      const lang = decide(scores, signatureScores(text), looksLikeCode(text));
      return lang ? classification(lang) : TEXT;
    },
  };
}
