/**
 * `/qgpt/stream` in Node: the NDJSON the worker answers each input frame with (what the page's socket
 * turns into frames), read as it arrives and parsed by the official SDK's `QGPTStreamOutputFromJSON`;
 * the conversations the exchanges store, read back through `GET /asset/{id}/conversations`.
 */
import { ConversationsFromJSON } from '@pieces.app/pieces-os-client';
import { afterEach, describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { conversationName, saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { deltasOf } from '../../worker/core/streams/deltas.ts';
import { SOCKET_HEADER } from '../../worker/core/streams/protocol.ts';
import { BOTH_INPUTS_ERROR, NOTHING_TO_ANSWER } from '../../worker/core/streams/qgpt.ts';
import { chatServersPerTest, configureChatEndpoint, startChatServer } from '../support/chat-server.ts';
import { FrameReader, type QGPTStreamOutput } from '../support/qgpt-frames.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

/**
 * POSTs one input frame; `socket` names the socket it comes on (the `tessera-socket` header). Read as it
 * streams: FrameReader checks each frame against the contract.
 */
async function open(api: TestApi, input: unknown, socket?: string): Promise<FrameReader> {
  const response = await api.request('/qgpt/stream', {
    method: 'POST',
    body: typeof input === 'string' ? input : JSON.stringify(input),
    headers: { 'content-type': 'application/json', ...(socket ? { [SOCKET_HEADER]: socket } : {}) },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/x-ndjson');
  return new FrameReader(response.body!);
}

const send = async (api: TestApi, input: unknown, socket?: string) => (await open(api, input, socket)).rest();

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

describe('/qgpt/stream request bodies', () => {
  it('over the body limit are refused with the 413 every route gives, before anything runs', async () => {
    const api = await createTestApi({ maxBodyBytes: 1024 });
    const input = { request: 'big', question: { query: 'x'.repeat(2048), relevant: { iterable: [] } } };
    const reply = await api.post('/qgpt/stream', input);
    expect(reply.status).toBe(413);
    expect(reply.json().error).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(await api.store.read((tx) => tx.getAll('conversations'))).toEqual([]);
    // Under the limit, the same route answers its frames.
    expect((await send(api, { reset: true, request: 'small' }))[0]).toMatchObject({ status: 'RESET' });
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
    // The Asset itself lists its conversations (messages by id), in a single read and in the listing.
    const asset = (await api.get(`/asset/${go.id}`)).json();
    expect(asset.conversations.iterable.map((c: { id: string; messages: { iterable: { id: string }[] } }) => [c.id, c.messages.iterable.length])).toEqual([['conv-1', 4]]);
    const listed = (await api.get('/assets?transferables=false')).json().iterable.find((a: { id: string }) => a.id === py.id);
    expect(listed.conversations.indices).toEqual({ 'conv-1': 0 });

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

const startChat = chatServersPerTest(afterEach);

/** A real local chat-completions server, configured as the answerer's endpoint. */
async function configureChat(api: TestApi, options: Parameters<typeof startChatServer>[0]) {
  const server = await startChat(options);
  await configureChatEndpoint(api, server);
  return server;
}

async function library() {
  const api = await createTestApi();
  const py = (await api.post('/assets/create', fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }))).json().id as string;
  const go = (await api.post('/assets/create', fragmentSeed(GO_SNIPPET, { name: 'hello' }))).json().id as string;
  return { api, py, go };
}

const statuses = (frames: QGPTStreamOutput[]) => frames.map((f) => f.status);
const deltaText = (frames: QGPTStreamOutput[]) =>
  frames.filter((f) => f.status === 'IN-PROGRESS').map((f) => f.question!.answers.iterable[0]!.text).join('');

/** The stored conversation as `/asset/{id}/conversations` answers it: [role, text] per message. */
async function storedMessages(api: TestApi, asset: string, conversation: string) {
  const list = ConversationsFromJSON((await api.get(`/asset/${asset}/conversations`)).json()).iterable;
  const found = list.find((c) => c.id === conversation);
  return found && found.messages.iterable.map((m) => [m.reference!.role, m.reference!.fragment!.string!.raw]);
}

/** Reads frames until one with this status arrives (or the end). */
async function readUntil(reader: FrameReader, status: string, count = 1) {
  let seen = 0;
  for (let frame = await reader.next(); frame; frame = await reader.next()) {
    if (frame.status === status && ++seen === count) return frame;
  }
  throw new Error(`no ${status} frame`);
}

describe('/qgpt/stream exchanges', () => {
  it('relevance with options.question: INITIALIZED, the answer as deltas, COMPLETED with the relevance output; stored as a new conversation of the assets used', async () => {
    const { api, py } = await library();
    const query = 'how are command line arguments parsed?';
    const frames = await send(api, { relevance: { query, options: { database: true, question: true } }, request: 'q1' });
    expect(statuses(frames)[0]).toBe('INITIALIZED');
    expect(statuses(frames).at(-1)).toBe('COMPLETED');
    expect(statuses(frames).slice(1, -1).every((s) => s === 'IN-PROGRESS')).toBe(true);
    expect(frames.length).toBeGreaterThanOrEqual(3);
    const conversation = frames[0]!.conversation;
    expect(conversation).toMatch(/^[0-9a-f-]{36}$/);
    for (const f of frames) expect([f.conversation, f.request]).toEqual([conversation, 'q1']);
    for (const f of frames.slice(1, -1)) expect(typeof f.question!.answers.iterable[0]!.score).toBe('number');
    const completed = frames.at(-1)!;
    expect(completed.question).toBeUndefined();
    expect(completed.relevance!.relevant.iterable[0]!.asset!.id).toBe(py);
    const answer = completed.relevance!.answer!.answers.iterable[0]!.text;
    expect(deltaText(frames)).toBe(answer);
    expect(answer).toContain('parse_args');

    expect(await storedMessages(api, py, conversation)).toEqual([
      ['USER', query],
      ['ASSISTANT', answer],
    ]);
    const stored = ConversationsFromJSON((await api.get(`/asset/${py}/conversations`)).json()).iterable[0]!;
    expect(stored.name).toBe(query);
  });

  it('a question in a conversation the client named: created with that id; the next turn is appended and answered with the earlier turns as history', async () => {
    const { api, py } = await library();
    const reply = 'Arguments are parsed with argparse [1]. Pass --verbose for more output.';
    const chat = await configureChat(api, { reply, chunkSize: 7, delayMs: 2 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const first = await send(api, { question: { query: 'how are arguments parsed?', relevant }, conversation: 'my-chat', request: 'a' });
    expect(statuses(first)).toEqual(['INITIALIZED', ...Array(statuses(first).length - 2).fill('IN-PROGRESS'), 'COMPLETED']);
    // the model's text arrives in pieces, each a delta
    expect(first.filter((f) => f.status === 'IN-PROGRESS').length).toBeGreaterThanOrEqual(5);
    const answer1 = deltaText(first);
    expect(answer1.startsWith(reply)).toBe(true);
    expect(first.every((f) => f.conversation === 'my-chat' && f.request === 'a')).toBe(true);

    const second = await send(api, { question: { query: 'and how do I make it verbose?', relevant }, conversation: 'my-chat' });
    expect(statuses(second).at(-1)).toBe('COMPLETED');
    expect(second[0]!.request).toMatch(/^[0-9a-f-]{36}$/);
    const history = chat.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(history.some((m) => m.role === 'user' && m.content === 'how are arguments parsed?')).toBe(true);
    expect(history.some((m) => m.role === 'assistant' && m.content.startsWith(reply))).toBe(true);
    expect(await storedMessages(api, py, 'my-chat')).toEqual([
      ['USER', 'how are arguments parsed?'],
      ['ASSISTANT', answer1],
      ['USER', 'and how do I make it verbose?'],
      ['ASSISTANT', deltaText(second)],
    ]);
  });

  it('relevance alone: INITIALIZED, then COMPLETED with the relevant snippets; the conversation keeps the query', async () => {
    const { api, go } = await library();
    const frames = await send(api, { relevance: { query: 'print hello world', assets: { iterable: [{ id: go }] } }, conversation: 'search-1' });
    expect(statuses(frames)).toEqual(['INITIALIZED', 'COMPLETED']);
    expect(frames[1]!.relevance!.relevant.iterable[0]!.asset!.id).toBe(go);
    expect(frames[1]!.relevance!.answer).toBeUndefined();
    expect(await storedMessages(api, go, 'search-1')).toEqual([['USER', 'print hello world']]);
  });

  it('an error of relevance or question: FAILED with its message and status after INITIALIZED; nothing stored', async () => {
    const { api } = await library();
    const unusable = await send(api, { question: { query: 'q', relevant: { iterable: [{ path: '/nowhere' }] } }, request: 'u' });
    expect(statuses(unusable)).toEqual(['INITIALIZED', 'FAILED']);
    expect(unusable[1]).toMatchObject({ statusCode: 422, errorMessage: expect.stringContaining('relevant.iterable[0]') });
    const noSpace = await send(api, { relevance: { query: 'q', options: { question: true } } });
    expect(noSpace[1]).toMatchObject({ status: 'FAILED', statusCode: 422 });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await send(api, { relevance: { query: 'q', assets: { iterable: [{ id: unknown }] }, options: { question: true } } });
    expect(missing[1]).toMatchObject({ status: 'FAILED', statusCode: 404, errorMessage: `No asset with id '${unknown}'.` });
    expect(await api.store.read((tx) => tx.getAll('conversations'))).toEqual([]);
  });

  it('several conversations at once on one stream; a stop ends only its own (the text so far is stored), a second request in a running conversation is refused', async () => {
    const { api, py } = await library();
    await configureChat(api, { reply: 'word '.repeat(80), chunkSize: 5, delayMs: 15 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const a = await open(api, { question: { query: 'first', relevant }, conversation: 'A', request: 'ra' });
    const b = await open(api, { question: { query: 'second', relevant }, conversation: 'B', request: 'rb' });
    await readUntil(a, 'IN-PROGRESS', 3);
    await readUntil(b, 'IN-PROGRESS', 1);
    expect(await send(api, { question: { query: 'third', relevant }, conversation: 'A', request: 'rc' })).toEqual([
      { conversation: 'A', request: 'rc', status: 'FAILED', statusCode: 409, errorMessage: expect.stringContaining("'A' is answering another request") },
    ]);

    expect(await send(api, { conversation: 'A', stop: true, request: 'stop-a' })).toEqual([{ conversation: 'A', request: 'stop-a', status: 'STOPPED' }]);
    const aFrames = await a.rest();
    expect(statuses(aFrames).at(-1)).toBe('STOPPED');
    expect(aFrames.at(-1)).toEqual({ conversation: 'A', request: 'ra', status: 'STOPPED' });
    const partial = deltaText(aFrames);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(400);
    expect(await storedMessages(api, py, 'A')).toEqual([
      ['USER', 'first'],
      ['ASSISTANT', partial],
    ]);

    const bFrames = await b.rest();
    expect(statuses(bFrames).at(-1)).toBe('COMPLETED');
    expect(deltaText(bFrames).startsWith('word '.repeat(80))).toBe(true);
    expect(bFrames.every((f) => f.conversation === 'B' && f.request === 'rb')).toBe(true);
    // A runs nothing now: it takes a new request
    expect(statuses(await send(api, { question: { query: 'again', relevant }, conversation: 'A' })).at(-1)).toBe('COMPLETED');
  });

  it('a stop is answered while the stopped request\'s client reads nothing: the exchange does not wait for its reader', async () => {
    const { api, py } = await library();
    // An answer of 3 s or more (200 chunks, 15 ms apart): on a loaded machine the wait below may end
    // late, and the stop must still find the answer running.
    const server = await configureChat(api, { reply: 'word '.repeat(1000), chunkSize: 5, delayMs: 15 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const a = await open(api, { question: { query: 'first', relevant }, conversation: 'A', request: 'ra' });
    expect((await a.next())?.status).toBe('INITIALIZED');
    // Deltas pile up unread: wait until the endpoint has streamed some (a fixed wait was too short on a loaded machine).
    while (server.chunksSent < 8) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await send(api, { conversation: 'A', stop: true, request: 'stop-a' })).toEqual([{ conversation: 'A', request: 'stop-a', status: 'STOPPED' }]);
    const frames = await a.rest();
    expect(frames.at(-1)).toEqual({ conversation: 'A', request: 'ra', status: 'STOPPED' });
    expect(await storedMessages(api, py, 'A')).toEqual([
      ['USER', 'first'],
      ['ASSISTANT', deltaText(frames)],
    ]);
  });

  it('a reset ends every running request with RESET, keeping what each produced; a client that goes away ends its request, which is still stored', async () => {
    const { api, py } = await library();
    await configureChat(api, { reply: 'token '.repeat(80), chunkSize: 6, delayMs: 15 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const a = await open(api, { question: { query: 'one', relevant }, conversation: 'R1' });
    const b = await open(api, { question: { query: 'two', relevant }, conversation: 'R2' });
    await readUntil(a, 'IN-PROGRESS', 2);
    await readUntil(b, 'IN-PROGRESS', 2);
    expect(statuses(await send(api, { reset: true }))).toEqual(['RESET']);
    for (const [reader, id] of [[a, 'R1'], [b, 'R2']] as const) {
      const frames = await reader.rest();
      expect(statuses(frames).at(-1)).toBe('RESET');
      expect((await storedMessages(api, py, id))![1]).toEqual(['ASSISTANT', deltaText(frames)]);
    }

    const gone = await open(api, { question: { query: 'bye', relevant }, conversation: 'G' });
    await readUntil(gone, 'IN-PROGRESS', 2);
    const seen = deltaText(gone.frames);
    await gone.cancel();
    await expect.poll(async () => String((await storedMessages(api, py, 'G'))?.[1]?.[1]).startsWith(seen), { timeout: 5000 }).toBe(true);
    const kept = (await storedMessages(api, py, 'G'))![1]![1]!;
    expect(kept.length).toBeLessThan('token '.repeat(80).length);
  });
  it('a reset ends only the requests of its own socket: another socket\'s (another tab\'s) answer runs to COMPLETED', async () => {
    const { api, py } = await library();
    await configureChat(api, { reply: 'token '.repeat(60), chunkSize: 6, delayMs: 15 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const a = await open(api, { question: { query: 'one', relevant }, conversation: 'SA' }, 'socket-a');
    const b = await open(api, { question: { query: 'two', relevant }, conversation: 'SB' }, 'socket-b');
    const plain = await open(api, { question: { query: 'three', relevant }, conversation: 'SP' });
    await readUntil(a, 'IN-PROGRESS', 2);
    await readUntil(b, 'IN-PROGRESS', 2);
    await readUntil(plain, 'IN-PROGRESS', 2);

    expect(statuses(await send(api, { reset: true }, 'socket-a'))).toEqual(['RESET']);
    expect(statuses(await a.rest()).at(-1)).toBe('RESET');
    // A reset without a socket id is the unnamed socket's: it ends the request sent without one only.
    expect(statuses(await send(api, { reset: true }))).toEqual(['RESET']);
    expect(statuses(await plain.rest()).at(-1)).toBe('RESET');

    const bFrames = await b.rest();
    expect(statuses(bFrames).at(-1)).toBe('COMPLETED');
    expect(deltaText(bFrames).startsWith('token '.repeat(60))).toBe(true);
    expect(await storedMessages(api, py, 'SB')).toEqual([
      ['USER', 'two'],
      ['ASSISTANT', deltaText(bFrames)],
    ]);
  });

  it('a stop ends only its own socket\'s request: the same conversation stopped from another socket runs to COMPLETED', async () => {
    const { api, py } = await library();
    await configureChat(api, { reply: 'token '.repeat(60), chunkSize: 6, delayMs: 15 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const a = await open(api, { question: { query: 'one', relevant }, conversation: 'SA' }, 'socket-a');
    await readUntil(a, 'IN-PROGRESS', 2);
    expect(statuses(await send(api, { conversation: 'SA', stop: true }, 'socket-b'))).toEqual(['STOPPED']);
    expect(statuses(await send(api, { conversation: 'SA', stop: true }))).toEqual(['STOPPED']);
    const frames = await a.rest();
    expect(statuses(frames).at(-1)).toBe('COMPLETED');
    expect(deltaText(frames).startsWith('token '.repeat(60))).toBe(true);
  });

  it('a frame is registered before its response headers: a stop sent as soon as they arrive ends the question STOPPED', async () => {
    const { api, py } = await library();
    await configureChat(api, { reply: 'word '.repeat(80), chunkSize: 5, delayMs: 15 });
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    // Nothing of the question's body is read before the stop goes out.
    const question = await open(api, { question: { query: 'first', relevant }, conversation: 'Q', request: 'q' }, 'socket-q');
    expect(await send(api, { conversation: 'Q', stop: true, request: 's' }, 'socket-q')).toEqual([{ conversation: 'Q', request: 's', status: 'STOPPED' }]);
    const frames = await question.rest();
    expect(statuses(frames).at(-1)).toBe('STOPPED');
    expect(deltaText(frames).length).toBeLessThan('word '.repeat(80).length);
  });

  it('refuses an empty or over-long socket id with a 400', async () => {
    const api = await createTestApi();
    for (const socket of ['', 'x'.repeat(101)]) {
      const response = await api.call('POST', '/qgpt/stream', { reset: true }, { [SOCKET_HEADER]: socket });
      // An empty header value is dropped by some clients (and by Request itself): then it is the unnamed socket.
      if (socket === '' && response.status === 200) continue;
      expect(response.status).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_parameter' });
    }
  });
});
