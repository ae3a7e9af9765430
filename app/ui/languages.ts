import type { ClassificationSpecificEnum } from '../client/api.ts';

/**
 * The languages the app names, highlights and edits. Each highlighter and editor mode is a dynamic
 * import, so the first screen loads none of them; the build puts the highlight.js grammars in one chunk
 * and the legacy editor modes in another (vite.config.ts says why). Classifications not listed here show as plain text under their own name.
 */
export interface Language {
  ext: ClassificationSpecificEnum;
  label: string;
  /** highlight.js grammar (the view). */
  hljs?: () => Promise<{ default: import('highlight.js').LanguageFn }>;
  /** CodeMirror mode (the editor). */
  editor?: () => Promise<import('@codemirror/language').LanguageSupport | import('@codemirror/language').StreamLanguage<unknown>>;
}

const legacy = async (load: () => Promise<import('@codemirror/language').StreamParser<unknown>>) => {
  const [{ StreamLanguage }, parser] = await Promise.all([import('@codemirror/language'), load()]);
  return StreamLanguage.define(parser);
};

export const LANGUAGES: readonly Language[] = [
  { ext: 'py', label: 'Python', hljs: () => import('highlight.js/lib/languages/python'), editor: async () => (await import('@codemirror/lang-python')).python() },
  { ext: 'js', label: 'JavaScript', hljs: () => import('highlight.js/lib/languages/javascript'), editor: async () => (await import('@codemirror/lang-javascript')).javascript() },
  { ext: 'ts', label: 'TypeScript', hljs: () => import('highlight.js/lib/languages/typescript'), editor: async () => (await import('@codemirror/lang-javascript')).javascript({ typescript: true }) },
  { ext: 'jsx', label: 'JSX', hljs: () => import('highlight.js/lib/languages/javascript'), editor: async () => (await import('@codemirror/lang-javascript')).javascript({ jsx: true }) },
  { ext: 'tsx', label: 'TSX', hljs: () => import('highlight.js/lib/languages/typescript'), editor: async () => (await import('@codemirror/lang-javascript')).javascript({ jsx: true, typescript: true }) },
  { ext: 'go', label: 'Go', hljs: () => import('highlight.js/lib/languages/go'), editor: async () => (await import('@codemirror/lang-go')).go() },
  { ext: 'rs', label: 'Rust', hljs: () => import('highlight.js/lib/languages/rust'), editor: async () => (await import('@codemirror/lang-rust')).rust() },
  { ext: 'java', label: 'Java', hljs: () => import('highlight.js/lib/languages/java'), editor: async () => (await import('@codemirror/lang-java')).java() },
  { ext: 'kt', label: 'Kotlin', hljs: () => import('highlight.js/lib/languages/kotlin'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/clike')).kotlin) },
  { ext: 'c', label: 'C', hljs: () => import('highlight.js/lib/languages/c'), editor: async () => (await import('@codemirror/lang-cpp')).cpp() },
  { ext: 'cpp', label: 'C++', hljs: () => import('highlight.js/lib/languages/cpp'), editor: async () => (await import('@codemirror/lang-cpp')).cpp() },
  { ext: 'cs', label: 'C#', hljs: () => import('highlight.js/lib/languages/csharp'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/clike')).csharp) },
  { ext: 'swift', label: 'Swift', hljs: () => import('highlight.js/lib/languages/swift'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/swift')).swift) },
  { ext: 'rb', label: 'Ruby', hljs: () => import('highlight.js/lib/languages/ruby'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/ruby')).ruby) },
  { ext: 'php', label: 'PHP', hljs: () => import('highlight.js/lib/languages/php'), editor: async () => (await import('@codemirror/lang-php')).php() },
  { ext: 'sh', label: 'Shell', hljs: () => import('highlight.js/lib/languages/bash'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/shell')).shell) },
  { ext: 'ps1', label: 'PowerShell', hljs: () => import('highlight.js/lib/languages/powershell'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/powershell')).powerShell) },
  { ext: 'sql', label: 'SQL', hljs: () => import('highlight.js/lib/languages/sql'), editor: async () => (await import('@codemirror/lang-sql')).sql() },
  { ext: 'html', label: 'HTML', hljs: () => import('highlight.js/lib/languages/xml'), editor: async () => (await import('@codemirror/lang-html')).html() },
  { ext: 'xml', label: 'XML', hljs: () => import('highlight.js/lib/languages/xml'), editor: async () => (await import('@codemirror/lang-xml')).xml() },
  { ext: 'css', label: 'CSS', hljs: () => import('highlight.js/lib/languages/css'), editor: async () => (await import('@codemirror/lang-css')).css() },
  { ext: 'scss', label: 'SCSS', hljs: () => import('highlight.js/lib/languages/scss'), editor: async () => (await import('@codemirror/lang-css')).css() },
  { ext: 'json', label: 'JSON', hljs: () => import('highlight.js/lib/languages/json'), editor: async () => (await import('@codemirror/lang-json')).json() },
  { ext: 'yaml', label: 'YAML', hljs: () => import('highlight.js/lib/languages/yaml'), editor: async () => (await import('@codemirror/lang-yaml')).yaml() },
  { ext: 'toml', label: 'TOML', hljs: () => import('highlight.js/lib/languages/ini'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/toml')).toml) },
  { ext: 'md', label: 'Markdown', hljs: () => import('highlight.js/lib/languages/markdown'), editor: async () => (await import('@codemirror/lang-markdown')).markdown() },
  { ext: 'dockerfile', label: 'Dockerfile', hljs: () => import('highlight.js/lib/languages/dockerfile'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/dockerfile')).dockerFile) },
  { ext: 'lua', label: 'Lua', hljs: () => import('highlight.js/lib/languages/lua'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/lua')).lua) },
  { ext: 'r', label: 'R', hljs: () => import('highlight.js/lib/languages/r'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/r')).r) },
  { ext: 'dart', label: 'Dart', hljs: () => import('highlight.js/lib/languages/dart'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/clike')).dart) },
  { ext: 'scala', label: 'Scala', hljs: () => import('highlight.js/lib/languages/scala'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/clike')).scala) },
  { ext: 'hs', label: 'Haskell', hljs: () => import('highlight.js/lib/languages/haskell'), editor: () => legacy(async () => (await import('@codemirror/legacy-modes/mode/haskell')).haskell) },
  { ext: 'ex', label: 'Elixir', hljs: () => import('highlight.js/lib/languages/elixir') },
  { ext: 'txt', label: 'Text' },
];

const BY_EXT = new Map<string, Language>(LANGUAGES.map((l) => [l.ext, l]));

export function languageOf(ext: string | undefined): Language | undefined {
  return ext ? BY_EXT.get(ext) : undefined;
}

/** A classification as people name it: "Python" for `py`, the extension itself when unlisted. */
export function languageLabel(ext: string | undefined): string {
  if (!ext || ext === 'UNKNOWN') return 'Unknown';
  return BY_EXT.get(ext)?.label ?? ext;
}
