import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../worker/core/ids.ts';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  it('makes version 4 UUIDs, as crypto.randomUUID does, all different across many pools of random bytes', () => {
    const ids = Array.from({ length: 20_000 }, randomUuid);
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads every hex digit over every free position (no byte stuck, none reused)', () => {
    const ids = Array.from({ length: 4_000 }, randomUuid).map((id) => id.replaceAll('-', ''));
    for (let position = 0; position < 32; position++) {
      if (position === 12 || position === 16) continue; // the version, and the variant's digit
      const digits = new Set(ids.map((id) => id[position]));
      expect(digits.size, `position ${position}`).toBe(16);
    }
    expect(new Set(ids.map((id) => id[16]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });
});
