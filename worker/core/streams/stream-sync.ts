/**
 * The sending side of one live stream: turns a snapshot and seq-numbered change events into the frames a
 * WebSocket client expects, with no gap and no duplicate. Pure logic over an injected transport, so it
 * runs (and is tested) anywhere: in the page behind TesseraSocket (app/client/socket.ts, over fetches and
 * the change channel) and in the Node host behind a real WebSocket (worker/node/sockets.ts, over direct
 * reads and the feed), so both send the same frames.
 *
 * 1. Events that arrive before the snapshot are buffered (the caller subscribes to the change channel
 *    BEFORE calling `start()`, so nothing committed after the snapshot's read can be missed).
 * 2. `start()` emits the snapshot frame and takes its seq.
 * 3. An event with seq <= current is a duplicate and dropped. On the identifiers stream, the event right
 *    after the current seq becomes a frame at once. Anything else (a gap: a lost message, a worker
 *    restarted, a tab in the background; or any event on an asset stream, which needs the asset) asks
 *    the worker for the changes after the current seq (`since`), with the assets, in one read. Only one
 *    such request runs at a time, so frames never reorder; events arriving meanwhile wait in the buffer.
 * 4. When the change log no longer reaches back, the reply is a fresh snapshot. Clients take only the
 *    FIRST frame as a snapshot and read later ones as deltas, so the identifiers stream sends one frame
 *    with every id of the snapshot plus `"deleted": true` items for the ids it had sent that are gone
 *    (right whether the client reads it as a snapshot or as a delta); an asset stream sends a deletion
 *    frame for each known asset that is gone, then the snapshot's Assets.
 * 5. `check()` (tab visible again, worker restarted) asks for changes after the current seq.
 */
import type { ChangeEvent } from '../feed/feed.ts';
import type { Asset, Assets, StreamedIdentifiers } from '../model/schemas.ts';
import { assetDelta, identifierDelta } from './frames.ts';
import type { StreamCatchUp, StreamFrame, StreamKind } from './protocol.ts';
import { sleep } from '../timers.ts';

export interface SyncTransport {
  /** The snapshot frame and the seq it reflects. */
  snapshot(): Promise<{ seq: number; frame: StreamFrame }>;
  /** The changes after `seq`, or a fresh snapshot. */
  since(seq: number): Promise<StreamCatchUp>;
}

export interface SyncOptions {
  kind: StreamKind;
  transport: SyncTransport;
  /** Called with each frame, in order. */
  emit(frame: StreamFrame): void;
  /** Called once when the worker cannot be reached any more (after the retries); the stream stops. */
  fail(error: unknown): void;
  /** Waits between attempts of a failed request; one attempt more than entries. */
  retryDelays?: readonly number[];
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_RETRY_DELAYS = [50, 100, 200, 400, 800, 1600, 3200];

/** Is this a change event as the worker publishes it? (The channel is open to any script of the origin.) */
export function isChangeEvent(value: unknown): value is ChangeEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(e.seq) &&
    (e.seq as number) > 0 &&
    typeof e.asset === 'string' &&
    (e.kind === 'created' || e.kind === 'updated' || e.kind === 'deleted')
  );
}

/**
 * The change events a message on the change channel carries: a commit's events go out as one array (one
 * message, not one per asset: an import of 1,000 assets posted 1,000); a single event is what a worker of
 * an earlier version posts. Anything else on the channel is ignored.
 */
export function changeEventsIn(data: unknown): ChangeEvent[] {
  return (Array.isArray(data) ? data : [data]).filter(isChangeEvent);
}

export class StreamSync {
  /** The seq of the last change reflected in the frames sent (-1 before the snapshot). */
  seq = -1;
  private started = false;
  private closed = false;
  private buffer: ChangeEvent[] = [];
  private pulling = false;
  private pullAgain = false;
  /** Asset streams: the last state sent of each asset (a deletion frame carries it). */
  private known = new Map<string, Asset>();
  /** Identifiers stream: the ids the client holds after the frames sent. */
  private knownIds = new Set<string>();
  private readonly retryDelays: readonly number[];
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: SyncOptions) {
    this.retryDelays = options.retryDelays ?? DEFAULT_RETRY_DELAYS;
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? sleep;
  }

  /** Fetches and emits the snapshot, then applies what arrived meanwhile. Rejects if there is no snapshot. */
  async start(): Promise<void> {
    const { seq, frame } = await this.options.transport.snapshot();
    if (this.closed) return;
    this.applySnapshot(frame, seq, false);
    this.started = true;
    this.drain();
  }

  /** A change event from the channel. */
  onEvent(event: ChangeEvent): void {
    if (this.closed) return;
    if (!this.started || this.pulling) {
      this.buffer.push(event);
      return;
    }
    this.process(event);
  }

  /** The worker's last seq, as it announced it: catch up when it differs from ours. */
  onHead(seq: number): void {
    if (this.closed || !this.started) return;
    if (seq !== this.seq) this.check();
  }

  /** Asks the worker whether anything was missed (cheap when nothing was). */
  check(): void {
    if (this.closed || !this.started) return;
    this.pull();
  }

  close(): void {
    this.closed = true;
    this.buffer = [];
  }

  private process(event: ChangeEvent): void {
    if (event.seq <= this.seq) return; // already reflected
    if (this.options.kind === 'identifiers' && event.seq === this.seq + 1) {
      this.seq = event.seq;
      this.emitIdentifier(event);
      return;
    }
    this.pull();
  }

  private drain(): void {
    while (this.buffer.length > 0 && !this.pulling && !this.closed) this.process(this.buffer.shift()!);
  }

  private pull(): void {
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = true;
    void this.pullLoop();
  }

  private async pullLoop(): Promise<void> {
    try {
      do {
        this.pullAgain = false;
        const reply = await this.withRetries(() => this.options.transport.since(this.seq));
        if (this.closed) return;
        if (this.applyCatchUp(reply)) continue;
        // The reply has a hole the worker did not report: never guess, start again from a snapshot.
        const { seq, frame } = await this.withRetries(() => this.options.transport.snapshot());
        if (this.closed) return;
        this.applySnapshot(frame, seq, true);
      } while (this.pullAgain && !this.closed);
    } catch (error) {
      if (!this.closed) {
        this.close();
        this.options.fail(error);
      }
      return;
    } finally {
      this.pulling = false;
    }
    this.drain();
  }

  private async withRetries<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (this.closed || attempt >= this.retryDelays.length) throw error;
        await this.sleep(this.retryDelays[attempt]!);
      }
    }
  }

  /** Applies a catch-up reply; false when its changes do not run without a hole up to its seq. */
  private applyCatchUp(reply: StreamCatchUp): boolean {
    if ('snapshot' in reply) {
      this.applySnapshot(reply.snapshot, reply.seq, true);
      return true;
    }
    for (const change of reply.changes) {
      if (change.seq <= this.seq) continue;
      if (change.seq !== this.seq + 1) return false;
      this.seq = change.seq;
      if (this.options.kind === 'identifiers') this.emitIdentifier(change);
      else {
        const frame = assetDelta(change, this.known, this.now);
        if (frame) this.options.emit(frame);
      }
    }
    return reply.seq <= this.seq;
  }

  private emitIdentifier(change: Pick<ChangeEvent, 'asset' | 'kind'>): void {
    if (change.kind === 'deleted') this.knownIds.delete(change.asset);
    else this.knownIds.add(change.asset);
    this.options.emit(identifierDelta(change));
  }

  private applySnapshot(frame: StreamFrame, seq: number, fresh: boolean): void {
    this.seq = seq;
    if (this.options.kind === 'identifiers') {
      const items = (frame as StreamedIdentifiers).iterable;
      const ids = new Set(items.flatMap((item) => (item.asset ? [item.asset.id] : [])));
      const gone = fresh ? [...this.knownIds].filter((id) => !ids.has(id)) : [];
      this.knownIds = ids;
      if (gone.length > 0) {
        this.options.emit({ iterable: [...items, ...gone.map((id) => ({ asset: { id }, deleted: true }))] });
        return;
      }
    } else {
      const assets = (frame as Assets).iterable;
      if (fresh) {
        const present = new Set(assets.map((a) => a.id));
        for (const id of [...this.known.keys()]) {
          if (present.has(id)) continue;
          const deletion = assetDelta({ seq, asset: id, kind: 'deleted' }, this.known, this.now);
          if (deletion) this.options.emit(deletion);
        }
      }
      this.known = new Map(assets.map((a) => [a.id, a]));
    }
    this.options.emit(frame);
  }
}
