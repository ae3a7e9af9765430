import { languageOf } from './languages.ts';

/**
 * Syntax highlighting for the asset view: highlight.js (its core and its grammars, lazy chunks; the
 * grammars are one chunk, vite.config.ts says why). Chosen over Shiki, which needs an Oniguruma wasm (or a large JS regex engine) and
 * TextMate grammars of tens of KB each, and over Prism, whose grammars register on a global. The HTML
 * it answers is highlight.js's escaped output, sanitised again (DOMPurify) before it reaches the page.
 */
/** Longer code is shown as plain text: highlighting megabytes would hold the page for seconds. */
const MAX_HIGHLIGHTED = 200_000;

export async function highlight(code: string, ext: string | undefined): Promise<string | undefined> {
  const language = languageOf(ext);
  if (!language?.hljs || code.length > MAX_HIGHLIGHTED) return undefined;
  const [{ default: hljs }, grammar, purify] = await Promise.all([import('highlight.js/lib/core'), language.hljs(), import('dompurify')]);
  const name = `tessera-${language.ext}`;
  if (!hljs.getLanguage(name)) hljs.registerLanguage(name, grammar.default);
  const html = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  return purify.default.sanitize(html, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'] });
}
