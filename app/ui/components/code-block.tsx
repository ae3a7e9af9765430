import { useEffect, useState } from 'preact/hooks';
import { highlight } from '../highlight.ts';

/**
 * Code in a `<pre><code>`, first as plain text, then highlighted once its grammar has loaded. The
 * highlighted form is sanitised markup of spans only (highlight.ts); never the asset's own HTML.
 */
export function CodeBlock({ code, language }: { code: string; language: string | undefined }) {
  const [html, setHtml] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setHtml(undefined);
    highlight(code, language).then(
      (result) => live && setHtml(result),
      () => {}, // a grammar that cannot load (offline, first visit) leaves the plain text
    );
    return () => {
      live = false;
    };
  }, [code, language]);
  return (
    <pre class="code">
      {html === undefined ? <code>{code}</code> : <code class="hljs" dangerouslySetInnerHTML={{ __html: html }} />}
    </pre>
  );
}
