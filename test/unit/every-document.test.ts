/**
 * Reading every asset's search document for a rebuild (search/documents.ts `readEveryDocument`): the same
 * documents as reading each asset alone (`readDocuments`), on every store. A small library is read in one
 * transaction with the change log's seq; a bigger one in batches side by side, each document handed over
 * before the reading ends, and a write let through between two batches.
 */
import { describe, expect, it } from 'vitest';
import { readSeq } from '../../worker/core/feed/commit.ts';
import { DOCUMENT_SCOPE, readDocuments, readEveryDocument, type SearchDocument } from '../../worker/core/search/documents.ts';
import type { ReadTx, Store } from '../../worker/core/store/store.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { STORES } from '../support/stores.ts';
import { createTestApi } from '../support/test-api.ts';

const byId = (docs: SearchDocument[]) => [...docs].sort((a, b) => (a.id < b.id ? -1 : 1));

for (const [engine, open] of Object.entries(STORES)) {
  describe(`readEveryDocument: ${engine}`, () => {
    it('hands over every document as reading each asset alone makes it, the first ones before the last batch is read', async () => {
      const store = await open();
      try {
        const api = await createTestApi({ store });
        const site = { url: 'https://example.com/docs', name: 'Docs' };
        const seeds = Array.from({ length: 11 }, (_, i) =>
          fragmentSeed(i % 2 ? `def step_${i}(x):\n    # adds ${i}\n    return x + ${i}` : `${PYTHON_SNIPPET}\n# copy ${i}`, {
            ...(i % 3 === 0 ? { tags: [{ text: `tag ${i}` }] } : {}),
            ...(i % 4 === 0 ? { websites: [site] } : {}),
          }),
        );
        const ids: string[] = (await api.post('/assets/import', { iterable: seeds })).json().iterable.map((r: { id: string }) => r.id);
        expect(ids).toHaveLength(11);
        // Parts that do not line up: an asset with a second format (a copy of its first), a format whose
        // content is gone, and an asset naming a format that does not exist.
        await store.write(async (tx) => {
          const [two, noContent, dangling] = await tx.getMany('assets', [ids[1]!, ids[2]!, ids[3]!]);
          const format = (await tx.get('formats', two!.formats[0]!))!;
          const content = (await tx.get('contents', format.id))!;
          const copy = `${format.id.slice(0, -1)}z`;
          await tx.put('formats', { ...format, id: copy });
          await tx.put('contents', { ...content, id: copy, fragment: { ...content.fragment!, string: { raw: 'SECOND_FORMAT text' } } });
          await tx.put('assets', { ...two!, formats: [...two!.formats, copy] });
          await tx.delete('contents', noContent!.formats[0]!);
          await tx.put('assets', { ...dangling!, formats: [...dangling!.formats, 'no-such-format'] });
        }, ['assets', 'formats', 'contents']);

        const expected = byId(await store.read((tx) => readDocuments(tx, ids), DOCUMENT_SCOPE));
        expect(expected.find((d) => d.id === ids[1])!.code).toContain('SECOND_FORMAT');
        const handed: { doc: SearchDocument; rangesAsked: number }[] = [];
        let rangesAsked = 0;
        const counting: Store = {
          ...store,
          read: (fn, scope) => store.read((tx) => fn({ ...tx, getRange: (c, after, limit) => (rangesAsked++, tx.getRange(c, after, limit)) } as ReadTx), scope),
        };
        const { count, seq } = await readEveryDocument(counting, (doc) => handed.push({ doc, rangesAsked }), { batch: 2, wholeUpTo: 10 });

        expect(count).toBe(11);
        expect(seq).toBe(await store.read(readSeq));
        expect(byId(handed.map((h) => h.doc))).toEqual(expected);
        // 11 assets, 12 formats and 11 contents in batches of 2 (a collection's reading ends at a batch
        // short of 2): 6 + 7 + 6 ranges. The first documents were handed over while later batches were
        // still to be asked for.
        expect(rangesAsked).toBe(19);
        expect(handed[0]!.rangesAsked).toBeLessThan(rangesAsked);
      } finally {
        store.close();
      }
    });

    it('lets a write on the collections it reads commit between two batches, and hands over what it then reads', async () => {
      const store = await open();
      try {
        const api = await createTestApi({ store });
        const seeds = Array.from({ length: 6 }, (_, i) => fragmentSeed(`def step_${i}(x):\n    return x + ${i}`));
        const ids: string[] = (await api.post('/assets/import', { iterable: seeds })).json().iterable.map((r: { id: string }) => r.id);
        // An asset record whose id sorts after every other, put (and committed) once the first batch of
        // assets is read and before it is handed over: were the whole read one transaction, IndexedDB would
        // hold the write until the reading ended, and this would never end.
        const last = `${[...ids].sort().at(-1)}~`;
        let written = false;
        const writing: Store = {
          ...store,
          read: async (fn, scope) => {
            const out = await store.read(fn, scope);
            if (!written && scope?.length === 1 && scope[0] === 'assets') {
              written = true;
              await store.write(async (tx) => tx.put('assets', { ...(await tx.get('assets', ids[0]!))!, id: last, formats: [] }), ['assets']);
            }
            return out;
          },
        };
        const handed: string[] = [];
        const seqBefore = await store.read(readSeq);
        const read = await readEveryDocument(writing, (doc) => handed.push(doc.id), { batch: 2, wholeUpTo: 0 });
        expect(read.count).toBe(7);
        expect(written).toBe(true);
        expect(handed).toContain(last);
        // The seq is the one before the write (which the caller's catch-up then applies again).
        expect(read.seq).toBe(seqBefore);
      } finally {
        store.close();
      }
    });

    it('reads a small library whole in one transaction, with the seq its documents are at', async () => {
      const store = await open();
      try {
        const api = await createTestApi({ store });
        const seeds = Array.from({ length: 5 }, (_, i) => fragmentSeed(`def step_${i}(x):\n    return x + ${i}`, i === 2 ? { tags: [{ text: 'kept' }] } : {}));
        const ids: string[] = (await api.post('/assets/import', { iterable: seeds })).json().iterable.map((r: { id: string }) => r.id);
        const expected = byId(await store.read((tx) => readDocuments(tx, ids), DOCUMENT_SCOPE));
        expect(expected.some((d) => d.tags === 'kept')).toBe(true);
        const scopes: (readonly string[] | undefined)[] = [];
        const counting: Store = { ...store, read: (fn, scope) => (scopes.push(scope), store.read(fn, scope)) };
        const handed: SearchDocument[] = [];

        const read = await readEveryDocument(counting, (doc) => handed.push(doc), { batch: 2, wholeUpTo: 5 });

        expect(read).toEqual({ count: 5, seq: await store.read(readSeq) });
        expect(byId(handed)).toEqual(expected);
        // One transaction, over every collection a document is made of and the seq's.
        expect(scopes).toEqual([[...DOCUMENT_SCOPE, 'meta']]);
      } finally {
        store.close();
      }
    });

    it('reads an empty library', async () => {
      const store = await open();
      try {
        const handed: SearchDocument[] = [];
        expect(await readEveryDocument(store, (doc) => handed.push(doc))).toEqual({ count: 0, seq: 0 });
        expect(handed).toEqual([]);
      } finally {
        store.close();
      }
    });
  });
}
