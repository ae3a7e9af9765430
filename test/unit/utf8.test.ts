import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../worker/core/utf8.ts';

const encoded = (text: string) => new TextEncoder().encode(text);

describe('utf8Bytes: the same bytes as TextEncoder.encode', () => {
  it('for ASCII alone (the buffer of the string length, exactly filled)', () => {
    for (const text of ['', 'a', '{"iterable":[]}', 'x'.repeat(100_000)]) {
      const bytes = utf8Bytes(text);
      expect(bytes).toEqual(encoded(text));
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
  });

  it('for text that is not ASCII where it starts, in its middle and at its end', () => {
    const ascii = 'def parse(path):\n    return 1\n'.repeat(50);
    for (const other of ['é', '€', '日本語', '😀', 'a😀b', '\u{10FFFF}']) {
      for (const text of [other + ascii, ascii + other + ascii, ascii + other, other.repeat(300)]) {
        expect(utf8Bytes(text)).toEqual(encoded(text));
      }
    }
  });

  it('for a surrogate pair where the first buffer runs out, with 1, 2 or 3 bytes of it left', () => {
    for (const text of ['ab😀c', '€😀abc', 'é😀', 'é😀x', 'a😀', '😀', '😀😀']) expect(utf8Bytes(text)).toEqual(encoded(text));
  });

  it('for lone surrogates (each a replacement character, as encode gives)', () => {
    for (const text of ['\ud800', 'a\udc00b', `${'x'.repeat(10)}\ud83d`, '\ud83d\ud83d\ude00']) {
      expect(utf8Bytes(text)).toEqual(encoded(text));
    }
  });

  it('for random strings of every kind of code unit', () => {
    let seed = 12_345;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    const pools = [0x80, 0x800, 0x10000];
    const kinds = new Set<string>();
    for (let round = 0; round < 300; round++) {
      const units: number[] = [];
      const length = next() % 200;
      for (let i = 0; i < length; i++) units.push(next() % 4 === 0 ? next() % pools[next() % pools.length]! : 0x20 + (next() % 95));
      const text = String.fromCharCode(...units);
      expect(utf8Bytes(text)).toEqual(encoded(text));
      for (const unit of units) kinds.add(unit < 0x80 ? 'ascii' : unit < 0x800 ? 'two bytes' : unit >= 0xd800 && unit < 0xe000 ? 'surrogate' : 'three bytes');
    }
    expect([...kinds].sort()).toEqual(['ascii', 'surrogate', 'three bytes', 'two bytes']);
  });
});
