import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../worker/core/app.ts';
import { withDefaults } from '../../worker/core/deps.ts';
import { CHANGE_LOG_SIZE, lastSeq } from '../../worker/core/feed/commit.ts';
import { MemoryFeed } from '../../worker/core/feed/feed.ts';
import { DOC_META_CODEC, type DocMeta } from '../../worker/core/search/documents.ts';
import { TypoIndex } from '../../worker/core/search/fuzzy.ts';
import { LexicalIndex } from '../../worker/core/search/lexical/lexical-index.ts';
import {
  SNAPSHOT_ID,
  SNAPSHOT_META_ID,
  SNAPSHOT_TYPOS_ID,
  SNAPSHOT_VERSION,
  useSearchIndex,
  type SearchIndex,
  type SearchIndexOptions,
  type SearchMetaSnapshot,
  type SearchSnapshot,
  type SearchTyposSnapshot,
} from '../../worker/core/search/search-index.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import type { ReadTx, Store, WriteTx } from '../../worker/core/store/store.ts';
import type { CollectionName } from '../../worker/core/store/records.ts';
import { importModule } from '../../worker/node/import-modules.ts';
import { testClassifier } from '../support/classifier.ts';
import { checkResponse } from '../support/responses.ts';
import { fragmentSeed } from '../support/seeds.ts';
import { SlowSnapshots } from '../support/slow-snapshots.ts';
import { STORES } from '../support/stores.ts';

/** One "worker lifetime": an app and its search index on a store that outlives it. */
async function start(store: Store, options: SearchIndexOptions = { snapshotDelayMs: 5, syncDelayMs: 5 }) {
  const deps = { store, feed: new MemoryFeed(), classifier: await testClassifier(), loadModule: importModule };
  const index: SearchIndex = useSearchIndex(withDefaults(deps), options);
  const app = createApp(deps);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await app.request(`/api${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    checkResponse({ method, path: path.split('?')[0]!, status: response.status, contentType: response.headers.get('content-type'), body: text });
    return { status: response.status, json: () => JSON.parse(text), timing: response.headers.get('server-timing') };
  };
  return {
    index,
    ctx: withDefaults(deps),
    create: async (text: string) => (await call('POST', '/assets/create', fragmentSeed(text))).json().id as string,
    search: async (query: string) => (await call('GET', `/assets/search?query=${encodeURIComponent(query)}&transferables=false`)).json().iterable.map((r: any) => r.identifier) as string[],
    call,
  };
}

const snapshotOf = (store: Store) => store.read((tx) => tx.get('indexes', SNAPSHOT_ID)) as Promise<SearchSnapshot | undefined>;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the search index across restarts', () => {
  it('saves a snapshot after changes and restores it on the next start', async () => {
    const store = new MemoryStore();
    const first = await start(store);
    const a = await first.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
    expect(await first.search('checksum')).toEqual([a]);
    expect(first.index.lastLoad?.from).toBe('rebuild');
    await first.index.flush();
    const saved = await snapshotOf(store);
    expect(saved).toMatchObject({ id: SNAPSHOT_ID, version: SNAPSHOT_VERSION, seq: await lastSeq(first.ctx) });

    const second = await start(store);
    expect(await second.search('sha256 checksum')).toEqual([a]);
    expect(second.index.lastLoad).toMatchObject({ from: 'snapshot', documents: 1 });
    expect(await second.search('chekcsum')).toEqual([a]);
  });

  it('follow(): writes are indexed and saved in the background, so the first search after them loads and catches up nothing', async () => {
    const store = new MemoryStore();
    const first = await start(store);
    first.index.follow();
    const ids = [await first.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()')];
    ids.push(await first.create('function parseConfig(text) { return JSON.parse(text); }'));
    // No search was made: the index loaded itself, followed both writes and saved its snapshot.
    await vi.waitFor(async () => expect((await snapshotOf(store))?.seq).toBe(await lastSeq(first.ctx)), { timeout: 10_000 });
    expect(first.index.lastLoad?.from).toBe('rebuild');
    expect(first.index.position).toBe(await lastSeq(first.ctx));
    const load = first.index.lastLoad;
    const reply = await first.call('GET', '/assets/search?query=checksum&transferables=false');
    expect(reply.json().iterable.map((r: any) => r.identifier)).toEqual([ids[0]]);
    expect(reply.timing).not.toMatch(/load;dur=/);
    expect(first.index.lastLoad).toBe(load);

    // Without follow(), writes wait for the first search to be indexed.
    const second = await start(new MemoryStore());
    await second.create('def checksum(path): return 1');
    await new Promise((r) => setTimeout(r, 50));
    expect(second.index.lastLoad).toBeUndefined();
  });

  it('keeps the typo index apart: read for the first query with an unknown word, rebuilt when it does not match', async () => {
    const store = new MemoryStore();
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    const a = await first.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
    expect(await first.search('chekcsum')).toEqual([a]);
    await first.index.flush();
    const typos = (await store.read((tx) => tx.get('indexes', SNAPSHOT_TYPOS_ID))) as SearchTyposSnapshot | undefined;
    const core = (await snapshotOf(store))!;
    expect(typos).toMatchObject({ version: SNAPSHOT_VERSION, seq: core.seq, saved: core.saved });
    expect(typos!.data.length).toBeGreaterThan(0);
    // Written after the snapshot: a term the saved typo index has never seen.
    const b = await first.create('fn telescope_focus() -> f64 { 42.0 }');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const second = await start(store);
    expect(await second.search('checksum')).toEqual([a]);
    expect(second.index.typos.ready).toBe(false);
    expect(await second.search('chekcsum')).toEqual([a]);
    expect(await second.search('telsecope')).toEqual([b]);
    expect(second.index.typos.ready).toBe(true);
    expect(second.index.lastLoad?.from).toBe('snapshot');
    expect(warn).not.toHaveBeenCalled();

    // A typo index of another snapshot is not used: built from the vocabulary, same answers.
    await store.write((tx) => tx.put('indexes', { ...typos!, saved: 'another' }));
    const third = await start(store);
    expect(await third.search('chekcsum')).toEqual([a]);
    expect(await third.search('telsecope')).toEqual([b]);
    expect(third.index.lastLoad?.from).toBe('snapshot');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('saved typo index is unreadable'));
  });

  it('answers and saves without the typo index when FlexSearch cannot be loaded', async () => {
    const store = new MemoryStore();
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    const a = await first.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // As in a worker that has not loaded it yet (an earlier test of this file did).
    vi.spyOn(TypoIndex, 'loaded', 'get').mockReturnValue(false);
    vi.spyOn(TypoIndex.prototype, 'load').mockRejectedValue(new Error('offline'));
    const answer = await first.call('GET', '/assets/search?query=chekcsum+sha256&transferables=false');
    expect(answer.status).toBe(200);
    expect(answer.json().iterable.map((r: any) => r.identifier)).toEqual([a]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('no typo lookups for now (offline)'));
    await first.index.flush();
    expect((await snapshotOf(store))?.seq).toBe(await lastSeq(first.ctx));
    expect(await store.read((tx) => tx.get('indexes', SNAPSHOT_TYPOS_ID))).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('the typo index is not saved (offline)'));
  });

  it('keeps the documents\' metadata apart: a first plain query does without it, a tag search reads it, a missing one means a rebuild', async () => {
    const store = new MemoryStore();
    const first = await start(store);
    const tagged = fragmentSeed('def parse_config(path): return yaml.safe_load(open(path))', { tags: [{ text: 'yaml' }] });
    const a = (await first.call('POST', '/assets/create', tagged)).json().id as string;
    const b = await first.create('def parse_args(argv): return argparse.ArgumentParser().parse_args(argv)');
    expect((await first.search('parse')).sort()).toEqual([a, b].sort());
    await first.index.flush();
    const meta = (await store.read((tx) => tx.get('indexes', SNAPSHOT_META_ID))) as SearchMetaSnapshot | undefined;
    const core = (await snapshotOf(store))!;
    expect(meta).toMatchObject({ version: SNAPSHOT_VERSION, seq: core.seq, saved: core.saved });
    expect(meta!.data).toHaveLength(2);
    expect(core.data.meta).toBeUndefined();

    const second = await start(store);
    expect((await second.search('parse')).sort()).toEqual([a, b].sort());
    expect(second.index.index.hasMeta).toBe(false);
    const byTag = await second.call('GET', '/assets/search?query=parse&searchable_tags=yaml&transferables=false');
    expect(byTag.json().iterable.map((r: any) => r.identifier)).toEqual([a]);
    expect(second.index.index.hasMeta).toBe(true);
    expect(second.index.lastLoad?.from).toBe('snapshot');

    // Metadata of another snapshot (or none): rebuilt from the store, same answers.
    await store.write((tx) => tx.put('indexes', { ...meta!, saved: 'another' }));
    const third = await start(store);
    expect((await third.search('parse')).sort()).toEqual([a, b].sort());
    const again = await third.call('GET', '/assets/search?searchable_tags=yaml&transferables=false');
    expect(again.json().iterable.map((r: any) => r.identifier)).toEqual([a]);
    expect(third.index.lastLoad?.from).toBe('rebuild');
  });

  it('finds a write committed after the snapshot, before the stop, that the index never saw', async () => {
    const store = new MemoryStore();
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    const a = await first.create('function debounce(fn, ms) { let t; return (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); }; }');
    expect(await first.search('debounce')).toEqual([a]);
    await first.index.flush();
    // Written, then the worker stops before anything catches up.
    const b = await first.create('function throttle(fn, ms) { let last = 0; return (...args) => { if (Date.now() - last > ms) { last = Date.now(); fn(...args); } }; }');
    const deleted = await first.create('function debounceOnce() {}');
    await first.call('POST', `/assets/${deleted}/delete`);

    const second = await start(store);
    expect(await second.search('throttle')).toEqual([b]);
    expect(await second.search('debounce')).toEqual([a]);
    expect(second.index.lastLoad?.from).toBe('snapshot');
  });

  for (const [engine, open] of Object.entries(STORES)) {
    it(`answers the writes committed while it rebuilds, which are not held up by the rebuild (${engine})`, async () => {
      const store = await open();
      try {
        // The rebuild reads each batch in a transaction of its own: once it has read the first batch of
        // assets, a create and a delete commit before it reads on.
        let during: (() => Promise<void>) | undefined;
        const hooked: Store = Object.assign(Object.create(store) as Store, {
          read: async <T,>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]) => {
            const out = await store.read(fn, scope);
            const run = scope?.length === 1 && scope[0] === 'assets' ? during : undefined;
            during = run ? undefined : during;
            await run?.();
            return out;
          },
        });
        const batched = { snapshotDelayMs: 60_000, syncDelayMs: 60_000, wholeLibraryAssets: 0 };
        const writer = await start(hooked, batched);
        const kept = await writer.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
        const deleted = await writer.create('function parseConfig(text) { return JSON.parse(text); }');

        const first = await start(hooked, batched);
        let created: string | undefined;
        during = async () => {
          created = await first.create('def tokenize(source): return lexer.scan(grammar, source)');
          await first.call('POST', `/assets/${deleted}/delete`);
        };
        expect(await first.search('checksum')).toEqual([kept]);
        expect(first.index.lastLoad?.from).toBe('rebuild');
        expect(during).toBeUndefined();
        expect(await first.search('tokenize grammar')).toEqual([created]);
        expect(await first.search('parseConfig')).toEqual([]);
        await first.index.flush();
      } finally {
        store.close();
      }
    });
  }

  it('follows writes in the background once loaded, and keeps the snapshot fresh', async () => {
    const store = new MemoryStore();
    const first = await start(store);
    await first.search('anything');
    const a = await first.create('SELECT * FROM orders WHERE shipped IS NULL;');
    await vi.waitFor(async () => expect((await snapshotOf(store))?.seq).toBe(await lastSeq(first.ctx)), { timeout: 2000, interval: 20 });
    expect(first.index.position).toBe(await lastSeq(first.ctx));
    expect(first.index.index.has(a)).toBe(true);
  });

  /** A library in one context (as in the hosts) whose import of `count` snippets its index then catches up on. */
  const importingLibrary = async (options: SearchIndexOptions, count: number) => {
    // One context for the app and the index, as in the hosts: the index takes the imported documents from
    // what this context wrote, so no read of the store makes the catch-up wait (and let other tasks run).
    const ctx = withDefaults({ store: new MemoryStore(), feed: new MemoryFeed(), classifier: await testClassifier(), loadModule: importModule });
    const index = useSearchIndex(ctx, options);
    await index.current();
    const app = createApp(ctx);
    const importSnippets = async () => {
      const iterable = Array.from({ length: count }, (_, i) => fragmentSeed(`def helper_${i}(rows): return [r * ${i} for r in rows if r]`));
      const response = await app.request('/api/assets/import', {
        method: 'POST',
        body: JSON.stringify({ iterable }),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
    };
    return { index, importSnippets };
  };

  it('catches up in the background a few milliseconds at a time, so other tasks run between; a search catches up at once', async () => {
    const library = (options: SearchIndexOptions) => importingLibrary(options, count);
    const count = 2000;

    // The background catch-up of an import: a timer that runs while it is under way sees it part done.
    const background = await library({ snapshotDelayMs: 60_000, syncDelayMs: 5 });
    await background.importSnippets();
    const seen = new Set<number>();
    while (background.index.index.size < count) {
      seen.add(background.index.index.size);
      await new Promise((r) => setTimeout(r, 0));
    }
    expect([...seen].some((size) => size > 0 && size < count)).toBe(true);

    // A search's catch-up (no background sync due) does not wait on timers.
    const foreground = await library({ snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    await foreground.importSnippets();
    expect(foreground.index.index.size).toBe(0);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await foreground.index.current();
    expect(foreground.index.index.size).toBe(count);
    expect(timers.mock.calls.filter(([, ms]) => !ms)).toEqual([]);
  });

  it('a search that comes while a background catch-up is under way has its turn: the catch-up yields no more until it ends', async () => {
    const count = 2000;
    const library = await importingLibrary({ snapshotDelayMs: 60_000, syncDelayMs: 5 }, count);
    await library.importSnippets();
    while (library.index.index.size === 0) await new Promise((r) => setTimeout(r, 0));
    expect(library.index.index.size).toBeLessThan(count);
    // The catch-up is waiting for its next slice. Had it gone on yielding every few milliseconds, the
    // search would wait for each turn the other tasks take (after an import: the vectors' embedding): a
    // task sampling the index's size between turns would see it part done.
    const before = library.index.index.size;
    const sizes: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        sizes.push(library.index.index.size);
        await new Promise((r) => setTimeout(r, 0));
      }
    })();
    await library.index.current();
    sampling = false;
    await sampler;
    expect(library.index.index.size).toBe(count);
    expect(sizes.filter((size) => size > before && size < count)).toEqual([]);
  });

  it('makes a snapshot in slices outside its lock: a search catches up and answers while the save is under way', async () => {
    const store = new MemoryStore();
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    for (let i = 0; i < 20; i++) await first.create(`def helper_${i}(rows): return rows[${i}]`);
    expect(await first.search('helper')).toHaveLength(20);
    // The snapshot's steps, watched; and a clock that moves 10 ms at each look, so that the save lets other
    // tasks in at each of them (at 100,000 assets it held the thread for about 0.8 s).
    const stepsOf = LexicalIndex.prototype.snapshotSteps;
    let making = false;
    vi.spyOn(LexicalIndex.prototype, 'snapshotSteps').mockImplementation(function (this: LexicalIndex<DocMeta>) {
      const steps = stepsOf.call(this);
      return (function* () {
        making = true;
        try {
          return yield* steps;
        } finally {
          making = false;
        }
      })();
    });
    let clock = performance.now();
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    const turn = () => new Promise((r) => setTimeout(r, 0));

    const saving = first.index.flush();
    for (let i = 0; !making && i < 100; i++) await turn();
    expect(making).toBe(true);
    let answered = false;
    void first.index.current().then(() => (answered = true));
    while (making && !answered) await turn();
    expect(answered).toBe(true);
    expect(making).toBe(true);
    await saving;
    expect((await snapshotOf(store))!.data.ids).toHaveLength(20);
  });

  it('saves the index it rebuilt soon, not after the quiet delay, and writes that follow do not put it off: a worker stopped soon after does not rebuild again', async () => {
    const store = new MemoryStore();
    const writer = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    const a = await writer.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
    expect(await snapshotOf(store)).toBeUndefined();

    // Each write is caught up within 5 ms, which asks for a save after the 60 s quiet delay.
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 5 });
    expect(await first.search('checksum')).toEqual([a]);
    expect(first.index.lastLoad?.from).toBe('rebuild');
    const rebuilt = await lastSeq(first.ctx);
    for (let i = 0; i < 4; i++) {
      await first.create(`const written${i} = ${i};`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Well within the 60 s delay a write would wait for.
    await vi.waitFor(async () => expect((await snapshotOf(store))?.seq).toBeGreaterThanOrEqual(rebuilt), { timeout: 5_000 });

    const next = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    expect(await next.search('checksum')).toEqual([a]);
    expect(next.index.lastLoad?.from).toBe('snapshot');
  });

  it('saves the index it rebuilt only after the search that asked for it has answered', async () => {
    /** A store whose asset reads take 30 ms and which notes when the snapshot is written. */
    class SlowAssetReads extends MemoryStore {
      snapshotWritten: number | undefined;
      override async read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
        if (scope?.includes('assets')) await new Promise((r) => setTimeout(r, 30));
        return super.read(fn, scope);
      }
      override async write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
        if (scope?.length === 1 && scope[0] === 'indexes') this.snapshotWritten ??= performance.now();
        return super.write(fn, scope);
      }
    }
    const store = new SlowAssetReads();
    const writer = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    const a = await writer.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');

    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    expect(await first.search('checksum')).toEqual([a]);
    const answered = performance.now();
    expect(first.index.lastLoad?.from).toBe('rebuild');
    await vi.waitFor(() => expect(store.snapshotWritten).toBeDefined(), { timeout: 5_000 });
    expect(store.snapshotWritten!).toBeGreaterThan(answered);
  });

  it('after a costly save, one change waits 20 times its cost, and many only 4 times', async () => {
    // Snapshot writes that take 500 ms: a save then costs that, and the next waits 20 times as long.
    const store = new SlowSnapshots(500);
    const first = await start(store, { snapshotDelayMs: 5, syncDelayMs: 5, eagerSaveChanges: 3 });
    first.index.follow();
    await first.create('def checksum(path): return hashlib.sha256(open(path, "rb").read()).hexdigest()');
    const saved = async () => (await snapshotOf(store))?.seq;
    await vi.waitFor(async () => expect(await saved()).toBe(await lastSeq(first.ctx)), { timeout: 5_000 });
    const before = await saved();

    // One change: the spacing (20 × 500 ms after that save) holds it back.
    await first.create('function parseConfig(text) { return JSON.parse(text); }');
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await saved()).toBe(before);

    // Three more make eagerSaveChanges unsaved: 4 × 500 ms after that save, long before 20 × would end.
    for (const text of ['SELECT id FROM users;', 'fn main() { println!("hi"); }', 'body { margin: 0; }']) await first.create(text);
    await vi.waitFor(async () => expect(await saved()).toBe(await lastSeq(first.ctx)), { timeout: 5_000 });
    const next = await start(store);
    expect(await next.search('parseConfig')).toHaveLength(1);
    expect(next.index.lastLoad?.from).toBe('snapshot');
  });

  it('rebuilds when the snapshot is of another version, unreadable, or older than the change log reaches', async () => {
    const store = new MemoryStore();
    const first = await start(store);
    const a = await first.create('fn main() { println!("hello from rust"); }');
    await first.search('rust');
    await first.index.flush();
    const good = (await snapshotOf(store))!;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const cases = [
      { ...good, version: SNAPSHOT_VERSION + 1 },
      { ...good, data: { terms: 'x', ids: ['nope'], meta: [], fwdStart: new Int32Array(0), fwdTerms: new Int32Array(0), fwdTfs: new Uint32Array(0), fieldLens: new Uint32Array(0) } },
      { ...good, data: { ...good.data, postBytes: [1, 2, 3] } },
      { ...good, data: 'garbage' },
      { ...good, seq: good.seq - CHANGE_LOG_SIZE - 1 },
    ];
    for (const record of cases) {
      await store.write((tx) => tx.put('indexes', record));
      const next = await start(store);
      expect(await next.search('rust')).toEqual([a]);
      expect(next.index.lastLoad?.from).toBe('rebuild');
    }
    expect(warn).toHaveBeenCalled();
  });

  it('never blocks or fails a user write when the snapshot cannot be saved', async () => {
    const store = new MemoryStore();
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    await first.create('alpha beta gamma');
    await first.search('alpha');
    const put = store.write.bind(store);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(store, 'write').mockImplementationOnce(() => Promise.reject(new Error('quota')));
    await first.index.flush();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not save the index'));
    expect(await snapshotOf(store)).toBeUndefined();
    vi.mocked(store.write).mockImplementation(put);
    const b = await first.create('delta epsilon');
    expect(await first.search('epsilon')).toEqual([b]);
    await first.index.flush();
    expect((await snapshotOf(store))?.seq).toBe(await lastSeq(first.ctx));
  });

  it('says nothing of a save that fails because its store was closed (a host shutting down), and warns of one that fails on an open store', async () => {
    const store = new MemoryStore();
    const first = await start(store, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    await first.create('alpha beta gamma');
    await first.search('alpha');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const write = vi.spyOn(store, 'write').mockImplementation(() => Promise.reject(new Error('the database is closed')));
    store.close();
    await first.index.flush();
    expect(write).toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    const open = new MemoryStore();
    const second = await start(open, { snapshotDelayMs: 60_000, syncDelayMs: 60_000 });
    await second.create('alpha beta gamma');
    await second.search('alpha');
    vi.spyOn(open, 'write').mockImplementation(() => Promise.reject(new Error('the database is closed')));
    await second.index.flush();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not save the index'));
  });

  it('a snapshot restored without metadata takes it later, keeping what was re-indexed meanwhile', () => {
    const fields = (word: string) => [[word], [], [], [], [], []];
    const full = new LexicalIndex<{ v: string }>();
    for (const id of ['a', 'b', 'c']) full.set(id, fields(`w${id}`), { v: `${id}0` });
    full.compact();
    const { meta, ...core } = full.snapshot();
    const restored = LexicalIndex.restore<{ v: string }>(core);
    expect(restored.hasMeta).toBe(false);
    expect(() => restored.meta('a')).toThrow(/before installMeta/);
    expect(() => restored.snapshot()).toThrow(/before installMeta/);
    restored.set('b', fields('wb'), { v: 'b1' }); // re-indexed before the metadata arrives
    restored.remove('c');
    expect(() => restored.installMeta(meta.slice(1))).toThrow(/2 metadata entries for 3/);
    restored.installMeta(meta);
    expect(['a', 'b', 'c'].map((id) => restored.meta(id)?.v)).toEqual(['a0', 'b1', undefined]);
    expect(restored.snapshot().meta).toHaveLength(2);
  });

  it('writes document metadata compactly and reads it back whole', () => {
    const meta: DocMeta = {
      name: 'x', created: 1, updated: 2, specifics: ['py'], generic: 'CODE', pseudo: false,
      tagIds: [], tags: [], websiteIds: ['w'], websites: ['https://a.example'], personIds: [], persons: [], usage: 0,
    };
    const text = DOC_META_CODEC.encode(meta);
    expect(text).toBe('{"name":"x","created":1,"updated":2,"specifics":["py"],"generic":"CODE","websiteIds":["w"],"websites":["https://a.example"]}');
    expect(DOC_META_CODEC.decode(text)).toEqual(meta);
    const full = { ...meta, pseudo: true, usage: 3, tags: ['t'], tagIds: ['i'] };
    expect(DOC_META_CODEC.decode(DOC_META_CODEC.encode(full))).toEqual(full);
  });

  it('reports where the time went in Server-Timing', async () => {
    const first = await start(new MemoryStore());
    await first.create('ping pong');
    const reply = await first.call('GET', '/assets/search?query=ping');
    expect(reply.timing).toMatch(/^wait;dur=[\d.]+, load;dur=[\d.]+, catchup;dur=[\d.]+, rank;dur=[\d.]+, assets;dur=[\d.]+$/);
    const again = await first.call('GET', '/assets/search?query=pong');
    expect(again.timing).toMatch(/^wait;dur=[\d.]+, catchup;dur=[\d.]+, rank;dur=[\d.]+, assets;dur=[\d.]+$/);
  });
});
