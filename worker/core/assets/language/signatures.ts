/**
 * Hand-written language signatures: near-certain ones that decide alone (`<?php`, a shebang, a JSON
 * document), and weighted keywords and constructs typical of one language, which mainly split the pairs
 * the model confuses on short snippets (C/C++, JS/TS, Java/C#/Groovy/Kotlin).
 */
import type { ClassificationSpecificEnum } from '../../model/schemas.ts';

type Specific = ClassificationSpecificEnum;

/** Deterministic signatures: one match decides. */
export function certainLanguage(text: string): Specific | undefined {
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
