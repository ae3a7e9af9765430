import { useEffect, useRef, useState } from 'preact/hooks';
import { clientDefaults } from '../../client/defaults.ts';
import { TesseraSocket } from '../../client/socket.ts';
import { hrefOf } from '../router.ts';
import { useSession } from '../session.ts';

interface Source {
  id: string;
  name: string;
}

interface Exchange {
  request: string;
  question: string;
  answer: string;
  status: 'asking' | 'done' | 'stopped' | 'failed';
  error?: string;
  sources: Source[];
}

interface StreamFrame {
  conversation: string;
  request?: string;
  status?: string;
  errorMessage?: string;
  question?: { answers: { iterable: { text: string }[] } };
  relevance?: { relevant: { iterable: { asset?: { id: string; name?: string } }[] } };
}

/**
 * Ask: a question about the library (or one asset), answered over `/qgpt/stream` through Tessera's
 * WebSocket client; the answer streams in as text, then the assets it used are listed by name. Follow-ups
 * stay in the same conversation.
 */
export function AskView({ asset }: { asset?: string }) {
  const session = useSession();
  const [question, setQuestion] = useState('');
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const conversation = useRef<string | undefined>(undefined);
  const socket = useRef<TesseraSocket | undefined>(undefined);
  const scopeName = asset ? session.library.byId.value.get(asset)?.name || 'this asset' : undefined;

  useEffect(() => {
    const base = clientDefaults.base;
    const s = new TesseraSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base}/qgpt/stream`, undefined, { base });
    socket.current = s;
    s.onmessage = (event) => {
      const frame = JSON.parse(String(event.data)) as StreamFrame;
      conversation.current = frame.conversation;
      setExchanges((list) =>
        list.map((x) => {
          if (x.request !== frame.request) return x;
          const delta = frame.status === 'IN-PROGRESS' ? (frame.question?.answers.iterable[0]?.text ?? '') : '';
          const next: Exchange = { ...x, answer: x.answer + delta };
          if (frame.status === 'COMPLETED') {
            next.status = 'done';
            const seen = new Map<string, Source>();
            for (const seed of frame.relevance?.relevant.iterable ?? []) {
              const id = seed.asset?.id;
              if (id && !seen.has(id)) seen.set(id, { id, name: session.library.byId.value.get(id)?.name || seed.asset?.name || 'Untitled' });
            }
            next.sources = [...seen.values()];
          } else if (frame.status === 'STOPPED' || frame.status === 'RESET' || frame.status === 'CANCELED') next.status = 'stopped';
          else if (frame.status === 'FAILED') Object.assign(next, { status: 'failed', error: frame.errorMessage ?? 'The answer failed.' });
          return next;
        }),
      );
    };
    return () => s.close();
  }, []);

  const asking = exchanges.some((x) => x.status === 'asking');
  const ask = () => {
    const query = question.trim();
    if (!query || asking || socket.current?.readyState !== TesseraSocket.OPEN) return;
    const request = crypto.randomUUID();
    const relevance = asset
      ? { query, assets: { iterable: [{ id: asset }] }, options: { question: true } }
      : { query, options: { question: true, database: true } };
    socket.current.send(JSON.stringify({ ...(conversation.current && { conversation: conversation.current }), request, relevance }));
    setExchanges((list) => [...list, { request, question: query, answer: '', status: 'asking', sources: [] }]);
    setQuestion('');
  };
  const stop = () => {
    if (conversation.current) socket.current?.send(JSON.stringify({ conversation: conversation.current, stop: true }));
  };

  return (
    <section class="ask" aria-labelledby="ask-title">
      <h2 id="ask-title" tabIndex={-1}>
        Ask {scopeName ? `about “${scopeName}”` : 'your library'}
      </h2>
      <p class="muted">Answers quote the snippets they come from (extractive) unless an answer endpoint is set in Settings.</p>
      <div class="exchanges">
        {exchanges.map((x) => (
          <div class="exchange" key={x.request}>
            <p class="question">{x.question}</p>
            <div class="answer" role="region" aria-label="Answer" aria-busy={x.status === 'asking'}>
              <p class="answer-text">{x.answer || (x.status === 'asking' ? 'Thinking…' : '')}</p>
              {x.status === 'failed' && <p class="error">{x.error}</p>}
              {x.status === 'stopped' && <p class="muted">Stopped.</p>}
              {x.sources.length > 0 && (
                <ul class="sources" aria-label="Sources">
                  {x.sources.map((s) => (
                    <li key={s.id}>
                      <a href={hrefOf({ view: 'asset', id: s.id })}>{s.name}</a>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        ))}
      </div>
      <form
        class="ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          ask();
        }}
      >
        <label class="field grow">
          <span>Question</span>
          <textarea
            rows={2}
            value={question}
            placeholder="How do I parse command line flags?"
            onInput={(e) => setQuestion(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                ask();
              }
            }}
          />
        </label>
        {asking ? (
          <button type="button" class="secondary" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="submit">Ask</button>
        )}
      </form>
    </section>
  );
}
