/**
 * POST /conversations/{id}/delete: the conversation and its messages go, no asset lists it afterwards
 * (the Asset, the listing, /asset/{id}/conversations), a running request in it is stopped first; unknown
 * ids are a 404 that changes nothing. Over the memory store and IndexedDB.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { createServices } from '../../worker/core/services.ts';
import { chatServersPerTest, configureChatEndpoint } from '../support/chat-server.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { checkResponse } from '../support/responses.ts';
import { STORES } from '../support/stores.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';

const startChat = chatServersPerTest(afterEach);

async function library(open: () => Promise<import('../../worker/core/store/store.ts').Store>) {
  const api = await createTestApi({ store: await open() });
  const py = (await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }))).id as string;
  const go = (await api.create(fragmentSeed(GO_SNIPPET, { name: 'hello' }))).id as string;
  const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never });
  await saveExchange(ctx, { conversation: 'gone', query: 'how are arguments parsed?', answer: 'With argparse.', assets: [py, go] });
  await saveExchange(ctx, { conversation: 'gone', query: 'and in Go?', answer: 'fmt.', assets: [go] });
  await saveExchange(ctx, { conversation: 'stays', query: 'what prints hello?', answer: 'main.', assets: [go] });
  return { api, py, go };
}

const conversationIds = async (api: TestApi, asset: string) =>
  (await api.get(`/asset/${asset}/conversations`)).json().iterable.map((c: { id: string }) => c.id);

for (const [engine, open] of Object.entries(STORES)) {
  describe(`conversation delete: ${engine}`, () => {
    it('removes the conversation, its messages and every asset link to it; other conversations stay; one change event per linked asset', async () => {
      const { api, py, go } = await library(open);
      const before = api.events.length;
      const reply = await api.post('/conversations/gone/delete');
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');

      expect(await conversationIds(api, py)).toEqual([]);
      expect(await conversationIds(api, go)).toEqual(['stays']);
      expect((await api.get(`/asset/${py}`)).json().conversations?.iterable ?? []).toEqual([]);
      const listed = (await api.get('/assets?transferables=false')).json().iterable;
      expect(listed.flatMap((a: any) => a.conversations?.iterable.map((c: { id: string }) => c.id) ?? [])).toEqual(['stays']);
      // Nothing of it is left in the store, not even a message.
      const left = await api.store.read(async (tx) => ({
        conversations: (await tx.getAll('conversations')).map((c) => c.id),
        messages: (await tx.getAll('messages')).map((m) => m.conversation),
        assetLinks: (await tx.getAll('links')).filter((l) => l.kind === 'conversations').map((l) => l.other),
      }));
      expect(left).toEqual({ conversations: ['stays'], messages: ['stays', 'stays'], assetLinks: ['stays'] });
      expect(api.events.slice(before).map((e) => [e.asset, e.kind]).sort()).toEqual([[go, 'updated'], [py, 'updated']].sort());
    });

    it('an unknown id is a 404 JSON error and changes nothing; deleting twice is a 404 the second time', async () => {
      const { api } = await library(open);
      const snapshot = await api.store.read(async (tx) => [await tx.getAll('conversations'), await tx.getAll('messages'), await tx.getAll('assets')]);
      const before = api.events.length;
      const reply = await api.post('/conversations/no-such-conversation/delete');
      expect(reply.status).toBe(404);
      expect(reply.json()).toEqual({
        error: { status: 404, code: 'conversation_not_found', message: "No conversation with id 'no-such-conversation'." },
      });
      expect(await api.store.read(async (tx) => [await tx.getAll('conversations'), await tx.getAll('messages'), await tx.getAll('assets')])).toEqual(snapshot);
      expect(api.events.length).toBe(before);
      expect((await api.post('/conversations/stays/delete')).status).toBe(204);
      expect((await api.post('/conversations/stays/delete')).status).toBe(404);
    });

    it('the services operation does the same (the RPC path)', async () => {
      const { api, go } = await library(open);
      const services = createServices(withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never }));
      await services.deleteConversation('stays');
      expect(await conversationIds(api, go)).toEqual(['gone']);
      await expect(services.deleteConversation('stays')).rejects.toMatchObject({ status: 404, code: 'conversation_not_found' });
      await expect(Promise.resolve().then(() => services.deleteConversation(''))).rejects.toMatchObject({ status: 400 });
    });
  });
}

describe('conversation delete while it answers', () => {
  it('stops the running request first, so its end does not store the conversation again', async () => {
    const api = await createTestApi();
    const py = (await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }))).id as string;
    const server = await startChat({ reply: 'word '.repeat(200), chunkSize: 5, delayMs: 20 });
    await configureChatEndpoint(api, server);
    const relevant = { iterable: [{ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(PYTHON_SNIPPET).asset }, asset: { id: py } }] };
    const response = await api.request('/qgpt/stream', {
      method: 'POST',
      body: JSON.stringify({ question: { query: 'how?', relevant }, conversation: 'live', request: 'r' }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    // Wait until the answer is streaming (an IN-PROGRESS frame), then delete.
    while (!text.includes('IN-PROGRESS')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before answering');
      text += value;
    }
    expect((await api.post('/conversations/live/delete')).status).toBe(204);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    // Read as it streamed, checked against the contract once whole.
    checkResponse({ method: 'POST', path: '/qgpt/stream', status: response.status, contentType: response.headers.get('content-type'), body: text });
    expect(text).toContain('"STOPPED"');
    expect(await api.store.read((tx) => tx.getAll('conversations'))).toEqual([]);
    expect(await api.store.read((tx) => tx.getAll('messages'))).toEqual([]);
    expect(await conversationIds(api, py)).toEqual([]);
  });
});
