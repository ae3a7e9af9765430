import type { ServiceContext } from '../deps.ts';
import { keyedWrite } from '../idempotency.ts';
import type { ChangeRecord, CollectionName, SingleChangeRecord } from '../store/records.ts';
import { atSharedEnd } from '../store/write-batches.ts';
import type { ReadTx, WriteTx } from '../store/store.ts';
import type { ChangeEvent } from './feed.ts';
import type { DocumentParts } from '../search/documents.ts';

/** Collects which assets a write changed; one event per asset, the strongest kind wins. */
export class ChangeLog {
  readonly changes = new Map<string, ChangeEvent['kind']>();
  /** What the write stored of the assets it created, when it says (handed to the background indexes, written.ts). */
  readonly written = new Map<string, DocumentParts>();

  /** `parts`: everything the new asset's search document and vectors are made of, as stored. */
  created(asset: string, parts?: DocumentParts) {
    this.changes.set(asset, 'created');
    if (parts) this.written.set(asset, parts);
    else this.written.delete(asset);
  }
  updated(asset: string) {
    if (!this.changes.has(asset)) this.changes.set(asset, 'updated');
    this.written.delete(asset);
  }
  deleted(asset: string) {
    this.changes.set(asset, 'deleted');
    this.written.delete(asset);
  }
}

const SEQ_KEY = 'seq';
/** How many change-log entries are kept; a reader further behind than this takes a fresh snapshot. */
export const CHANGE_LOG_SIZE = 10_000;

/** The change-log key of a sequence number: zero-padded so that key order is numeric order. */
export const changeKey = (seq: number) => String(seq).padStart(16, '0');

/** What commit adds to every write's scope: the change log and its seq (in `meta`). */
export const LOG_SCOPE = ['changes', 'meta'] as const satisfies readonly CollectionName[];

/**
 * Runs one write as one transaction, numbers its changes and appends them to the change log inside
 * that transaction, and publishes them only after the commit, so a listener never hears of a write
 * that did not happen and a reader that missed an event finds it in the log. For a request sent with an
 * Idempotency-Key, the same transaction stores its response under the key (idempotency.ts).
 *
 * `scope` names the collections `fn` reads or writes; the change log, `meta` and `idempotency` are added
 * here. A user's write never names the derived collections (`indexes`, `snippets`), so in IndexedDB it
 * does not wait behind the search snapshot or the vectors being saved (test/unit/store-scopes.test.ts).
 */
export function commit<T>(ctx: ServiceContext, fn: (tx: WriteTx, log: ChangeLog) => Promise<T>, scope: readonly CollectionName[]): Promise<T> {
  return ctx.heard.during(() => commitLogged(ctx, fn, scope));
}

/** `commit`'s transaction, with its changes logged and then published. */
async function commitLogged<T>(ctx: ServiceContext, fn: (tx: WriteTx, log: ChangeLog) => Promise<T>, scope: readonly CollectionName[]): Promise<T> {
  const events: ChangeEvent[] = [];
  let log = new ChangeLog();
  const result = await keyedWrite(ctx, async (tx) => {
    // A write that shared a discarded transaction runs again (store/write-batches.ts): only the events
    // of the run that committed are published.
    events.length = 0;
    log = new ChangeLog();
    // In a transaction shared with writes before this one, their entry is still open (written at the
    // transaction's end) and holds the seq they reached; else the seq is asked for beside the write's own
    // requests, not after them: one round trip to the database fewer. (Nothing but this function writes
    // the seq, so the write cannot change it.)
    const open = openEntries.get(tx);
    const seqBefore = open ? Promise.resolve(open.seq) : readSeq(tx);
    seqBefore.catch(() => undefined); // a write that throws leaves it unread
    const out = await fn(tx, log);
    if (log.changes.size > 0) {
      const before = await seqBefore;
      const assets = [...log.changes.keys()];
      const kinds = [...log.changes.values()];
      for (const [i, asset] of assets.entries()) events.push({ seq: before + 1 + i, asset, kind: kinds[i]! });
      // One log entry for the write, however many assets it changed (an import: thousands); one for all
      // the writes of a shared transaction (creates in flight together), written at its end.
      if (open) {
        open.seq = before + assets.length;
        for (const [i, asset] of assets.entries()) open.assets.push(asset), open.kinds.push(kinds[i]!);
      } else {
        const entry: LogEntry = { seq: before + assets.length, assets, kinds };
        if (atSharedEnd(tx, () => writeEntry(tx, entry))) openEntries.set(tx, entry);
        else await writeEntry(tx, entry);
      }
    }
    return out;
  }, [...new Set([...scope, ...LOG_SCOPE])]);
  // Before publishing: a listener that reads at once finds them.
  for (const event of events) {
    const parts = log.written.get(event.asset);
    if (parts) ctx.written.remember(event.seq, parts);
  }
  try {
    ctx.feed.publish(events);
  } catch (error) {
    // The write is committed and in the log, where every reader finds it: it has not failed.
    console.error('commit: publishing committed changes failed', error);
  }
  return result;
}

/** The change-log entry of the writes so far of a transaction that several writes share (write-batches.ts). */
const openEntries = new WeakMap<WriteTx, LogEntry>();

/** A log entry before it is written (its id is its seq's key). */
type LogEntry = Omit<ChangeRecord, 'id'>;

/**
 * The log entry of changes up to `seq`, the seq itself, and the entries that fall out of the log in one
 * request: those whose last change is CHANGE_LOG_SIZE or more behind hold no change the log keeps.
 */
async function writeEntry(tx: WriteTx, { seq, assets, kinds }: LogEntry): Promise<void> {
  const writes = [tx.put('changes', { id: changeKey(seq), seq, assets, kinds }), tx.put('meta', { id: SEQ_KEY, value: seq })];
  if (seq > CHANGE_LOG_SIZE) writes.push(tx.deleteUpTo('changes', changeKey(seq - CHANGE_LOG_SIZE)));
  await Promise.all(writes);
}

/** The sequence number of the last committed change, read inside a transaction (0 before any). */
export async function readSeq(tx: ReadTx): Promise<number> {
  return Number((await tx.get('meta', SEQ_KEY))?.value ?? 0);
}

/** The sequence number of the last committed change (0 before any). */
export function lastSeq(ctx: ServiceContext): Promise<number> {
  return ctx.store.read(readSeq);
}

/**
 * The committed changes after `seq`, in commit order, or `undefined` when the log no longer reaches
 * back that far (the caller then starts again from a snapshot). While a write of this context is under
 * way, the events it heard when they reach back to `seq` (feed/heard.ts: the log's read would wait for
 * that write).
 */
export async function changesSince(ctx: ServiceContext, seq: number): Promise<ChangeEvent[] | undefined> {
  const heard = ctx.heard.writing ? ctx.heard.since(seq) : undefined;
  if (heard) return heard;
  return ctx.store.read((tx) => readChangesSince(tx, seq), LOG_SCOPE);
}

/** `changesSince` inside a transaction the caller holds (to read other records at the same point). */
export async function readChangesSince(tx: ReadTx, seq: number): Promise<ChangeEvent[] | undefined> {
  const last = await readSeq(tx);
  if (seq >= last) return [];
  if (last - seq > CHANGE_LOG_SIZE) return undefined;
  // The entries whose last change is after `seq`: at most one per change.
  const changes = loggedChanges(await tx.getRange('changes', changeKey(seq), last - seq)).filter((c) => c.seq > seq);
  // The log no longer holds them all (a library of an older version may have lost entries differently).
  if (changes.length !== last - seq || changes[0]?.seq !== seq + 1) return undefined;
  return changes;
}

/** The changes that log entries hold, in their order (entries in key order give commit order). */
export function loggedChanges(entries: readonly (ChangeRecord | SingleChangeRecord)[]): ChangeEvent[] {
  const out: ChangeEvent[] = [];
  for (const entry of entries) {
    if ('asset' in entry) {
      out.push({ seq: entry.seq, asset: entry.asset, kind: entry.kind });
      continue;
    }
    const first = entry.seq - entry.assets.length + 1;
    entry.assets.forEach((asset, i) => out.push({ seq: first + i, asset, kind: entry.kinds[i]! }));
  }
  return out;
}
