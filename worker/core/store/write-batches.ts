/**
 * Group commit for user writes. Every user write appends to the change log and bumps its sequence
 * number, so two of them never run side by side: each waited for the one before to commit, and a
 * transaction's commit costs about as much as the writes in it (IndexedDB: about half of a create, as
 * measured in Chromium with 8 creates in flight). So the writes that arrive while one commits share the
 * next transaction, run one after another inside it in arrival order, as they would have run alone.
 *
 * A write alone (nothing else waiting) is not delayed: it starts at once, as before. Each write stays
 * atomic: when one of a shared transaction's writes throws (a 404, a known idempotency key, a dry run) the
 * store discards the transaction, and every write of it runs again alone, so only that one fails.
 * A write's function may therefore run twice; it must keep its effects to the transaction and its result
 * (as every `commit` does). Not when a write ended the transaction early (it awaited something outside
 * it, a bug): what ran before may be committed, so every write of that transaction fails instead.
 * Background writes (the search snapshot, vectors, the relevant ring) keep their own transactions, on
 * their own collections.
 */
import type { CollectionName } from './records.ts';
import type { Store, WriteTx } from './store.ts';

/** At most this many writes share a transaction (an import is one write, however many assets it holds). */
const MAX_SHARED = 32;

interface Pending {
  fn: (tx: WriteTx) => Promise<unknown>;
  scope: readonly CollectionName[] | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

class WriteBatches {
  private queue: Pending[] = [];
  private draining = false;

  constructor(private readonly store: Store) {}

  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, scope, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.run(this.queue.splice(0, MAX_SHARED));
    } finally {
      this.draining = false;
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]!);
    let results: unknown[];
    let started = false;
    try {
      results = await this.store.write(async (tx) => {
        started = true;
        const ends: (() => Promise<void>)[] = [];
        sharedEnds.set(tx, ends);
        const out: unknown[] = [];
        for (const write of batch) out.push(await write.fn(tx));
        for (const end of ends) await end();
        return out;
      }, unionOf(batch));
    } catch (error) {
      // A write that awaited something outside the transaction ended it early (a bug in that write): what
      // ran before may be committed (the store contract), so nothing runs again, which could apply it twice.
      if (started && endedEarly(error)) return batch.forEach((write) => write.reject(error));
      for (const write of batch) await this.alone(write);
      return;
    }
    batch.forEach((write, i) => write.resolve(results[i]));
  }

  private async alone(write: Pending): Promise<void> {
    try {
      write.resolve(await this.store.write(write.fn, write.scope));
    } catch (error) {
      write.reject(error);
    }
  }
}

/** The error of a call on a transaction that had ended (IndexedDB's names, which every store uses). */
function endedEarly(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TransactionInactiveError' || name === 'InvalidStateError';
}

/** What the writes of a shared transaction left for its end (`atSharedEnd`), by transaction. */
const sharedEnds = new WeakMap<WriteTx, (() => Promise<void>)[]>();

/**
 * Has `fn` run in `tx` after the last write that shares it, before it commits, and answers true; false when
 * `tx` is a write's own (nothing is kept: the caller does the work itself). What the writes of one
 * transaction all do at their end is done once: the change log's entry and seq (feed/commit.ts).
 */
export function atSharedEnd(tx: WriteTx, fn: () => Promise<void>): boolean {
  const ends = sharedEnds.get(tx);
  if (!ends) return false;
  ends.push(fn);
  return true;
}

/** The collections of all the writes; undefined (all) when any of them names none. */
function unionOf(batch: readonly Pending[]): readonly CollectionName[] | undefined {
  if (batch.some((write) => write.scope === undefined)) return undefined;
  return [...new Set(batch.flatMap((write) => write.scope!))];
}

const batchesOf = new WeakMap<Store, WriteBatches>();

/** `store.write` for a user write: shares a transaction with the user writes that wait beside it. */
export function batchedWrite<T>(store: Store, fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
  let batches = batchesOf.get(store);
  if (!batches) batchesOf.set(store, (batches = new WriteBatches(store)));
  return batches.write(fn, scope);
}
