/** The IDE's editor: CodeMirror 6 on one open file, its language from the file's extension. */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

export interface Editor {
  /** The selected text (the main selection), '' when nothing is selected. */
  selection(): string;
  /** Replaces the selection (or inserts at the cursor) with `text`, leaving the cursor after it. */
  insert(text: string): void;
  text(): string;
  /** Opens another file: its content and language. */
  open(name: string, content: string): void;
  focus(): void;
}

const languageOf = (name: string) => (name.endsWith('.py') ? python() : javascript({ typescript: name.endsWith('.ts') }));

export function createEditor(parent: HTMLElement, onChange: () => void): Editor {
  const language = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        language.of([]),
        EditorView.contentAttributes.of({ 'aria-label': 'Editor' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange();
        }),
      ],
    }),
  });
  return {
    selection: () => {
      const { from, to } = view.state.selection.main;
      return view.state.sliceDoc(from, to);
    },
    insert: (text) => {
      const { from, to } = view.state.selection.main;
      view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length }, scrollIntoView: true });
      view.focus();
    },
    text: () => view.state.doc.toString(),
    open: (name, content) => {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: content }, effects: language.reconfigure(languageOf(name)) });
    },
    focus: () => view.focus(),
  };
}
