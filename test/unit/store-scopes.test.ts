/**
 * Background writes name the collections they touch (Store.write's scope), so in IndexedDB they lock only
 * those and a user's write does not wait behind them (user writes: user-write-scopes.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { searchIndexFor } from '../../worker/core/search/search-index.ts';
import { testClassifier } from '../support/classifier.ts';
import { ScopeNotingStore } from '../support/scope-noting-store.ts';
import { CSV_SNIPPET, YAML_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi } from '../support/test-api.ts';

describe('write scopes', () => {
  it('the search snapshot, the vectors and the relevant ring each lock only their own collections', async () => {
    const store = new ScopeNotingStore();
    const api = await createTestApi({ store });
    for (const text of [YAML_SNIPPET, CSV_SNIPPET]) await api.create(fragmentSeed(text));
    const users = store.writes.length;
    expect((await api.get('/assets/search?query=yaml')).status).toBe(200);
    await searchIndexFor(withDefaults({ store, feed: api.feed, classifier: await testClassifier() })).flush();
    expect((await api.post('/qgpt/relevance', { query: 'csv rows', options: { database: true } })).status).toBe(200);
    const background = store.writes.slice(users);
    expect(background).toEqual(
      expect.arrayContaining([['indexes'], ['snippets', 'indexes'], ['relevant', 'meta', 'assets']]),
    );
    expect(background.every((scope) => scope !== undefined && !scope.includes('formats'))).toBe(true);
  });
});
