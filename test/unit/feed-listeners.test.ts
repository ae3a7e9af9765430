/**
 * Change events go out after their write committed: a listener that throws must neither fail the write
 * nor keep the other listeners (the asset cache among them) from hearing of it. Both feeds, the memory
 * one and the BroadcastChannel one the worker uses (Node has BroadcastChannel).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BroadcastFeed } from '../../worker/browser/broadcast-feed.ts';
import { CHANGE_CHANNEL } from '../../worker/browser/protocol.ts';
import { MemoryFeed, type ChangeEvent, type Feed } from '../../worker/core/feed/feed.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { createTestApi } from '../support/test-api.ts';
import { fragmentSeed } from '../support/seeds.ts';

afterEach(() => vi.restoreAllMocks());

const feeds: Record<string, () => Feed> = { MemoryFeed: () => new MemoryFeed(), BroadcastFeed: () => new BroadcastFeed() };

for (const [name, make] of Object.entries(feeds)) {
  describe(`${name}: a listener that throws`, () => {
    it('does not fail the committed write, and every other listener still hears it (the asset cache too)', async () => {
      const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const feed = make();
      feed.subscribe(() => {
        throw new Error('listener bug');
      });
      const heard: ChangeEvent[] = [];
      feed.subscribe((event) => heard.push(event));
      const api = await createTestApi({ store: new MemoryStore(), feed });

      const created = await api.post('/assets/create', fragmentSeed('print("hello")\n', { name: 'before' }));
      expect(created.status).toBe(200);
      const asset = created.json();
      // Read once so the asset cache holds it; the rename must reach the cache through the feed.
      expect((await api.get(`/asset/${asset.id}`)).json().name).toBe('before');
      const renamed = await api.post('/asset/update', { ...asset, name: 'after' });
      expect(renamed.status).toBe(200);
      expect((await api.get(`/asset/${asset.id}`)).json().name).toBe('after');
      expect(heard.map((e) => e.kind)).toEqual(['created', 'updated']);
      expect(reported).toHaveBeenCalled();
    });
  });
}

describe('BroadcastFeed across contexts', () => {
  it("posts a commit's events as one message, and hears a single event (an earlier worker's) too", async () => {
    const writer = new BroadcastFeed();
    const reader = new BroadcastFeed();
    const channel = new BroadcastChannel(CHANGE_CHANNEL);
    const messages: unknown[] = [];
    channel.onmessage = (message) => messages.push(message.data);
    const heard: ChangeEvent[] = [];
    reader.subscribe((event) => heard.push(event));
    try {
      const events: ChangeEvent[] = [1, 2, 3].map((seq) => ({ seq, asset: `a${seq}`, kind: 'created' }));
      writer.publish(events);
      await vi.waitFor(() => expect(heard).toEqual(events));
      expect(messages).toEqual([events]);

      const single: ChangeEvent = { seq: 4, asset: 'a1', kind: 'deleted' };
      channel.postMessage(single);
      channel.postMessage({ type: 'head', seq: 9 });
      await vi.waitFor(() => expect(heard).toEqual([...events, single]));
    } finally {
      channel.close();
      writer.close();
      reader.close();
    }
  });
});
