/**
 * The IDE example's page: a CodeMirror editor and a Tessera side panel. Save the selection as a snippet,
 * search snippets as you type and insert one at the cursor, see the snippets related to the open file,
 * and ask about the selection with the answer streaming in.
 */
import { createEditor } from './editor.ts';
import { FILES } from './files.ts';
import { askAbout, connect, relatedSnippets, saveSnippet, searchSnippets, snippetText, summaryOf, type SnippetSummary } from './tessera.ts';

const RELATED_DELAY_MS = 400;
const RELATED_LIMIT = 5;

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = element<HTMLParagraphElement>('status');
const fileSelect = element<HTMLSelectElement>('file');
const saveButton = element<HTMLButtonElement>('save');
const searchBox = element<HTMLInputElement>('search');
const results = element<HTMLUListElement>('results');
const related = element<HTMLUListElement>('related');
const question = element<HTMLInputElement>('question');
const askButton = element<HTMLButtonElement>('ask');
const answer = element<HTMLDivElement>('answer');

const say = (text: string) => (status.textContent = text);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

let relatedTimer: ReturnType<typeof setTimeout> | undefined;
let relatedAbort: AbortController | undefined;
let searchAbort: AbortController | undefined;
let connected = false;

const editor = createEditor(element('editor'), () => scheduleRelated());

for (const name of Object.keys(FILES)) fileSelect.append(new Option(name, name));
fileSelect.addEventListener('change', () => openFile(fileSelect.value));
openFile(fileSelect.value);

/** A list of snippets, each a button that inserts it at the cursor. */
function showSnippets(list: HTMLUListElement, snippets: SnippetSummary[], empty: string): void {
  list.replaceChildren(
    ...(snippets.length === 0
      ? [Object.assign(document.createElement('li'), { textContent: empty })]
      : snippets.map((snippet) => {
          const item = document.createElement('li');
          const insert = Object.assign(document.createElement('button'), { type: 'button', textContent: snippet.name });
          insert.setAttribute('aria-label', `Insert ${snippet.name}`);
          insert.addEventListener('click', () => void insertSnippet(snippet));
          item.append(insert, Object.assign(document.createElement('span'), { textContent: snippet.language }));
          return item;
        })),
  );
}

function openFile(name: string): void {
  editor.open(name, FILES[name] ?? '');
}

async function insertSnippet(snippet: SnippetSummary): Promise<void> {
  try {
    editor.insert(await snippetText(snippet.id));
    say(`Inserted “${snippet.name}”`);
  } catch (error) {
    say(`Could not insert: ${messageOf(error)}`);
  }
}

function scheduleRelated(): void {
  if (!connected) return;
  clearTimeout(relatedTimer);
  relatedTimer = setTimeout(() => void refreshRelated(), RELATED_DELAY_MS);
}

async function refreshRelated(): Promise<void> {
  relatedAbort?.abort();
  const abort = (relatedAbort = new AbortController());
  try {
    showSnippets(related, await relatedSnippets(editor.text(), RELATED_LIMIT, abort.signal), 'No related snippets yet.');
  } catch (error) {
    if (!abort.signal.aborted) say(`Related snippets failed: ${messageOf(error)}`);
  }
}

async function search(): Promise<void> {
  searchAbort?.abort();
  const query = searchBox.value.trim();
  if (!query) {
    results.replaceChildren();
    return;
  }
  const abort = (searchAbort = new AbortController());
  try {
    const found = await searchSnippets(query, abort.signal);
    const snippets = found.iterable.flatMap((hit) => (hit.asset ? [summaryOf(hit.asset)] : []));
    if (!abort.signal.aborted) showSnippets(results, snippets, 'No snippet matches.');
  } catch (error) {
    if (!abort.signal.aborted) say(`Search failed: ${messageOf(error)}`);
  }
}

searchBox.addEventListener('input', () => void search());

saveButton.addEventListener('click', async () => {
  const text = editor.selection();
  if (!text.trim()) return say('Select some code to save first.');
  try {
    const snippet = summaryOf(await saveSnippet(text));
    say(`Saved “${snippet.name}” (${snippet.language})`);
    void search();
    void refreshRelated();
  } catch (error) {
    say(`Could not save: ${messageOf(error)}`);
  }
});

askButton.addEventListener('click', async () => {
  const code = editor.selection();
  if (!code.trim()) return say('Select some code to ask about first.');
  answer.textContent = '';
  askButton.disabled = true;
  try {
    await askAbout(code, question.value, (delta) => answer.append(delta));
    say('Answered');
  } catch (error) {
    say(`Could not answer: ${messageOf(error)}`);
  } finally {
    askButton.disabled = false;
  }
});

connect().then(
  () => {
    connected = true;
    for (const control of [saveButton, searchBox, askButton]) control.disabled = false;
    say('Tessera ready');
    void refreshRelated();
  },
  (error: unknown) => say(`Tessera could not start: ${messageOf(error)}`),
);
