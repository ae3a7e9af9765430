import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChatSettings, PublicChatSettings } from '../../client/api.ts';
import { messageOf } from '../library-state.ts';

/** Plain http is allowed for this machine only: a key sent elsewhere in clear could be read on the way. */
export function keyTransportProblem(url: string, apiKey: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The endpoint must be a full URL, such as http://localhost:11434/v1.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'The endpoint must be an http:// or https:// URL.';
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname) || /^127\./.test(parsed.hostname);
  if (apiKey && parsed.protocol === 'http:' && !local) return 'An API key is only sent over https:// (or plain http:// to this machine), so it cannot be read on the way.';
  return undefined;
}

export interface EndpointCalls {
  get(): Promise<PublicChatSettings>;
  set(settings: ChatSettings): Promise<PublicChatSettings>;
  clear(): Promise<PublicChatSettings>;
  test(): Promise<{ ok: boolean; message: string }>;
}

/**
 * The settings card of an OpenAI-compatible endpoint (the answer endpoint, the embeddings endpoint): URL,
 * model and an optional key, saved, tested and removed through `calls`.
 */
export function EndpointCard(props: {
  id: string;
  title: string;
  intro: string;
  modelPlaceholder: string;
  saveLabel: string;
  /** Said after a save and after a removal. */
  saved: string;
  removed: string;
  calls: EndpointCalls;
  /** After a save or a removal. */
  onChange?: () => void;
}) {
  const { calls } = props;
  const [current, setCurrent] = useState<PublicChatSettings | undefined>(undefined);
  const [url, setUrl] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [message, setMessage] = useState<{ text: string; error?: boolean } | undefined>(undefined);
  // The saved settings fill the fields only if the user has not started typing (a slow answer must not
  // wipe what was typed meanwhile).
  const typed = useRef(false);
  useEffect(() => {
    calls.get().then((s) => {
      setCurrent(s);
      if (typed.current) return;
      setUrl(s.configured ? s.url : '');
      setModel(s.configured ? s.model : '');
    }, () => {});
  }, []);
  const save = async (e: Event) => {
    e.preventDefault();
    const problem = keyTransportProblem(url, apiKey);
    if (problem) return setMessage({ text: problem, error: true });
    try {
      const saved = await calls.set({ url, model, ...(apiKey && { apiKey }), enabled: true });
      setCurrent(saved);
      setApiKey('');
      setMessage({ text: props.saved });
      props.onChange?.();
    } catch (error) {
      setMessage({ text: messageOf(error), error: true });
    }
  };
  const test = async () => {
    setMessage({ text: 'Testing…' });
    try {
      const result = await calls.test();
      setMessage({ text: result.message, error: !result.ok });
    } catch (error) {
      setMessage({ text: messageOf(error), error: true });
    }
  };
  const clear = async () => {
    const cleared = await calls.clear().catch(() => undefined);
    if (cleared) {
      setCurrent(cleared);
      setUrl('');
      setModel('');
      setMessage({ text: props.removed });
      props.onChange?.();
    }
  };
  const titleId = `${props.id}-title`;
  return (
    <section aria-labelledby={titleId} class="settings-card">
      <h3 id={titleId}>{props.title}</h3>
      <p class="muted">{props.intro}</p>
      <form class="endpoint-form" onSubmit={(e) => void save(e)}>
        <label class="field">
          <span>Endpoint URL</span>
          <input type="url" required value={url} placeholder="http://localhost:11434/v1" onInput={(e) => ((typed.current = true), setUrl(e.currentTarget.value))} />
        </label>
        <label class="field">
          <span>Model</span>
          <input type="text" required value={model} placeholder={props.modelPlaceholder} onInput={(e) => ((typed.current = true), setModel(e.currentTarget.value))} />
        </label>
        <label class="field">
          <span>API key (optional)</span>
          <input type="password" autocomplete="off" value={apiKey} placeholder={current?.configured && current.hasApiKey ? 'A key is saved; type to replace it' : 'sk-…'} onInput={(e) => setApiKey(e.currentTarget.value)} />
        </label>
        <p class="muted small">
          The key is kept in this site's IndexedDB in this browser profile, sent only to this endpoint, and never answered back by the API. Any script running on
          this site could read it: use a key you can revoke.
        </p>
        <div class="row-actions">
          <button type="submit">{props.saveLabel}</button>
          {current?.configured && (
            <>
              <button type="button" class="secondary" onClick={() => void test()}>
                Test connection
              </button>
              <button type="button" class="secondary" onClick={() => void clear()}>
                Remove
              </button>
            </>
          )}
        </div>
      </form>
      {message && (
        <p role="status" class={message.error ? 'error' : ''}>
          {message.text}
        </p>
      )}
    </section>
  );
}
