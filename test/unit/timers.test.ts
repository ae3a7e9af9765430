/**
 * Work in steps (worker/core/timers.ts): `finish` runs them at once, `finishInSlices` lets other tasks in
 * once a slice has run its time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finish, finishInSlices, type Steps } from '../../worker/core/timers.ts';

function* counting(n: number): Steps<number> {
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    yield;
    sum += i;
  }
  return sum;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('steps', () => {
  it('finish runs them to the end at once', () => {
    expect(finish(counting(100))).toBe(5050);
  });

  it('finishInSlices lets other tasks in once a slice has run its time, and not before', async () => {
    // A clock that moves 10 ms at each look: every step outlasts a 5 ms slice, none a 1,000 ms one.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    const turns = vi.spyOn(globalThis, 'setTimeout');
    expect(await finishInSlices(counting(20), 5)).toBe(210);
    expect(turns.mock.calls.length).toBeGreaterThanOrEqual(20);
    turns.mockClear();
    expect(await finishInSlices(counting(20), 1000)).toBe(210);
    expect(turns.mock.calls).toEqual([]);
  });
});
