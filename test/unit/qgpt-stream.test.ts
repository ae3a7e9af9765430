/**
 * `/qgpt/stream` in Node: the NDJSON the worker answers each input frame with (what the page's socket
 * turns into frames), read as it arrives and parsed by the official SDK's `QGPTStreamOutputFromJSON`;
 * the conversations the exchanges store, read back through `GET /asset/{id}/conversations`.
 */
import { ConversationsFromJSON, QGPTStreamOutputFromJSON } from '@pieces.app/pieces-os-client';
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { QGPTStreamOutputSchema, type QGPTStreamOutput } from '../../worker/core/model/schemas.ts';
import { conversationName, saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { deltasOf } from '../../worker/core/streams/deltas.ts';
import { BOTH_INPUTS_ERROR, NOTHING_TO_ANSWER } from '../../worker/core/streams/qgpt.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

/** Frames of one input, read line by line as the worker sends them. */
class FrameReader {
  readonly frames: QGPTStreamOutput[] = [];
  readonly #reader: ReadableStreamDefaultReader<string>;
  #pending = '';

  constructor(body: NonNullable<Response['body']>) {
    this.#reader = body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next frame, checked against the contract and parsed by the SDK; undefined at the end. */
  async next(): Promise<QGPTStreamOutput | undefined> {
    for (;;) {
      const newline = this.#pending.indexOf('\n');
      if (newline >= 0) {
        const line = this.#pending.slice(0, newline);
        this.#pending = this.#pending.slice(newline + 1);
        const json = JSON.parse(line);
        expect(QGPTStreamOutputSchema.safeParse(json).success, line).toBe(true);
        expect(QGPTStreamOutputFromJSON(json).conversation).toBe(json.conversation);
        this.frames.push(json);
        return json;
      }
      const { done, value } = await this.#reader.read();
      if (done) {
        expect(this.#pending).toBe('');
        return undefined;
      }
      this.#pending += value;
    }
  }

  /** Every remaining frame. */
  async rest(): Promise<QGPTStreamOutput[]> {
    while (await this.next());
    return this.frames;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

async function open(api: TestApi, input: unknown): Promise<FrameReader> {
  const response = await api.app.request('/api/qgpt/stream', {
    method: 'POST',
    body: typeof input === 'string' ? input : JSON.stringify(input),
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/x-ndjson');
  return new FrameReader(response.body!);
}

const send = async (api: TestApi, input: unknown) => (await open(api, input)).rest();

describe('/qgpt/stream inputs answered without an answer', () => {
  it('answers a frame that is not an input, both relevance and question, nothing to answer, a stop without conversation with one FAILED frame', async () => {
    const api = await createTestApi();
    expect(await send(api, '{nope')).toEqual([
      { conversation: '', request: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'FAILED', statusCode: 400, errorMessage: expect.stringMatching(/not valid JSON/) },
    ]);
    expect(await send(api, { request: 'r', conversation: 'c', stop: 'yes' })).toEqual([
      { conversation: 'c', request: 'r', status: 'FAILED', statusCode: 422, errorMessage: expect.stringMatching(/^the input frame is not a QGPTStreamInput: stop: /) },
    ]);
    const both = { relevance: { query: 'q', assets: { iterable: [] } }, question: { query: 'q', relevant: { iterable: [] } }, request: 'r2' };
    expect(await send(api, both)).toEqual([{ conversation: '', request: 'r2', status: 'FAILED', statusCode: 422, errorMessage: BOTH_INPUTS_ERROR }]);
    expect(await send(api, { request: 'r3', conversation: 'c3' })).toEqual([
      { conversation: 'c3', request: 'r3', status: 'FAILED', statusCode: 422, errorMessage: NOTHING_TO_ANSWER },
    ]);
    expect(await send(api, { request: 'r4', stop: true })).toEqual([
      { conversation: '', request: 'r4', status: 'FAILED', statusCode: 422, errorMessage: 'A stop needs the conversation to stop.' },
    ]);
    // none of them stored anything
    expect(await api.store.read((tx) => tx.getAll('conversations'))).toEqual([]);
    expect(await api.store.read((tx) => tx.getAll('messages'))).toEqual([]);
  });

  it('answers a stop of a conversation that runs nothing with one STOPPED frame, a reset with one RESET frame', async () => {
    const api = await createTestApi();
    expect(await send(api, { conversation: 'idle', stop: true, request: 's' })).toEqual([{ conversation: 'idle', request: 's', status: 'STOPPED' }]);
    expect(await send(api, { reset: true, request: 'x' })).toEqual([{ conversation: '', request: 'x', status: 'RESET' }]);
  });
});

describe('deltasOf', () => {
  it('yields the chunks as they come, joins those that piled up, returns the result', async () => {
    let emit!: (chunk: string) => void;
    let finish!: (value: number) => void;
    const deltas = deltasOf<number>((e) => {
      emit = e;
      return new Promise((resolve) => (finish = resolve));
    });
    const first = deltas.next();
    emit('a');
    expect(await first).toEqual({ done: false, value: 'a' });
    emit('b');
    emit('');
    emit('c');
    expect(await deltas.next()).toEqual({ done: false, value: 'bc' });
    const last = deltas.next();
    finish(7);
    expect(await last).toEqual({ done: true, value: 7 });
  });

  it('yields what came before an error, then throws it', async () => {
    const deltas = deltasOf(async (emit) => {
      emit('partial');
      throw new Error('endpoint down');
    });
    expect(await deltas.next()).toEqual({ done: false, value: 'partial' });
    await expect(deltas.next()).rejects.toThrow('endpoint down');
  });
});

describe('stored conversations', () => {
  it('are listed with their messages for each asset they drew on, as Conversations the SDK parses; a deleted asset drops out of them', async () => {
    let clock = Date.parse('2025-03-01T10:00:00.000Z');
    const now = () => new Date((clock += 1000));
    const api = await createTestApi({ now });
    const py = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET))).json();
    const go = (await api.post('/assets/create', fragmentSeed(GO_SNIPPET))).json();
    const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never, now });
    const events = api.events.length;
    await saveExchange(ctx, { conversation: 'conv-1', query: 'how are arguments parsed?', answer: 'With argparse.', assets: [py.id, 'gone'] });
    // the asset newly linked changed: one change event for it
    expect(api.events.slice(events).map((e) => [e.asset, e.kind])).toEqual([[py.id, 'updated']]);
    await saveExchange(ctx, { conversation: 'conv-1', query: 'and in Go?', answer: 'fmt prints.', assets: [go.id, py.id] });
    expect(api.events.slice(events).map((e) => e.asset)).toEqual([py.id, go.id]);

    const conversations = (await api.get(`/asset/${py.id}/conversations`)).json();
    expect(conversations.indices).toEqual({ 'conv-1': 0 });
    const conversation = ConversationsFromJSON(conversations).iterable[0]!;
    expect(conversation).toMatchObject({ id: 'conv-1', name: 'how are arguments parsed?', type: 'COPILOT' });
    expect(conversation.assets!.iterable!.map((a: { id: string }) => a.id)).toEqual([py.id, go.id]);
    const messages = conversation.messages.iterable.map((m) => [m.reference!.role, m.reference!.fragment!.string!.raw, m.reference!.assets!.iterable!.map((a: { id: string }) => a.id)]);
    expect(messages).toEqual([
      ['USER', 'how are arguments parsed?', []],
      ['ASSISTANT', 'With argparse.', [py.id]],
      ['USER', 'and in Go?', []],
      ['ASSISTANT', 'fmt prints.', [go.id, py.id]],
    ]);
    // created with its first exchange, updated with its last
    const stamps = conversation.messages.iterable.map((m) => m.reference!.created.value.getTime());
    expect(conversation.created.value.getTime()).toBe(stamps[0]);
    expect(conversation.updated.value.getTime()).toBe(stamps[3]);
    expect(stamps[3]).toBeGreaterThan(stamps[0]!);
    expect((await api.get(`/asset/${go.id}/conversations`)).json().iterable.map((c: { id: string }) => c.id)).toEqual(['conv-1']);

    await api.post(`/assets/${py.id}/delete`);
    const after = (await api.get(`/asset/${go.id}/conversations`)).json().iterable[0];
    expect(after.assets.iterable).toEqual([{ id: go.id }]);
    expect(after.messages.iterable.map((m: any) => m.reference.assets.iterable.map((a: { id: string }) => a.id))).toEqual([[], [], [], [go.id]]);
    expect(after.messages.iterable).toHaveLength(4);
  });

  it('are named after the first line of their first query, cut at a word', () => {
    expect(conversationName('  what does parse_args do?\nmore  ')).toBe('what does parse_args do?');
    const long = 'word '.repeat(40);
    const name = conversationName(long);
    expect(name.endsWith('…')).toBe(true);
    expect(name.length).toBeLessThanOrEqual(81);
    expect(name).not.toContain('wor…');
  });
});
