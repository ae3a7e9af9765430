import { describe, expect, it } from 'vitest';
import { FIELDS } from '../../worker/core/search/lexical/fields.ts';
import { LexicalIndex } from '../../worker/core/search/lexical/lexical-index.ts';
import type { QueryTerm } from '../../worker/core/search/lexical/ranking.ts';
import { terms } from '../../worker/core/search/tokenize.ts';
import { finish } from '../../worker/core/timers.ts';

type Fields = Partial<Record<(typeof FIELDS)[number], string>>;

function build(docs: Record<string, Fields>) {
  const index = new LexicalIndex<{ id: string }>();
  for (const [id, fields] of Object.entries(docs)) index.set(id, FIELDS.map((f) => terms(fields[f] ?? '')), { id });
  return index;
}

function query(index: LexicalIndex<unknown>, text: string): QueryTerm[] {
  return terms(text).flatMap((t, word) => {
    const id = index.termId(t);
    return id === undefined ? [] : [{ term: id, weight: 1, word, exact: true }];
  });
}

const ids = (index: LexicalIndex<unknown>, text: string, limit = 10) => index.search(query(index, text), limit).slots.map((s) => index.idOf(s));

describe('BM25F ranking', () => {
  it('ranks a rare term above a common one', () => {
    const index = build({
      a: { code: 'value value value' },
      b: { code: 'value zebra' },
      c: { code: 'value' },
      d: { code: 'value other' },
    });
    expect(ids(index, 'value zebra')[0]).toBe('b');
  });

  it('saturates term frequency: many repeats do not beat two distinct matches', () => {
    const index = build({
      spam: { code: 'socket '.repeat(30) },
      both: { code: 'socket timeout' },
      other: { code: 'unrelated words here' },
    });
    expect(ids(index, 'socket timeout')).toEqual(['both', 'spam']);
  });

  it('weighs the name above the code, and normalises by length', () => {
    const index = build({
      named: { name: 'retry', code: 'for attempt in range(3): call()' },
      body: { name: 'fetch', code: 'fetch the page and retry once on error' },
      long: { name: 'util', code: `retry ${'filler '.repeat(40)}` },
    });
    expect(ids(index, 'retry')).toEqual(['named', 'body', 'long']);
  });

  it('reports which fields and which query words matched', () => {
    const index = build({ a: { name: 'upload', tags: 'files' }, b: { prose: 'upload files' } });
    const hits = index.search(query(index, 'upload files'), 10);
    const a = hits.slots.indexOf(index.slot('a')!);
    expect(hits.fields[a]).toBe((1 << FIELDS.indexOf('name')) | (1 << FIELDS.indexOf('tags')));
    expect(hits.exactWords[a]).toBe(0b11);
  });

  it('keeps document frequencies exact through updates and deletes', () => {
    const index = build({ a: { code: 'alpha beta' }, b: { code: 'alpha' } });
    const alpha = index.termId('alpha')!;
    expect(index.docFreq(alpha)).toBe(2);
    index.set('a', FIELDS.map((f) => (f === 'code' ? ['gamma'] : [])), { id: 'a' });
    expect(index.docFreq(alpha)).toBe(1);
    expect(index.termId('beta')).toBeUndefined();
    index.remove('b');
    expect(index.termId('alpha')).toBeUndefined();
    expect(index.size).toBe(1);
    expect(ids(index, 'gamma')).toEqual(['a']);
    expect(index.retired).toBe(2);
  });

  it('honours an accept filter and a limit', () => {
    const docs: Record<string, Fields> = {};
    for (let i = 0; i < 50; i++) docs[`d${i}`] = { code: `common ${'word '.repeat(i)}` };
    const index = build(docs);
    const hits = index.search(query(index, 'common'), 5, (slot) => Number(index.idOf(slot)!.slice(1)) % 2 === 0);
    expect(hits.slots.length).toBe(5);
    expect(hits.slots.map((s) => index.idOf(s))).toEqual(['d0', 'd2', 'd4', 'd6', 'd8']);
  });

  it('finds terms by prefix, sorted and unsorted parts alike', () => {
    const index = build({ a: { code: 'argument argv' } });
    index.compact();
    index.set('b', FIELDS.map((f) => (f === 'code' ? ['argparse'] : [])), { id: 'b' });
    expect(index.withPrefix('arg', 10).map((t) => index.term(t)).sort()).toEqual(['argparse', 'argument', 'argv']);
  });

  it('answers the same after compact() and after a snapshot round trip', () => {
    const index = build({
      a: { name: 'read file', code: 'open(path).read()' },
      b: { code: 'write file to disk', tags: 'io' },
      c: { prose: 'read the docs', websites: 'https://example.com' },
    });
    index.remove('c');
    index.set('d', FIELDS.map((f) => (f === 'code' ? terms('read and write') : [])), { id: 'd' });
    const before = index.search(query(index, 'read file write'), 10);
    const beforeIds = before.slots.map((s) => index.idOf(s));
    const snapshot = structuredClone(index.snapshot());
    const restored = LexicalIndex.restore(snapshot);
    index.compact();
    for (const other of [index, restored]) {
      const after = other.search(query(other, 'read file write'), 10);
      expect(after.slots.map((s) => other.idOf(s))).toEqual(beforeIds);
      after.scores.forEach((score, i) => expect(score).toBeCloseTo(before.scores[i]!, 10));
      expect(other.meta('d')).toEqual({ id: 'd' });
      expect(other.size).toBe(3);
      expect(other.retired).toBe(0);
    }
  });

  it('a snapshot taken in steps is of the index as it was when taken, however the index changes before they end', () => {
    const index = build({ a: { code: 'alpha beta' }, b: { code: 'alpha gamma' }, c: { prose: 'delta' } });
    index.remove('c');
    const expected = index.snapshot();
    const steps = index.snapshotSteps();
    expect(steps.next().done).toBe(false);
    index.set('d', FIELDS.map((f) => (f === 'code' ? terms('epsilon alpha') : [])), { id: 'd' });
    index.set('a', FIELDS.map((f) => (f === 'name' ? terms('zeta') : [])), { id: 'a2' });
    index.remove('b');
    index.compact();
    expect(finish(steps)).toEqual(expected);
    expect(LexicalIndex.restore(structuredClone(expected)).size).toBe(2);
  });

  it('a restored index can be changed: removal and similarity read its terms back from the postings', () => {
    const restored = LexicalIndex.restore<{ id: string }>(structuredClone(build({ a: { code: 'alpha beta' }, b: { code: 'alpha gamma' } }).snapshot()));
    expect(restored.documentTerms(restored.slot('b')!).map((t) => restored.term(t.term)).sort()).toEqual(['alpha', 'gamma']);
    restored.remove('a');
    expect(restored.termId('beta')).toBeUndefined();
    expect(restored.docFreq(restored.termId('alpha')!)).toBe(1);
    restored.set('c', FIELDS.map((f) => (f === 'code' ? ['beta'] : [])), { id: 'c' }, 1);
    expect(ids(restored, 'alpha beta').sort()).toEqual(['b', 'c']);
    expect(restored.flags(restored.slot('c')!)).toBe(1);
    expect(restored.meta('b')).toEqual({ id: 'b' });
  });

  it('refuses an inconsistent snapshot', () => {
    const snapshot = build({ a: { code: 'x1 y1' } }).snapshot();
    expect(() => LexicalIndex.restore({ ...snapshot, ids: [] })).toThrow(/inconsistent/);
    expect(() => LexicalIndex.restore({ ...snapshot, terms: '' })).toThrow(/inconsistent/);
    expect(() => LexicalIndex.restore({ ...snapshot, postStart: snapshot.postStart.map((x, i) => (i === 1 ? 5 : x)) })).toThrow(/inconsistent/);
    // A slot out of range is never answered.
    expect(() => LexicalIndex.restore({ ...snapshot, postCounts: snapshot.postCounts.slice(1) })).toThrow(/inconsistent/);
    expect(() => LexicalIndex.restore({ ...snapshot, postBytes: snapshot.postBytes.slice(1) })).toThrow(/inconsistent/);
    // Here each posting is two one-byte varints (slot gap, frequencies): a gap of 7 puts every posting out of range.
    const odd = LexicalIndex.restore({ ...snapshot, postBytes: Uint8Array.from(snapshot.postBytes, (b, i) => (i % 2 === 0 ? 7 : b)) });
    expect(odd.search(query(odd, 'x1'), 10).slots).toEqual([]);
  });
});
