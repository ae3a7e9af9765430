import { useEffect, useRef, useState } from 'preact/hooks';
import type { CodeEditor as Editor } from './codemirror.ts';

/**
 * The content editor as a component: CodeMirror (codemirror.ts, a lazy chunk) with the accessible name
 * `label`. Until the chunk has loaded — or if it cannot load — a plain textarea of the same name stands in.
 */
export function CodeEditor(props: { value: string; language?: string; label: string; onChange: (text: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let live = true;
    import('./codemirror.ts').then(
      ({ createCodeEditor }) => {
        if (!live || !host.current) return;
        editor.current = createCodeEditor(host.current, {
          doc: latest.current.value,
          language: latest.current.language,
          label: latest.current.label,
          onChange: (text) => latest.current.onChange(text),
        });
        setState('ready');
      },
      () => live && setState('failed'),
    );
    return () => {
      live = false;
      editor.current?.destroy();
      editor.current = undefined;
    };
  }, []);

  // A value set from outside (a draft, a reload) replaces the document; typing does not come back here.
  useEffect(() => {
    const view = editor.current?.view;
    if (view && view.state.doc.toString() !== props.value) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: props.value } });
    }
  }, [props.value, state]);

  useEffect(() => editor.current?.setLanguage(props.language), [props.language, state]);

  return (
    <div class="editor">
      <div ref={host} hidden={state !== 'ready'} />
      {state === 'failed' && (
        <textarea aria-label={props.label} value={props.value} spellcheck={false} onInput={(e) => props.onChange(e.currentTarget.value)} />
      )}
      {state === 'loading' && <div class="editor-loading">Loading editor…</div>}
    </div>
  );
}
