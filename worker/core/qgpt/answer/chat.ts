/**
 * A client for an OpenAI-compatible chat-completions endpoint (Ollama, LM Studio, llama.cpp's server, a
 * hosted one): POST `<url>/chat/completions` with `stream: true`, the answer read from the server-sent
 * events (`data: {"choices":[{"delta":{"content":"…"}}]}` lines, then `data: [DONE]`). A server that
 * ignores `stream` and answers one JSON completion is read too.
 *
 * Every way the endpoint can fail (network error, non-2xx, an error event, a malformed or truncated
 * stream, no text, nothing within the timeout) is a ChatError with a short reason; the caller's abort is
 * not (its AbortError is rethrown as it is).
 */
import type { ServiceContext } from '../../deps.ts';
import type { ChatSettings } from './chat-settings.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Each piece of the answer as it arrives. */
  onDelta?: (text: string) => void;
  /** How long to wait for the first byte, and then between two reads. Default 30 s. */
  timeoutMs?: number;
}

export const CHAT_TIMEOUT_MS = 30_000;

export class ChatError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ChatError';
  }
}

/** The endpoint requests go to: `<url>/chat/completions`. */
export function completionsUrl(settings: ChatSettings): string {
  return `${settings.url.replace(/\/+$/, '')}/chat/completions`;
}

/** Streams one completion; resolves to the whole answer text. */
export async function streamChat(ctx: ServiceContext, settings: ChatSettings, messages: ChatMessage[], options: ChatOptions = {}): Promise<string> {
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? CHAT_TIMEOUT_MS;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
  };
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.throwIfAborted();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const fail = (reason: string) => new ChatError(reason);
  const emit = (text: string) => {
    if (text !== '') options.onDelta?.(text);
  };

  try {
    arm();
    let response: Response;
    try {
      response = await ctx.fetch(completionsUrl(settings), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream, application/json',
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: settings.model, messages, stream: true }),
        signal: controller.signal,
      });
    } catch (error) {
      throw fail(timedOut ? `no answer within ${timeoutMs / 1000} s` : `it could not be reached (${describe(error)})`);
    }
    if (!response.ok) {
      // Not its body: the reason is shown and stored with the answer, and an error body may echo the key
      // ("Incorrect API key provided: sk-...") or the prompt.
      await response.body?.cancel().catch(() => undefined);
      throw fail(`it answered HTTP ${response.status}`);
    }
    if (!response.body) throw fail('it answered without a body');

    let text = '';
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    let done = false;
    let finished = false;
    try {
      while (!done) {
        arm();
        const read = await reader.read();
        if (read.done) break;
        buffered += read.value;
        if (isJson) continue;
        let newline: number;
        while (!done && (newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).replace(/\r$/, '');
          buffered = buffered.slice(newline + 1);
          const event = parseEventLine(line);
          if (event === undefined) continue;
          if (event === 'done') {
            done = true;
            break;
          }
          if ('failure' in event) throw fail(event.failure);
          text += event.content;
          emit(event.content);
          if (event.finished) finished = true;
        }
      }
    } catch (error) {
      if (error instanceof ChatError) throw error;
      if (options.signal?.aborted) throw options.signal.reason;
      throw fail(timedOut ? `it stopped sending for ${timeoutMs / 1000} s` : `the stream broke off (${describe(error)})`);
    } finally {
      reader.cancel().catch(() => {});
    }
    if (isJson) {
      text = completionText(buffered) ?? '';
      if (text === '') throw fail('it answered JSON without a completion');
      emit(text);
      return text;
    }
    if (!done && !finished) throw fail('the stream ended before its end marker (data: [DONE])');
    if (text.trim() === '') throw fail('it answered no text');
    return text;
  } catch (error) {
    // The caller's stop is not the endpoint's failure: no fallback for it.
    if (options.signal?.aborted) throw options.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

type ChatEvent = 'done' | { content: string; finished: boolean } | { failure: string };

/**
 * One line of the event stream: undefined for comments, blank lines and other fields. A failure names
 * what went wrong without quoting the endpoint (see the HTTP error above).
 */
function parseEventLine(line: string): ChatEvent | undefined {
  if (!line.startsWith('data:')) return undefined;
  const data = line.slice(5).trim();
  if (data === '') return undefined;
  if (data === '[DONE]') return 'done';
  let json: any;
  try {
    json = JSON.parse(data);
  } catch {
    return { failure: 'it sent a malformed event' };
  }
  if (json?.error) return { failure: 'it sent an error event' };
  const choice = json?.choices?.[0];
  if (!choice || typeof choice !== 'object') return { failure: 'it sent an event without choices' };
  const content = choice.delta?.content ?? choice.message?.content ?? choice.text ?? '';
  return { content: typeof content === 'string' ? content : '', finished: choice.finish_reason != null };
}

function completionText(body: string): string | undefined {
  try {
    const content = JSON.parse(body)?.choices?.[0]?.message?.content;
    return typeof content === 'string' ? content : undefined;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${detail}`;
  }
  return String(error);
}
