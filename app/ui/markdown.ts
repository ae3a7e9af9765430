import { highlight } from './highlight.ts';

/**
 * Answers as Markdown: `marked` renders, DOMPurify sanitises (no script, no event handler, no
 * `javascript:` URL; links are http(s), mailto or the app's own `#/` routes), and fenced code is
 * highlighted like the asset view. "(asset <uuid>)" in an answer becomes a link to that asset, named
 * by `nameOf`. Loaded lazily, on the first answer.
 */
const ASSET_REF = /\(asset ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)/gi;
const LANGUAGE_CLASS = /^language-([\w+#-]+)$/;
const FENCE_TO_EXT: Record<string, string> = { python: 'py', javascript: 'js', typescript: 'ts', golang: 'go', rust: 'rs', bash: 'sh', shell: 'sh', csharp: 'cs', 'c++': 'cpp', ruby: 'rb', kotlin: 'kt', markdown: 'md', yml: 'yaml' };

export async function renderMarkdown(text: string, nameOf: (id: string) => string | undefined): Promise<string> {
  const [{ marked }, purify] = await Promise.all([import('marked'), import('dompurify')]);
  const linked = text.replace(ASSET_REF, (_, id: string) => `([${escapeMd(nameOf(id) ?? 'asset')}](#/asset/${id}))`);
  const html = await marked.parse(linked, { gfm: true, breaks: false });
  const clean = purify.default.sanitize(html, {
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#\/)/i,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'img'],
    RETURN_DOM_FRAGMENT: true,
  });
  for (const a of clean.querySelectorAll('a')) {
    if (!a.getAttribute('href')?.startsWith('#/')) {
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
    }
  }
  await Promise.all(
    [...clean.querySelectorAll('pre > code')].map(async (code) => {
      const cls = [...code.classList].map((c) => LANGUAGE_CLASS.exec(c)?.[1]).find(Boolean)?.toLowerCase();
      const highlighted = await highlight(code.textContent ?? '', cls && (FENCE_TO_EXT[cls] ?? cls)).catch(() => undefined);
      if (highlighted !== undefined) {
        code.innerHTML = highlighted; // spans only, sanitised in highlight.ts
        code.classList.add('hljs');
      }
    }),
  );
  const box = document.createElement('div');
  box.append(clean);
  return box.innerHTML;
}

function escapeMd(text: string): string {
  return text.replace(/[\\[\]()*_`<>]/g, (c) => `\\${c}`);
}
