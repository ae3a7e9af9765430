/**
 * `/qgpt/stream` in Chromium, as a desktop client uses it: `new WebSocket('ws://' + location.host +
 * '/api/qgpt/stream')` in the app page (the page's shim), one socket for every request, each frame parsed by
 * the official SDK's `QGPTStreamOutputFromJSON`; the conversations fetched right after COMPLETED through the
 * SDK's `AssetApi.assetSpecificAssetConversations`. Generative answers come from a chat-completions server
 * this test starts on localhost (test/support/chat-server.ts), slow enough to stop mid-answer.
 */
import type { Page } from '@playwright/test';
import type { Seed } from '@pieces.app/pieces-os-client';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { useSdkPage } from './contract-check.ts';
import { allowedChatServers, expect, test } from './fixtures.ts';

interface Frame {
  conversation: string;
  request?: string;
  status?: string;
  question?: { answers: { iterable: { text: string; score: number }[] } };
  relevance?: { relevant: { iterable: { asset?: { id: string } }[] }; answer?: { answers: { iterable: { text: string }[] } } };
}

/** A stored conversation as the SDK parsed it: id and [role, text] per message. */
interface Stored {
  id: string;
  name?: string;
  messages: [string, string][];
}

declare global {
  interface Window {
    __qgpt: { socket: WebSocket; frames: Frame[]; conversations: Record<string, Stored[]> };
  }
}

let page: Page;
useSdkPage(test, (p) => (page = p));

const startChat = allowedChatServers();

/**
 * Opens the socket in the page. Frames are parsed by the SDK as they arrive; on each COMPLETED frame the
 * page at once fetches the conversations of `asset` through the SDK (kept by request id).
 */
async function openStream(asset: string): Promise<void> {
  await page.evaluate(async (asset) => {
    const socket = new WebSocket(`ws://${location.host}/api/qgpt/stream`);
    const state = { socket, frames: [] as Frame[], conversations: {} as Record<string, Stored[]> };
    window.__qgpt = state;
    socket.onmessage = (event) => {
      const frame = window.PiecesSDK.QGPTStreamOutputFromJSON(JSON.parse(event.data as string)) as unknown as Frame;
      state.frames.push(JSON.parse(JSON.stringify(frame)));
      if (frame.status !== 'COMPLETED') return;
      void window.apis.asset.assetSpecificAssetConversations({ asset }).then((list) => {
        state.conversations[frame.request!] = list.iterable.map((c) => ({
          id: c.id,
          name: c.name,
          messages: c.messages.iterable!.map((m) => [m.reference!.role, m.reference!.fragment!.string!.raw!] as [string, string]),
        }));
      });
    };
    await new Promise((resolve) => (socket.onopen = resolve));
  }, asset);
}

function sendFrame(input: object): Promise<void> {
  return page.evaluate((input) => window.__qgpt.socket.send(JSON.stringify(input)), input);
}

function framesOf(request: string): Promise<Frame[]> {
  return page.evaluate((request) => window.__qgpt.frames.filter((f) => f.request === request), request);
}

async function waitFor(request: string, test: (frames: Frame[]) => boolean): Promise<Frame[]> {
  await expect.poll(async () => test(await framesOf(request)), { timeout: 15_000 }).toBe(true);
  return framesOf(request);
}

const statuses = (frames: Frame[]) => frames.map((f) => f.status);
const deltaText = (frames: Frame[]) =>
  frames.filter((f) => f.status === 'IN-PROGRESS').map((f) => f.question!.answers.iterable[0]!.text).join('');
const ended = (frames: Frame[]) => frames.some((f) => !['INITIALIZED', 'IN-PROGRESS'].includes(f.status ?? ''));

/** Frames of one request: INITIALIZED, IN-PROGRESS deltas, one terminal frame, all in one conversation. */
function expectShape(frames: Frame[], terminal: string): void {
  expect(statuses(frames)).toEqual(['INITIALIZED', ...Array(frames.length - 2).fill('IN-PROGRESS'), terminal]);
  expect(new Set(frames.map((f) => f.conversation)).size).toBe(1);
  expect(frames[0]!.conversation).not.toBe('');
}

function createAsset(raw: string): Promise<string> {
  return page.evaluate(async (seed) => (await window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed })).id, fragmentSeed(raw, { name: 'parse_args' }) as object);
}

test('relevance with options.question, extractive: deltas then COMPLETED; the conversation is there when COMPLETED arrives', async () => {
  const asset = await createAsset(PYTHON_SNIPPET);
  await openStream(asset);
  const query = 'how are command line arguments parsed?';
  await sendFrame({ relevance: { query, options: { database: true, question: true } }, request: 'r1' });
  const frames = await waitFor('r1', ended);
  expectShape(frames, 'COMPLETED');
  const completed = frames.at(-1)!;
  expect(completed.relevance!.relevant.iterable[0]!.asset!.id).toBe(asset);
  const answer = deltaText(frames);
  expect(answer).toBe(completed.relevance!.answer!.answers.iterable[0]!.text);
  expect(answer).toContain('parse_args');

  await expect.poll(() => page.evaluate(() => window.__qgpt.conversations.r1)).toBeDefined();
  const conversations = await page.evaluate(() => window.__qgpt.conversations.r1!);
  expect(conversations).toEqual([
    {
      id: completed.conversation,
      name: query,
      messages: [
        ['USER', query],
        ['ASSISTANT', answer],
      ],
    },
  ]);
});

test('two conversations at once on one socket, demultiplexed by request; a stop ends only its own, keeping the text so far', async () => {
  const server = await startChat({ reply: 'The parser comes from argparse [1]. '.repeat(12), chunkSize: 6, delayMs: 25 });
  const settings = await page.evaluate(async (url) => {
    const response = await fetch('/api/qgpt/settings', { method: 'PUT', body: JSON.stringify({ url, model: 'test-model' }), headers: { 'content-type': 'application/json' } });
    return response.status;
  }, server.url);
  expect(settings).toBe(200);
  const asset = await createAsset(PYTHON_SNIPPET);
  await openStream(asset);

  const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: asset } }] };
  await sendFrame({ relevance: { query: 'where does the parser come from?', assets: { iterable: [{ id: asset }] }, options: { question: true } }, request: 'a' });
  await sendFrame({ question: { query: 'which library parses arguments?', relevant }, request: 'b' });
  const running = await waitFor('a', (frames) => statuses(frames).filter((s) => s === 'IN-PROGRESS').length >= 3);
  const conversationA = running[0]!.conversation;
  await sendFrame({ conversation: conversationA, stop: true, request: 'stop-a' });

  const stop = await waitFor('stop-a', ended);
  expect(stop).toEqual([{ conversation: conversationA, request: 'stop-a', status: 'STOPPED' }]);
  const a = await waitFor('a', ended);
  expectShape(a, 'STOPPED');
  const b = await waitFor('b', ended);
  expectShape(b, 'COMPLETED');
  expect(b[0]!.conversation).not.toBe(conversationA);
  const partial = deltaText(a);
  const full = deltaText(b);
  expect(full.startsWith('The parser comes from argparse [1]. '.repeat(12))).toBe(true);
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.length).toBeLessThan(full.length);
  // the two answers streamed at the same time: b's deltas began before a was stopped
  const order = await page.evaluate(() => window.__qgpt.frames.map((f) => `${f.request}:${f.status}`));
  expect(order.indexOf('b:IN-PROGRESS')).toBeLessThan(order.indexOf('a:STOPPED'));

  await expect.poll(() => page.evaluate(() => window.__qgpt.conversations.b)).toBeDefined();
  const conversations = await page.evaluate(() => window.__qgpt.conversations.b!);
  const byId = Object.fromEntries(conversations.map((c) => [c.id, c.messages]));
  expect(byId[conversationA]).toEqual([
    ['USER', 'where does the parser come from?'],
    ['ASSISTANT', partial],
  ]);
  expect(byId[b[0]!.conversation]).toEqual([
    ['USER', 'which library parses arguments?'],
    ['ASSISTANT', full],
  ]);
});
