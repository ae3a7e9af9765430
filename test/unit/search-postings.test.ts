import { describe, expect, it } from 'vitest';
import { encodePostings, forEachPosting } from '../../worker/core/search/lexical/postings.ts';

function decodeAll(coded: ReturnType<typeof encodePostings>): [number, number][][] {
  return Array.from(coded.counts, (_, t) => {
    const out: [number, number][] = [];
    forEachPosting(coded.bytes, coded.start[t]!, coded.start[t + 1]!, (slot, packed) => out.push([slot, packed]));
    return out;
  });
}

describe('coded postings', () => {
  it('decode to the postings they were coded from, multi-byte gaps and 30-bit frequencies included', () => {
    // Term 0: slots 0, 1, 300, 70000, 2^31 - 2; term 1: none; term 2: slot 5 with every field at 31.
    const lists: [number, number][][] = [
      [[0, 1], [1, 32], [300, 1024], [70_000, 0x3fffffff], [2 ** 31 - 2, 33]],
      [],
      [[5, 0x3fffffff]],
    ];
    const start = new Int32Array(lists.length + 1);
    lists.forEach((list, t) => (start[t + 1] = start[t]! + list.length));
    const flat = lists.flat();
    const coded = encodePostings(start, Int32Array.from(flat, ([slot]) => slot), Uint32Array.from(flat, ([, packed]) => packed));
    expect(Array.from(coded.counts)).toEqual([5, 0, 1]);
    expect(coded.start[1]).toBe(coded.start[2]);
    expect(coded.start[3]).toBe(coded.bytes.length);
    expect(decodeAll(coded)).toEqual(lists);
  });

  it('take one byte for a small gap and a single small frequency', () => {
    const coded = encodePostings(Int32Array.from([0, 3]), Int32Array.from([0, 1, 2]), Uint32Array.from([1, 2, 3]));
    expect(coded.bytes.length).toBe(6);
  });
});
