import { APP_APPLICATION, type QGPTRelevanceOutput, type QGPTStreamOutput, type RelevantQGPTSeeds } from '../client/api.ts';
import { clientDefaults } from '../client/defaults.ts';
import { TesseraSocket } from '../client/socket.ts';

/**
 * One `/qgpt/stream` socket for the Ask view, through Tessera's WebSocket client: `ask()` sends a
 * relevance input with `options.question` (relevance, then the answer, in one request) and reports the
 * request's deltas and its end; `stop()` stops a conversation's running request.
 */
export interface AskHandlers {
  delta(text: string): void;
  /** The terminal frame: COMPLETED (with the relevant snippets), STOPPED, RESET, CANCELED or FAILED. */
  end(status: string, frame: QGPTStreamOutput): void;
  /** The conversation id (known from the first frame; a new conversation gets one here). */
  conversation(id: string): void;
}

export type AskScope =
  | { kind: 'library' }
  | { kind: 'assets'; ids: string[] }
  | { kind: 'snippet'; text: string }
  | { kind: 'folder'; path: string };

/** The relevance input of a question in `scope`; with `question`, the answer follows in the same request. */
function relevanceInput(query: string, scope: AskScope, question: boolean): Record<string, unknown> {
  const relevance: Record<string, unknown> = { query, options: { question, ...(scope.kind === 'library' && { database: true }) } };
  if (scope.kind === 'assets') relevance.assets = { iterable: scope.ids.map((id) => ({ id })) };
  if (scope.kind === 'snippet') relevance.seeds = { iterable: [{ type: 'SEEDED_ASSET', asset: { application: APP_APPLICATION, format: { fragment: { string: { raw: scope.text } } } } }] };
  if (scope.kind === 'folder') relevance.paths = [scope.path];
  return relevance;
}

/** `POST /qgpt/relevance`: the snippets that answer `query` in `scope` (no answer, nothing stored). */
export async function findRelevant(query: string, scope: AskScope, base = clientDefaults.base): Promise<RelevantQGPTSeeds> {
  const response = await fetch(`${base}/qgpt/relevance`, {
    method: 'POST',
    body: JSON.stringify(relevanceInput(query, scope, false)),
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`Relevance answered ${response.status}.`);
  return ((await response.json()) as QGPTRelevanceOutput).relevant;
}

export class AskStream {
  private readonly socket: TesseraSocket;
  private readonly opened: Promise<void>;
  private readonly requests = new Map<string, AskHandlers>();

  constructor(base = clientDefaults.base) {
    this.socket = new TesseraSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base}/qgpt/stream`, undefined, { base });
    this.opened = new Promise((resolve, reject) => {
      this.socket.addEventListener('open', () => resolve(), { once: true });
      this.socket.addEventListener('close', () => reject(new Error('The answer stream closed.')), { once: true });
    });
    this.opened.catch(() => {});
    this.socket.onmessage = (event) => this.receive(JSON.parse(String(event.data)) as QGPTStreamOutput);
  }

  /** Asks `query` within `scope`; in `conversation` when given (a follow-up), else in a new one. */
  async ask(query: string, scope: AskScope, conversation: string | undefined, handlers: AskHandlers): Promise<string> {
    return this.send({ relevance: relevanceInput(query, scope, true) }, conversation, handlers);
  }

  /**
   * Asks `query` over snippets already found (a question input): a follow-up whose search ran on its
   * standalone rewrite, so the conversation keeps the question as the person asked it.
   */
  answer(query: string, relevant: RelevantQGPTSeeds, conversation: string | undefined, handlers: AskHandlers): Promise<string> {
    return this.send({ question: { query, relevant } }, conversation, handlers);
  }

  private async send(input: object, conversation: string | undefined, handlers: AskHandlers): Promise<string> {
    await this.opened;
    const request = crypto.randomUUID();
    this.requests.set(request, handlers);
    this.socket.send(JSON.stringify({ request, ...input, ...(conversation && { conversation }) }));
    return request;
  }

  stop(conversation: string): void {
    if (this.socket.readyState === TesseraSocket.OPEN) this.socket.send(JSON.stringify({ conversation, stop: true }));
  }

  close(): void {
    this.socket.close();
  }

  private receive(frame: QGPTStreamOutput): void {
    const handlers = frame.request ? this.requests.get(frame.request) : undefined;
    if (!handlers) return;
    handlers.conversation(frame.conversation);
    if (frame.status === 'IN-PROGRESS') {
      const text = frame.question?.answers.iterable[0]?.text;
      if (text) handlers.delta(text);
    } else if (frame.status && frame.status !== 'INITIALIZED' && frame.status !== 'UNKNOWN') {
      this.requests.delete(frame.request!);
      handlers.end(frame.status, frame);
    }
  }
}
