import { describe, expect, it } from 'vitest';
import { streamSnapshot } from '../../worker/core/streams/reads.ts';
import { STORES } from '../support/stores.ts';
import { createTestApi } from '../support/test-api.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { watchedStore, type StoreReads } from '../support/watched-store.ts';

const idsOf = (reply: { json(): { iterable: { id: string }[] } }) => reply.json().iterable.map((r) => r.id);

// The Node host's composition (TESSERA_TEST_TRANSPORT=http) on PostgreSQL or PGlite checks its shared cache
// is fresh in a transaction of its own: these reads are made inside the stream's, and must not wait for it.
describe.each(Object.entries(STORES))('the ids of every asset (GET /assets/identifiers, GET /assets/pseudo, the identifiers stream snapshot), %s', (_name, open) => {
  it('are read from the asset records once while the library stays as it is', async () => {
    const reads: StoreReads = { whole: [], one: [] };
    const api = await createTestApi({ store: watchedStore(await open(), reads) });
    const readsOfAllAssets = () => reads.whole.filter((c) => c === 'assets').length;
    const first = await api.create(fragmentSeed(PYTHON_SNIPPET));
    const pseudoSeed = fragmentSeed('echo hidden');
    (pseudoSeed.asset as { pseudo?: boolean }).pseudo = true;
    const pseudo = await api.create(pseudoSeed);
    const before = readsOfAllAssets();

    expect(idsOf(await api.get('/assets/identifiers'))).toEqual([first.id]);
    expect(idsOf(await api.get('/assets/identifiers?pseudo=true'))).toEqual([pseudo.id, first.id]);
    const snapshot = await streamSnapshot(api.ctx, 'identifiers');
    expect((snapshot.frame as { iterable: { asset: { id: string } }[] }).iterable.map((r) => r.asset.id)).toEqual([pseudo.id, first.id]);
    expect((await api.get('/assets/pseudo')).json().identifiers.iterable.map((r: { id: string }) => r.id)).toEqual([pseudo.id]);
    expect(readsOfAllAssets() - before).toBe(1);

    // A change is a new seq: read again, with the new asset.
    const second = await api.create(fragmentSeed(GO_SNIPPET));
    expect(idsOf(await api.get('/assets/identifiers'))).toEqual([second.id, first.id]);
    expect(readsOfAllAssets() - before).toBe(2);
  });

  it('include a write committed by another worker on the same store that this one has not heard of', async () => {
    const store = await open();
    const writer = await createTestApi({ store });
    // A second worker on the same store, with a feed of its own: it never hears the writer's changes.
    const reader = await createTestApi({ store });
    const first = await writer.create(fragmentSeed(PYTHON_SNIPPET));
    expect(idsOf(await reader.get('/assets/identifiers'))).toEqual([first.id]);
    const second = await writer.create(fragmentSeed(GO_SNIPPET));
    expect(idsOf(await reader.get('/assets/identifiers'))).toEqual([second.id, first.id]);
    const snapshot = await streamSnapshot(reader.ctx, 'identifiers');
    expect((snapshot.frame as { iterable: { asset: { id: string } }[] }).iterable.map((r) => r.asset.id)).toEqual([second.id, first.id]);
  });
});
