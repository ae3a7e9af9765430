/** test/bench/import-trace.ts sums a browser trace by process, thread and event. */
import { describe, expect, it } from 'vitest';
import { sumTrace } from '../bench/import-trace.ts';

describe('sumTrace', () => {
  it('adds up the complete events of each process, thread and name, largest first, named by the metadata events', () => {
    const sums = sumTrace([
      { ph: 'M', name: 'process_name', pid: 1, tid: 0, args: { name: 'Browser' } },
      { ph: 'M', name: 'thread_name', pid: 1, tid: 7, args: { name: 'ThreadPoolForegroundWorker' } },
      { ph: 'M', name: 'process_name', pid: 2, tid: 0, args: { name: 'Renderer' } },
      { ph: 'X', name: 'Database::PutOperation', pid: 1, tid: 7, dur: 400 },
      { ph: 'X', name: 'Database::PutOperation', pid: 1, tid: 7, dur: 600 },
      { ph: 'X', name: 'RunTask', pid: 2, tid: 9, dur: 3000 },
      // Not complete events, or without a duration: left out.
      { ph: 'B', name: 'RunTask', pid: 2, tid: 9 },
      { ph: 'X', name: 'RunTask', pid: 2, tid: 9 },
    ]);
    expect(sums).toEqual([
      { key: 'Renderer/9 RunTask', n: 1, ms: 3 },
      { key: 'Browser/ThreadPoolForegroundWorker Database::PutOperation', n: 2, ms: 1 },
    ]);
  });
});
