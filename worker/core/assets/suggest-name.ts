/**
 * A short human name for content saved without one: for code, the language and the first
 * function, class or other definition found ("Python: parse_args"); for prose, its first words.
 * Runtime-agnostic and synchronous.
 */
import type { Classification } from './classifier.ts';

/** Names are cut to about this many characters. */
export const MAX_NAME_LENGTH = 60;

const DISPLAY_NAMES: Record<string, string> = {
  py: 'Python', ts: 'TypeScript', tsx: 'TypeScript', js: 'JavaScript', jsx: 'JavaScript', mjs: 'JavaScript',
  java: 'Java', go: 'Go', rs: 'Rust', c: 'C', h: 'C', cpp: 'C++', cc: 'C++', hpp: 'C++', cs: 'C#', rb: 'Ruby',
  php: 'PHP', sh: 'Shell', bash: 'Shell', zsh: 'Shell', ps1: 'PowerShell', bat: 'Batch', sql: 'SQL', html: 'HTML',
  htm: 'HTML', css: 'CSS', scss: 'SCSS', md: 'Markdown', json: 'JSON', yaml: 'YAML', yml: 'YAML', toml: 'TOML',
  xml: 'XML', kt: 'Kotlin', swift: 'Swift', scala: 'Scala', dart: 'Dart', lua: 'Lua', pl: 'Perl', r: 'R',
  hs: 'Haskell', ex: 'Elixir', erl: 'Erlang', clj: 'Clojure', groovy: 'Groovy', matlab: 'MATLAB', jl: 'Julia',
  dockerfile: 'Dockerfile', ini: 'INI', tex: 'TeX', vue: 'Vue', svelte: 'Svelte', coffee: 'CoffeeScript',
  mm: 'Objective-C', ml: 'OCaml', f90: 'Fortran', pas: 'Pascal', vba: 'VBA', lisp: 'Lisp', csv: 'CSV',
};

/** The display name of a classification's language: `Python`, `C++`, `Makefile` (from hljs-makefile). */
export function languageDisplayName(specific: string): string {
  const known = DISPLAY_NAMES[specific];
  if (known) return known;
  const bare = specific.startsWith('hljs-') ? specific.slice(5) : specific;
  if (bare === 'UNKNOWN' || !bare) return 'Code';
  return bare.length <= 4 ? bare.toUpperCase() : bare[0]!.toUpperCase() + bare.slice(1);
}

const ID = '[A-Za-z_$][\\w$]*';
const C_LIKE_KEYWORDS = new Set([
  'if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof', 'new', 'else', 'do', 'using', 'lock', 'foreach',
  'fixed', 'function', 'typeof', 'defined', 'elif', 'when', 'match', 'assert', 'delete', 'throw', 'await',
]);

/** Definition patterns per language family; the name is group 1. The earliest match in the text wins. */
const DEFINITIONS: Record<string, RegExp[]> = {
  py: [/^[ \t]*(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)/m, /^[ \t]*class[ \t]+([A-Za-z_]\w*)/m],
  js: [
    new RegExp(`\\bfunction\\s*\\*?\\s*(${ID})\\s*(?:<[^>(\\n]{0,80}>\\s*)?\\(`),
    new RegExp(`\\bclass\\s+(${ID})`),
    new RegExp(`\\b(?:interface|type|enum)\\s+(${ID})\\b`),
    new RegExp(`\\b(?:const|let|var)\\s+(${ID})\\s*(?::[^=\\n]+)?=\\s*(?:async\\s*)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=\\n]+)?=>|${ID}\\s*=>)`),
  ],
  java: [
    /\b(?:class|interface|enum|record|struct)\s+([A-Za-z_]\w*)/,
    /^[ \t]*(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|synchronized|sealed|partial|extern|inline|unsafe)\s+)+[\w<>[\],.?& ]*?\s([A-Za-z_]\w*)\s*\(/m,
  ],
  c: [
    /^[ \t]*#define[ \t]+([A-Za-z_]\w*)/m,
    /\b(?:class|struct|union|enum|namespace)\s+([A-Za-z_]\w*)\s*(?::[^{;]*)?\{/,
    /\}\s*([A-Za-z_]\w*)\s*;/,
  ],
  go: [/\bfunc\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/, /\btype\s+([A-Za-z_]\w*)\s+(?:struct|interface)\b/],
  rs: [
    /\bfn\s+([A-Za-z_]\w*)/,
    /\b(?:struct|enum|trait|union|mod)\s+([A-Za-z_]\w*)/,
    /\bimpl(?:<[^>]*>)?\s+(?:[\w:]+(?:<[^>]*>)?\s+for\s+)?([A-Za-z_]\w*)/,
  ],
  rb: [
    /^[ \t]*def[ \t]+(?:self\.)?([A-Za-z_]\w*[?!=]?)/m,
    /^[ \t]*(?:class|module)[ \t]+([A-Z][\w:]*)/m,
    /\bdescribe\s+([A-Z][\w:]*)/,
    /^[ \t]*task[ \t]+:?([A-Za-z_]\w*)/m,
  ],
  php: [/\bfunction\s+([A-Za-z_]\w*)/, /\b(?:class|interface|trait|enum)\s+([A-Za-z_]\w*)/],
  sh: [/^[ \t]*(?:function[ \t]+)?([A-Za-z_][\w-]*)[ \t]*\(\)[ \t]*\{/m, /^[ \t]*function[ \t]+([A-Za-z_][\w-]*)/m],
};

const FAMILY: Record<string, string> = {
  py: 'py', pyw: 'py', pyi: 'py', js: 'js', jsx: 'js', mjs: 'js', ts: 'js', tsx: 'js', java: 'java', cs: 'java',
  kt: 'java', scala: 'java', groovy: 'java', dart: 'java', swift: 'java', c: 'c', h: 'c', cpp: 'c', cc: 'c',
  cxx: 'c', hpp: 'c', hh: 'c', go: 'go', rs: 'rs', rb: 'rb', php: 'php', sh: 'sh', bash: 'sh', zsh: 'sh',
};

/** A C-like function definition or prototype: `size_t str_len(const char *s) {`. */
const C_FUNCTION = /^[ \t]*(?:[A-Za-z_][\w:<>,*& \t]{0,80}?[ \t*&])([A-Za-z_]\w*)[ \t]*\([^;{}]{0,400}\)[ \t]*(?:const[ \t]*)?(?:noexcept[ \t]*)?(?:->[^{\n]{1,80})?(?:\{|$)/m;

function firstDefinition(text: string, specific: string): string | undefined {
  const family = FAMILY[specific];
  const patterns = [...(family ? DEFINITIONS[family]! : []), ...(family === 'c' || family === 'java' || !family ? [C_FUNCTION] : [])];
  let best: { index: number; name: string } | undefined;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    const name = match?.[1];
    if (!match || !name || C_LIKE_KEYWORDS.has(name)) continue;
    if (!best || match.index < best.index) best = { index: match.index, name };
  }
  return best?.name;
}

function sqlSummary(text: string): string | undefined {
  const code = text.replace(/--[^\n]*/g, ' ');
  const ddl = /\b(CREATE|ALTER|DROP)\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(TABLE|INDEX|VIEW|FUNCTION|PROCEDURE|TRIGGER|SCHEMA|DATABASE|SEQUENCE)\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?([\w."]+)/i.exec(code);
  if (ddl) return `${ddl[1]!.toUpperCase()} ${ddl[2]!.toUpperCase()} ${ddl[3]}`;
  const dml = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([\w."]+)/i.exec(code);
  if (dml) return `${dml[1]!.toUpperCase().replace(/\s+/g, ' ')} ${dml[2]}`;
  const select = /\bSELECT\b[\s\S]*?\bFROM\s+([\w."]+)/i.exec(code);
  if (select) return `SELECT from ${select[1]}`;
  return undefined;
}

function htmlSummary(text: string): string | undefined {
  const titled = /<title[^>]*>([^<]+)<\/title>/i.exec(text) ?? /<h[1-6][^>]*>([^<]+)<\/h[1-6]>/i.exec(text);
  if (titled?.[1]?.trim()) return titled[1].trim();
  const tag = /<([a-z][\w-]*)([^>]*)>/i.exec(text.replace(/<!DOCTYPE[^>]*>/i, ''));
  if (!tag) return undefined;
  const id = /\bid="([^"]+)"/.exec(tag[2]!)?.[1];
  const cls = /\bclass="([^"\s]+)/.exec(tag[2]!)?.[1];
  return `${tag[1]!.toLowerCase()}${id ? `#${id}` : cls ? `.${cls}` : ''}`;
}

function cssSummary(text: string): string | undefined {
  const selector = /^[ \t]*([^{}\n;/][^{}\n;]*?)[ \t]*\{/m.exec(text.replace(/\/\*[\s\S]*?\*\//g, ''));
  return selector?.[1]?.trim();
}

function markdownHeading(text: string): string | undefined {
  return /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1];
}

/** The first line that says something: no comment, import, include, brace or blank line. */
function firstCodeLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((l) => l.trim())
    .find(
      (l) =>
        l &&
        !/^(#!|<\?php|\/\/|\/\*|\*|#(?!\w)|--|import\b|from\s+\S+\s+import\b|#include\b|using\s+[\w.]+;|package\b|require\b|use\s|namespace\b|@)/.test(l) &&
        /\w/.test(l),
    );
}

/** Cuts at a word boundary to fit `max` characters, adding an ellipsis when cut. */
function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The first words of a prose text, without markdown markup. */
function firstWords(text: string): string {
  const plain = text
    .replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, ' ')
    .replace(/!?\[([^\]\n]{0,200})\]\([^)\s]{0,500}\)/g, '$1')
    .replace(/^ {0,3}(#{1,6}|[-*+]|\d+\.|>)[ \t]+/gm, '')
    .split('\n')
    .filter((line) => !(/^[ \t|:-]+$/.test(line) && line.includes('-') && line.includes('|')))
    .join('\n')
    .replace(/[*`]+|(^|\s)_+|_+(?=\s|[.,;:!?]|$)/gm, '$1')
    .replace(/\|/g, ' ');
  return clip(plain, MAX_NAME_LENGTH);
}

/** A short human name for `text` classified as `classification`, at most about 60 characters. */
export function suggestName(text: string, classification: Classification): string {
  const { generic, specific } = classification;
  if (!text.trim()) return generic === 'CODE' ? `${languageDisplayName(specific)} snippet` : 'Untitled';
  if (specific === 'md' || specific === 'markdown') {
    const heading = markdownHeading(text);
    return heading ? clip(heading, MAX_NAME_LENGTH) : firstWords(text);
  }
  if (generic !== 'CODE') return firstWords(text);

  const language = languageDisplayName(specific);
  const room = MAX_NAME_LENGTH - language.length - 2;
  let subject: string | undefined;
  if (specific === 'sql') subject = sqlSummary(text);
  else if (specific === 'html' || specific === 'htm' || specific === 'xml' || specific === 'vue' || specific === 'svelte') subject = htmlSummary(text);
  else if (specific === 'css' || specific === 'scss' || specific === 'hljs-less') subject = cssSummary(text);
  else subject = firstDefinition(text, specific);
  subject ??= firstCodeLine(text);
  return subject ? `${language}: ${clip(subject, room)}` : `${language} snippet`;
}
