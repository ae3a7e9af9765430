import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { languageOf } from '../languages.ts';

/**
 * The content editor: CodeMirror 6 with line numbers, history, bracket matching and the asset's
 * language, loaded as one lazy chunk the first time an editor opens. Colours come from the page's CSS
 * variables, so light and dark themes both apply. Tab indents; Escape then Tab leaves the editor
 * (CodeMirror's own escape hatch), so the page stays keyboard-navigable.
 */
export interface CodeEditor {
  readonly view: EditorView;
  setLanguage(ext: string | undefined): void;
  destroy(): void;
}

const theme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--code-bg)', fontSize: '13px', borderRadius: '8px', border: '1px solid var(--border)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '2px' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--text)', minHeight: '14rem' },
  '.cm-gutters': { backgroundColor: 'var(--code-bg)', color: 'var(--muted)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-placeholder': { color: 'var(--muted)' },
});

// Token colours through CSS variables (styles.css), checked for contrast in both themes.
const highlightStyle = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: 'var(--syn-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--syn-string)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syn-number)' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName), tags.definition(tags.variableName)], color: 'var(--syn-function)' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: 'var(--syn-type)' },
  { tag: [tags.tagName, tags.attributeName], color: 'var(--syn-tag)' },
]);

export function createCodeEditor(parent: HTMLElement, options: { doc: string; language?: string; label: string; onChange: (text: string) => void }): CodeEditor {
  const language = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(highlightStyle),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        placeholder('Paste or type code…'),
        theme,
        language.of([]),
        EditorView.contentAttributes.of({ 'aria-label': options.label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  let wanted: string | undefined;
  const setLanguage = (ext: string | undefined) => {
    wanted = ext;
    const loader = languageOf(ext)?.editor;
    if (!loader) {
      view.dispatch({ effects: language.reconfigure([]) });
      return;
    }
    loader().then(
      (support) => {
        if (wanted === ext) view.dispatch({ effects: language.reconfigure(support) });
      },
      () => {}, // a mode that cannot load leaves plain text
    );
  };
  setLanguage(options.language);
  return { view, setLanguage, destroy: () => view.destroy() };
}
