/**
 * A user's write names the collections it touches (commit's scope) and never the derived ones (`indexes`,
 * `snippets`): in IndexedDB it does not wait behind the search snapshot or the vectors being saved.
 *
 * - Through a store that notes the scope of each write: every write of a round of user operations (creates,
 *   an import, updates, links, scores, an export, a conversation, deletes, a restore aside) has a scope, and
 *   none holds `indexes` or `snippets`; only the asset delete holds `relevant` (it drops the asset's snippets).
 * - On IndexedDB (fake-indexeddb schedules transactions by scope, as browsers do): while a write on
 *   `indexes` and one on `snippets` + `indexes` stay open, the same user operations all complete. Each held
 *   write polls until the operations are done, giving up after HELD_POLLS requests; before the fix (every
 *   user write locked every collection) the operations waited until a held write gave up.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbStore } from '../../worker/browser/idb-store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import { CSV_SNIPPET, GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { ScopeNotingStore } from '../support/scope-noting-store.ts';
import { createTestApi } from '../support/test-api.ts';

type Api = Awaited<ReturnType<typeof createTestApi>>;

const ok = async (reply: Promise<{ status: number; text: string }>) => {
  const r = await reply;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text.slice(0, 200)}`);
};

/** A round of user writes of every kind (eleven, one of them an asset delete). */
async function userWrites(api: Api): Promise<void> {
  const py = await api.create(fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'cli' }], websites: [{ url: 'https://docs.python.org/', name: 'python' }] }));
  const go = await api.create(fragmentSeed(GO_SNIPPET));
  await ok(api.post('/assets/import', { iterable: [fragmentSeed(CSV_SNIPPET, { tags: [{ text: 'csv' }] })] }));
  await ok(api.post('/asset/update', { id: go.id, name: 'hello in go' }));
  await ok(api.post(`/asset/${go.id}/tags/associate/${py.tags.iterable[0].id}`));
  await ok(api.post(`/asset/${go.id}/tags/disassociate/${py.tags.iterable[0].id}`));
  await ok(api.post('/tags/create', { text: 'fresh', asset: go.id }));
  await ok(api.post('/websites/create', { url: 'https://go.dev/', name: 'go', asset: go.id }));
  await ok(api.post(`/asset/${py.id}/scores/increment`, { asset: { reuse: true } }));
  await ok(api.get(`/asset/${py.id}/export?export_type=MD`));
  await ok(api.post(`/assets/${go.id}/delete`));
}

describe('user writes name their collections', () => {
  it('no user write locks the derived collections; only an asset delete takes the relevant ring', async () => {
    const store = new ScopeNotingStore();
    const api = await createTestApi({ store });
    await userWrites(api);
    // The user writes are those that append to the change log (background writes never do).
    const user = store.writes.filter((scope) => scope === undefined || scope.includes('changes'));
    expect(user.length).toBeGreaterThanOrEqual(11);
    for (const scope of user) {
      expect(scope).toBeDefined();
      expect(scope).not.toContain('indexes');
      expect(scope).not.toContain('snippets');
    }
    expect(user.filter((scope) => scope!.includes('relevant'))).toHaveLength(1);
  });
});

/** Requests a held write makes before it gives up waiting (far more than the user writes need). */
const HELD_POLLS = 200_000;

describe('on IndexedDB, a user write does not wait for a background write', () => {
  it('completes while a snapshot write and a vectors write stay open', async () => {
    const store = await IdbStore.open(`user-write-scopes-${process.pid}`);
    const api = await createTestApi({ store });
    await api.create(fragmentSeed('warm = "up"\n'));
    let done = false;
    /** A background write that stays open (one request after another) until the user writes are done. */
    const hold = (scope: CollectionName[]) =>
      store.write(async (tx) => {
        for (let i = 0; i < HELD_POLLS && !done; i++) await tx.get(scope[0]!, 'held');
        return done;
      }, scope);
    const vectors = hold(['snippets', 'indexes']);
    // Waits behind the vectors write (they share `indexes`), as a snapshot save would in a browser.
    const snapshot = hold(['indexes']);
    await userWrites(api);
    done = true;
    // Released, not given up: the user writes were all done while the vectors write was still open.
    expect(await vectors).toBe(true);
    expect(await snapshot).toBe(true);
  }, 120_000);
});
