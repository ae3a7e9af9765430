import { useEffect, useRef, useState } from 'preact/hooks';
import type { Conversation, QGPTStreamOutput, RelevantQGPTSeed, RelevantQGPTSeeds } from '../../client/api.ts';
import { listFolders, type GrantedFolder } from '../../client/folders.ts';
import { AskStream, findRelevant, type AskHandlers, type AskScope } from '../ask-stream.ts';
import { textOf } from '../asset-content.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { timeAgo, epochOf } from '../format.ts';
import { messageOf } from '../library-state.ts';
import { hrefOf } from '../router.ts';
import { useSession, type Session } from '../session.ts';

interface Source {
  id: string;
  name: string;
  /** "lines 3–9" of the snippets used, when known. */
  lines: string[];
}

interface Exchange {
  key: string;
  question: string;
  answer: string;
  html?: string;
  /** How many characters of the answer `html` was rendered from. */
  htmlFrom?: number;
  status: 'asking' | 'done' | 'stopped' | 'failed';
  error?: string;
  sources: Source[];
}

type ScopeKind = AskScope['kind'];

/**
 * Ask: questions about the library, chosen assets, a pasted snippet or a granted folder, answered over
 * `/qgpt/stream`. The answer streams in and is rendered as sanitised Markdown; the assets it used are
 * listed by name with the lines used; Stop cancels; follow-ups stay in the conversation (reprompted to
 * stand on their own); suggested questions follow each answer; conversations are listed, reopened,
 * renamed and deleted.
 */
export function AskView({ assets = [] }: { assets?: string[] }) {
  const session = useSession();
  const stream = useRef<AskStream | undefined>(undefined);
  const [conversation, setConversation] = useState<string | undefined>(undefined);
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [hints, setHints] = useState<string[]>([]);
  const [question, setQuestion] = useState('');
  // "Ask about this" on a selection of an asset's code hands the selected text over as a snippet.
  const [snippet, setSnippet] = useState(() => session.askSnippet.peek() ?? '');
  const [scope, setScope] = useState<ScopeKind>(snippet ? 'snippet' : assets.length ? 'assets' : 'library');
  useEffect(() => void (session.askSnippet.value = undefined), []);
  const [folders, setFolders] = useState<GrantedFolder[]>([]);
  const [folder, setFolder] = useState('');
  const [list, setList] = useState<Conversation[]>([]);
  const [generative, setGenerative] = useState<boolean | undefined>(undefined);
  const conversationRef = useRef<string | undefined>(undefined);
  conversationRef.current = conversation;
  const assetName =
    assets.length === 1 ? `“${session.library.byId.value.get(assets[0]!)?.name || 'this asset'}”` : assets.length > 1 ? `${assets.length} chosen assets` : undefined;

  const refreshList = () =>
    session.api.conversations().then(
      (all) => setList([...all.iterable].sort((a, b) => epochOf(b.updated.value) - epochOf(a.updated.value))),
      () => setList([]),
    );

  useEffect(() => {
    stream.current = new AskStream();
    void refreshList();
    listFolders().then(setFolders, () => setFolders([]));
    session.api.answerEndpoint().then(
      (s) => setGenerative(s.configured && s.enabled !== false),
      () => setGenerative(false),
    );
    return () => stream.current?.close();
  }, []);

  const update = (key: string, patch: (x: Exchange) => Partial<Exchange>) =>
    setExchanges((all) => all.map((x) => (x.key === key ? { ...x, ...patch(x) } : x)));
  /**
   * Renders `text` (the answer so far) as the exchange's html, unless a render of more of the answer landed
   * first: renders finish out of order (the first loads the Markdown modules), and the answer only grows.
   */
  const renderInto = async (key: string, text: string) => {
    const html = await renderAnswer(session, text).catch(() => undefined);
    update(key, (x) => (text.length >= (x.htmlFrom ?? 0) ? { html, htmlFrom: text.length } : {}));
  };

  const asking = exchanges.some((x) => x.status === 'asking');

  const ask = async (text = question) => {
    const query = text.trim();
    if (!query || asking || !stream.current) return;
    const chosen = scopeOf(scope, assets, snippet, folder);
    if (chosen?.kind === 'library' && session.library.rows.value?.length === 0) {
      session.notify({ message: 'Your library is empty: save a snippet first, or ask about a pasted one.', error: true });
      return;
    }
    if (!chosen) {
      session.notify({ message: scope === 'snippet' ? 'Paste a snippet to ask about.' : 'Choose a folder first.', error: true });
      return;
    }
    const key = crypto.randomUUID();
    setExchanges((all) => [...all, { key, question: query, answer: '', status: 'asking', sources: [] }]);
    setQuestion('');
    setHints([]);
    // A follow-up is rewritten to stand on its own (POST /qgpt/reprompt), so the search finds what it refers to.
    // The search runs on the rewrite; the question itself is asked as typed (the answerer has the earlier
    // turns), so the conversation keeps the words the person used, not the rewrite.
    let sent = query;
    let relevant: RelevantQGPTSeeds | undefined;
    if (conversationRef.current && exchanges.length) {
      sent = await session.api
        .reprompt({
          query,
          conversation: {
            iterable: exchanges.flatMap((x) => [
              { role: 'USER' as const, text: x.question, timestamp: { value: new Date().toISOString() } },
              ...(x.answer ? [{ role: 'ASSISTANT' as const, text: x.answer, timestamp: { value: new Date().toISOString() } }] : []),
            ]),
          },
        })
        .then((r) => r.query || query, () => query);
      if (sent !== query) relevant = await findRelevant(sent, chosen).then((found) => (found.iterable.length ? found : undefined), () => undefined);
    }
    let rendering = false;
    let latest = '';
    const render = (text: string) => {
      latest = text;
      if (rendering) return;
      rendering = true;
      requestAnimationFrame(async () => {
        await renderInto(key, latest);
        rendering = false;
      });
    };
    const handlers: AskHandlers = {
      conversation: (id) => setConversation(id),
      delta: (delta) =>
        setExchanges((all) =>
          all.map((x) => {
            if (x.key !== key) return x;
            render(x.answer + delta);
            return { ...x, answer: x.answer + delta };
          }),
        ),
      end: (status, frame) => void finish(key, status, frame, query, relevant),
    };
    if (relevant) await stream.current.answer(query, relevant, conversationRef.current, handlers);
    else await stream.current.ask(sent, chosen, conversationRef.current, handlers);
  };

  const finish = async (key: string, status: string, frame: QGPTStreamOutput, query: string, found?: RelevantQGPTSeeds) => {
    if (status === 'COMPLETED') {
      const relevant = frame.relevance?.relevant ?? found ?? { iterable: [] };
      setExchanges((all) =>
        all.map((x) => {
          if (x.key !== key) return x;
          void sourcesOf(session, relevant.iterable, x.answer).then((sources) => update(key, () => ({ sources })));
          void renderInto(key, x.answer);
          void session.api
            .hints({ relevant, query, answer: { text: x.answer, score: 0 } })
            .then((h) => setHints(h.answers.iterable.map((a) => a.text).slice(0, 4)), () => setHints([]));
          return { ...x, status: 'done' };
        }),
      );
    } else if (status === 'FAILED') update(key, () => ({ status: 'failed', error: frame.errorMessage || 'The answer failed.' }));
    else update(key, () => ({ status: 'stopped' }));
    void refreshList();
  };

  const open = async (id: string) => {
    try {
      const c = await session.api.conversation(id);
      setConversation(c.id);
      setHints([]);
      const messages = (c.messages.iterable ?? []).map((m) => m.reference as { role?: string; fragment?: { string?: { raw?: string } } } | undefined);
      const opened: Exchange[] = [];
      for (const m of messages) {
        const text = m?.fragment?.string?.raw ?? '';
        if (m?.role === 'USER') opened.push({ key: crypto.randomUUID(), question: text, answer: '', status: 'done', sources: [] });
        else if (opened.length) opened[opened.length - 1]!.answer += text;
      }
      const rendered = await Promise.all(opened.map(async (x) => ({ ...x, html: await renderAnswer(session, x.answer).catch(() => undefined), sources: await sourcesOf(session, [], x.answer) })));
      setExchanges(rendered);
    } catch (error) {
      session.notify({ message: `Could not open the conversation: ${messageOf(error)}`, error: true });
    }
  };

  const startNew = () => {
    setConversation(undefined);
    setExchanges([]);
    setHints([]);
  };

  return (
    <div class="ask-layout">
      <aside class="conversations" aria-labelledby="conversations-title">
        <div class="conversations-head">
          <h3 id="conversations-title">Conversations</h3>
          <button type="button" class="secondary" onClick={startNew}>
            New conversation
          </button>
        </div>
        <ConversationList session={session} list={list} current={conversation} onOpen={open} onChanged={refreshList} onDeleted={(id) => id === conversation && startNew()} />
      </aside>
      <section class="ask" aria-labelledby="ask-title">
        <h2 id="ask-title" tabIndex={-1}>
          Ask {scope === 'assets' && assetName ? `about ${assetName}` : 'your library'}
        </h2>
        {generative === false && (
          <p class="notice" role="note">
            Answers are extractive: they quote the snippets that match best, each naming its source. To have a model write answers, set an
            answer endpoint (any OpenAI-compatible server, such as a local Ollama) in <a href={hrefOf({ view: 'settings' })}>Settings</a>.
          </p>
        )}
        <fieldset class="scope">
          <legend>Ask about</legend>
          <label class="radio">
            <input type="radio" name="scope" checked={scope === 'library'} onChange={() => setScope('library')} /> The whole library
          </label>
          {assetName && (
            <label class="radio">
              <input type="radio" name="scope" checked={scope === 'assets'} onChange={() => setScope('assets')} /> {assetName}
            </label>
          )}
          <label class="radio">
            <input type="radio" name="scope" checked={scope === 'snippet'} onChange={() => setScope('snippet')} /> A pasted snippet
          </label>
          <label class="radio">
            <input type="radio" name="scope" checked={scope === 'folder'} onChange={() => setScope('folder')} disabled={folders.length === 0} /> A granted folder
            {folders.length === 0 && <span class="muted"> (add one in Settings)</span>}
          </label>
          {scope === 'snippet' && (
            <label class="field">
              <span>Snippet</span>
              <textarea rows={5} value={snippet} onInput={(e) => setSnippet(e.currentTarget.value)} placeholder="Paste code or text to ask about" />
            </label>
          )}
          {scope === 'folder' && (
            <label class="field">
              <span>Folder</span>
              <select value={folder} onChange={(e) => setFolder(e.currentTarget.value)}>
                <option value="">Choose a folder</option>
                {folders.map((f) => (
                  <option value={f.path} key={f.name}>
                    {f.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </fieldset>
        <div class="exchanges">
          {exchanges.map((x) => (
            <ExchangeView key={x.key} exchange={x} />
          ))}
        </div>
        {hints.length > 0 && !asking && (
          <ul class="hints" aria-label="Suggested questions">
            {hints.map((h) => (
              <li key={h}>
                <button type="button" class="chip-button" onClick={() => void ask(h)}>
                  {h}
                </button>
              </li>
            ))}
          </ul>
        )}
        <form
          class="ask-form"
          onSubmit={(e) => {
            e.preventDefault();
            void ask();
          }}
        >
          <label class="field grow">
            <span>Question</span>
            <textarea
              rows={2}
              value={question}
              placeholder={exchanges.length ? 'Ask a follow-up…' : 'How do I parse command line flags?'}
              onInput={(e) => setQuestion(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  void ask();
                }
              }}
            />
          </label>
          {asking ? (
            <button type="button" class="secondary" onClick={() => conversation && stream.current?.stop(conversation)}>
              Stop
            </button>
          ) : (
            <button type="submit">Ask</button>
          )}
        </form>
      </section>
    </div>
  );
}

function ExchangeView({ exchange: x }: { exchange: Exchange }) {
  return (
    <div class="exchange">
      <p class="question">{x.question}</p>
      <div class="answer" role="region" aria-label="Answer" aria-busy={x.status === 'asking'}>
        {x.html !== undefined ? (
          <div class="markdown" dangerouslySetInnerHTML={{ __html: x.html }} />
        ) : (
          <p class="answer-text">{x.answer || (x.status === 'asking' ? 'Finding the snippets that answer this…' : '')}</p>
        )}
        {x.status === 'failed' && <p class="error">{x.error}</p>}
        {x.status === 'stopped' && <p class="muted">Stopped.</p>}
        {x.sources.length > 0 && (
          <div class="sources">
            <h4>Snippets used</h4>
            <ul>
              {x.sources.map((s) => (
                <li key={s.id}>
                  <a href={hrefOf({ view: 'asset', id: s.id })}>{s.name}</a>
                  {s.lines.length > 0 && <span class="muted"> · {s.lines.join(', ')}</span>}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}

function ConversationList(props: { session: Session; list: Conversation[]; current?: string; onOpen: (id: string) => void; onChanged: () => void; onDeleted: (id: string) => void }) {
  const [renaming, setRenaming] = useState<string | undefined>(undefined);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<Conversation | undefined>(undefined);
  const { session } = props;
  if (props.list.length === 0) return <p class="muted">No conversations yet.</p>;
  return (
    <>
      <ul class="conversation-list">
        {props.list.map((c) => (
          <li key={c.id} class={c.id === props.current ? 'current' : ''}>
            {renaming === c.id ? (
              <form
                onSubmit={async (e) => {
                  e.preventDefault();
                  await session.api.renameConversation(c, name.trim() || c.name || 'Conversation').catch((error) => session.notify({ message: `Rename failed: ${messageOf(error)}`, error: true }));
                  setRenaming(undefined);
                  props.onChanged();
                }}
              >
                <input aria-label="Conversation name" value={name} onInput={(e) => setName(e.currentTarget.value)} ref={(el) => el?.focus()} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), setRenaming(undefined))} />
              </form>
            ) : (
              <button type="button" class="conversation-open" aria-current={c.id === props.current ? 'true' : undefined} onClick={() => props.onOpen(c.id)}>
                <span>{c.name || 'Conversation'}</span>
                <time class="muted" dateTime={new Date(epochOf(c.updated.value)).toISOString()}>{timeAgo(epochOf(c.updated.value))}</time>
              </button>
            )}
            <span class="conversation-actions">
              <button type="button" class="icon" aria-label={`Rename ${c.name || 'conversation'}`} onClick={() => (setRenaming(c.id), setName(c.name ?? ''))}>
                ✎
              </button>
              <button type="button" class="icon" aria-label={`Delete ${c.name || 'conversation'}`} onClick={() => setDeleting(c)}>
                ×
              </button>
            </span>
          </li>
        ))}
      </ul>
      {deleting && (
        <ConfirmDialog
          title={`Delete “${deleting.name || 'Conversation'}”?`}
          confirm="Delete"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await session.api.deleteConversation(deleting.id).catch((error) => session.notify({ message: `Delete failed: ${messageOf(error)}`, error: true }));
            props.onDeleted(deleting.id);
            props.onChanged();
          }}
        >
          <p>The conversation and its messages are removed for good.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function scopeOf(kind: ScopeKind, assets: string[], snippet: string, folder: string): AskScope | undefined {
  if (kind === 'assets') return assets.length ? { kind, ids: assets } : undefined;
  if (kind === 'snippet') return snippet.trim() ? { kind, text: snippet } : undefined;
  if (kind === 'folder') return folder ? { kind, path: folder } : undefined;
  return { kind: 'library' };
}

function renderAnswer(session: Session, text: string): Promise<string> {
  return import('../markdown.ts').then(({ renderMarkdown }) => renderMarkdown(text, (id) => session.library.byId.value.get(id)?.name || undefined));
}

const ASSET_ID = /asset ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi;

/**
 * The assets an answer used, by name, with the lines of the snippets taken from each: the assets the
 * answer names (extractive answers name each source), else every asset of the relevant snippets.
 */
async function sourcesOf(session: Session, relevant: RelevantQGPTSeed[], answer: string): Promise<Source[]> {
  const named = new Set([...answer.matchAll(ASSET_ID)].map((m) => m[1]!.toLowerCase()));
  const byAsset = new Map<string, RelevantQGPTSeed[]>();
  for (const r of relevant) {
    const id = r.asset?.id;
    if (id && (named.size === 0 || named.has(id.toLowerCase()))) byAsset.set(id, [...(byAsset.get(id) ?? []), r]);
  }
  for (const id of named) if (![...byAsset.keys()].some((k) => k.toLowerCase() === id)) byAsset.set(id, []);
  return Promise.all(
    [...byAsset].map(async ([id, snippets]) => {
      const row = session.library.byId.value.get(id);
      let lines: string[] = [];
      const located = snippets.filter((s) => s.location);
      if (located.length) {
        const content = await session.api.getAsset(id).then(textOf, () => undefined);
        if (content !== undefined) lines = located.map((s) => lineRange(content, s.location!.start, s.location!.end));
      }
      return { id, name: row?.name || 'Untitled', lines: [...new Set(lines)] };
    }),
  );
}

function lineRange(content: string, start: number, end: number): string {
  const lineAt = (offset: number) => content.slice(0, offset).split('\n').length;
  const first = lineAt(start);
  const last = lineAt(Math.max(start, end - 1));
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}

