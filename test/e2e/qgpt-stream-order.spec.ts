/**
 * `/qgpt/stream` sockets through the page's WebSocket shim keep frame order and their own scope, as real
 * WebSockets would (review H7): a `{stop}` sent right after a question on the same socket stops that
 * question (never overtakes it), and a `{reset: true}` in one tab ends that tab's requests only. Answers
 * come from a slow chat-completions stand-in on localhost (test/support/chat-server.ts).
 */
import type { Page } from '@playwright/test';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { allowedChatServers, CLIENT_PAGE, expect, test } from './fixtures.ts';

interface Frame {
  conversation: string;
  request?: string;
  status?: string;
  question?: { answers: { iterable: { text: string }[] } };
}

declare global {
  interface Window {
    __qgptOrder: { socket: WebSocket; frames: Frame[] };
  }
}

const startChat = allowedChatServers();

const REPLY = 'The parser comes from argparse [1]. '.repeat(10);

/** Opens `new WebSocket('ws://<host>/api/qgpt/stream')` (the page's shim) and records its frames. */
async function openSocket(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const socket = new WebSocket(`ws://${location.host}/api/qgpt/stream`);
    const state = { socket, frames: [] as Frame[] };
    window.__qgptOrder = state;
    socket.onmessage = (event) => state.frames.push(JSON.parse(event.data as string) as Frame);
    await new Promise((resolve) => (socket.onopen = resolve));
  });
}

/** Sends the frames in one task, back to back, as a client would; `asBlob` sends the first one as a Blob. */
function send(page: Page, inputs: object[], asBlob = false): Promise<void> {
  return page.evaluate(
    ({ inputs, asBlob }) =>
      inputs.forEach((input, i) => {
        const text = JSON.stringify(input);
        window.__qgptOrder.socket.send(asBlob && i === 0 ? new Blob([text]) : text);
      }),
    { inputs, asBlob },
  );
}

function framesOf(page: Page, request: string): Promise<Frame[]> {
  return page.evaluate((request) => window.__qgptOrder.frames.filter((f) => f.request === request), request);
}

const terminal = (frames: Frame[]) => frames.find((f) => !['INITIALIZED', 'IN-PROGRESS'].includes(f.status ?? ''))?.status;
const inProgress = (frames: Frame[]) => frames.filter((f) => f.status === 'IN-PROGRESS').length;
const deltaText = (frames: Frame[]) =>
  frames.filter((f) => f.status === 'IN-PROGRESS').map((f) => f.question!.answers.iterable[0]!.text).join('');

async function until(page: Page, request: string, test: (frames: Frame[]) => boolean): Promise<Frame[]> {
  await expect.poll(async () => test(await framesOf(page, request)), { timeout: 20_000 }).toBe(true);
  return framesOf(page, request);
}

/** The chat stand-in as the answer endpoint, and one asset to ask about; the `relevant` input naming it. */
async function setUp(page: Page, delayMs: number) {
  const server = await startChat({ reply: REPLY, chunkSize: 6, delayMs });
  return page.evaluate(
    async ({ url, seed, snippet }) => {
      const put = await fetch('/api/qgpt/settings', { method: 'PUT', body: JSON.stringify({ url, model: 'test-model' }), headers: { 'content-type': 'application/json' } });
      if (put.status !== 200) throw new Error(`PUT /api/qgpt/settings: ${put.status}`);
      const created = await fetch('/api/assets/create', { method: 'POST', body: JSON.stringify(seed), headers: { 'content-type': 'application/json' } });
      const { id } = (await created.json()) as { id: string };
      return { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: snippet }, asset: { id } }] };
    },
    { url: server.url, seed: fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }) as object, snippet: fragmentSeed(PYTHON_SNIPPET).asset as object },
  );
}

test('a reset in one tab ends its own answer only: the other tab\'s answer runs to COMPLETED', async ({ appPage: first }) => {
  const relevant = await setUp(first, 25);
  const second = await first.context().newPage();
  await second.goto(CLIENT_PAGE);
  await second.evaluate(() => window.tessera.ready());
  await openSocket(first);
  await openSocket(second);

  await send(first, [{ question: { query: 'where does the parser come from?', relevant }, request: 'a' }]);
  await send(second, [{ question: { query: 'which library parses arguments?', relevant }, request: 'b' }]);
  await until(first, 'a', (frames) => inProgress(frames) >= 2);
  await until(second, 'b', (frames) => inProgress(frames) >= 2);

  await send(second, [{ reset: true, request: 'reset-b' }]);
  expect(await until(second, 'reset-b', (frames) => terminal(frames) !== undefined)).toEqual([{ conversation: '', request: 'reset-b', status: 'RESET' }]);
  const b = await until(second, 'b', (frames) => terminal(frames) !== undefined);
  expect(terminal(b)).toBe('RESET');
  expect(deltaText(b).length).toBeLessThan(REPLY.length);

  const a = await until(first, 'a', (frames) => terminal(frames) !== undefined);
  expect(terminal(a)).toBe('COMPLETED');
  expect(deltaText(a).startsWith(REPLY)).toBe(true);
  await second.close();
});

test('a question followed at once by a stop on the same socket ends STOPPED, never answered in full', async ({ appPage: page }) => {
  const relevant = await setUp(page, 15);
  await openSocket(page);
  // A long query makes the question's body the slower one to read; a question sent as a Blob is read
  // asynchronously in the page. Either way a stop sent right after must not overtake it.
  const query = `which library parses the arguments? ${'context '.repeat(20_000)}`;
  for (const [round, asBlob] of [false, true, false, true].entries()) {
    const conversation = `order-${round}`;
    await send(page, [{ question: { query, relevant }, conversation, request: `q${round}` }, { conversation, stop: true, request: `s${round}` }], asBlob);
    const stop = await until(page, `s${round}`, (frames) => terminal(frames) !== undefined);
    expect(stop).toEqual([{ conversation, request: `s${round}`, status: 'STOPPED' }]);
    const question = await until(page, `q${round}`, (frames) => terminal(frames) !== undefined);
    expect(terminal(question), `round ${round}${asBlob ? ' (Blob)' : ''}`).toBe('STOPPED');
    expect(deltaText(question).length).toBeLessThan(REPLY.length);
  }
});
