/**
 * The conversation routes the app's Ask view and the SDK's ConversationsApi use: GET /conversations,
 * GET /conversation/{id}, POST /conversation/update (a rename); and POST /qgpt/settings/test against a
 * chat stand-in server. Over the memory store and IndexedDB.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { CONVERSATION_MESSAGES_KEPT, saveExchange } from '../../worker/core/qgpt/conversations.ts';
import { chatServersPerTest, configureChatEndpoint } from '../support/chat-server.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { STORES } from '../support/stores.ts';
import { createTestApi } from '../support/test-api.ts';

const startChat = chatServersPerTest(afterEach);

for (const [engine, open] of Object.entries(STORES)) {
  describe(`conversation routes: ${engine}`, () => {
    async function library() {
      let clock = Date.parse('2026-02-01T00:00:00Z');
      const api = await createTestApi({ store: await open(), now: () => new Date((clock += 1000)) });
      const py = (await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }))).id as string;
      const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never, now: () => new Date((clock += 1000)) });
      await saveExchange(ctx, { conversation: 'first', query: 'how are arguments parsed?', answer: 'With argparse.', assets: [py] });
      await saveExchange(ctx, { conversation: 'second', query: 'what is the default env?', answer: 'staging', assets: [py] });
      await saveExchange(ctx, { conversation: 'first', query: 'and the dry run flag?', answer: '--dry-run', assets: [py] });
      return api;
    }

    it('lists every conversation with its messages, most recently updated first; reads one by id', async () => {
      const api = await library();
      const all = (await api.get('/conversations')).json();
      expect(all.iterable.map((c: { id: string }) => c.id)).toEqual(['first', 'second']);
      const first = (await api.get('/conversation/first')).json();
      expect(first.name).toBe('how are arguments parsed?');
      expect(first.messages.iterable.map((m: any) => [m.reference.role, m.reference.fragment.string.raw])).toEqual([
        ['USER', 'how are arguments parsed?'],
        ['ASSISTANT', 'With argparse.'],
        ['USER', 'and the dry run flag?'],
        ['ASSISTANT', '--dry-run'],
      ]);
    });

    it(`keeps the conversation record bounded: an Asset lists its newest ${CONVERSATION_MESSAGES_KEPT} message ids, the conversation every message in order`, async () => {
      // A question and its answer share a timestamp: beyond the record's list, the role orders them.
      let clock = Date.parse('2026-02-01T00:00:00Z');
      const api = await createTestApi({ store: await open(), now: () => new Date((clock += 1000)) });
      const py = (await api.create(fragmentSeed(PYTHON_SNIPPET, { name: 'parse_args' }))).id as string;
      const ctx = withDefaults({ store: api.store, feed: api.feed, classifier: undefined as never, now: () => new Date((clock += 1000)) });
      const exchanges = CONVERSATION_MESSAGES_KEPT / 2 + 5;
      for (let i = 0; i < exchanges; i++) await saveExchange(ctx, { conversation: 'long', query: `q${i}`, answer: `a${i}`, assets: [py] });
      const messages = (await api.get('/conversation/long')).json().messages.iterable;
      expect(messages).toHaveLength(2 * exchanges);
      const texts = messages.map((m: any) => m.reference.fragment.string.raw);
      expect(texts).toEqual(Array.from({ length: exchanges }, (_, i) => [`q${i}`, `a${i}`]).flat());
      expect(messages.map((m: any) => m.reference.role)).toEqual(Array.from({ length: exchanges }, () => ['USER', 'ASSISTANT']).flat());
      const listed = (await api.get(`/asset/${py}`)).json().conversations.iterable[0].messages.iterable.map((m: { id: string }) => m.id);
      expect(listed).toEqual(messages.slice(-CONVERSATION_MESSAGES_KEPT).map((m: { id: string }) => m.id));
      expect((await api.post('/conversations/long/delete')).status).toBeLessThan(300);
      expect(await api.store.read((tx) => tx.count('messages'))).toBe(0);
    });

    it('renames through /conversation/update; messages stay; unknown ids and bad bodies change nothing', async () => {
      const api = await library();
      const first = (await api.get('/conversation/first')).json();
      const renamed = await api.post('/conversation/update', { ...first, name: '  Argument parsing  ' });
      expect(renamed.status).toBe(200);
      expect(renamed.json().name).toBe('Argument parsing');
      const again = (await api.get('/conversation/first')).json();
      expect(again.name).toBe('Argument parsing');
      expect(again.messages.iterable).toHaveLength(4);

      expect((await api.get('/conversation/nope')).status).toBe(404);
      expect((await api.post('/conversation/update', { id: 'nope', name: 'x' })).status).toBe(404);
      expect((await api.post('/conversation/update', { name: 'no id' })).status).toBe(422);
      expect((await api.post('/conversation/update', '{not json')).status).toBe(400);
      expect((await api.get('/conversation/first')).json().name).toBe('Argument parsing');
    });
  });
}

describe('POST /qgpt/settings/test', () => {
  it('says no endpoint is set, then that the stand-in answered, then why a failing one did not', async () => {
    const api = await createTestApi();
    const none = (await api.post('/qgpt/settings/test')).json();
    expect(none).toEqual({ ok: false, message: 'No answer endpoint is set.' });

    const chat = await startChat();
    chat.reply = 'ok';
    await configureChatEndpoint(api, chat);
    const ok = (await api.post('/qgpt/settings/test')).json();
    expect(ok.ok).toBe(true);
    expect(ok.message).toMatch(/^Connected: /);
    expect(chat.requests.at(-1)?.body.messages[0].content).toContain('ok');

    chat.mode = 'error500';
    const failed = (await api.post('/qgpt/settings/test')).json();
    expect(failed.ok).toBe(false);
    expect(failed.message).toContain(chat.url);
  });
});
