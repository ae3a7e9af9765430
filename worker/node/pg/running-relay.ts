/**
 * The `/qgpt/stream` requests of the instances that share a PostgreSQL library (OtherInstances in
 * worker/core/streams/running.ts): a stop, a reset or a conversation's delete sent to one instance ends a
 * request another instance runs, and a question in a conversation another instance is answering is a 409
 * as on one instance.
 *
 * No table: a running request is session-scoped advisory locks held on its instance's own session
 * (listen.ts), so they go with the instance when it dies. Each request holds three keys, hashes of the
 * schema and: its conversation, exclusive (the claim: no second instance takes it); its conversation and
 * socket (what a stop ends), and its socket (what a reset ends), both shared.
 *
 * To end a target elsewhere, an instance looks in pg_locks whether a session holds its key; if one does it
 * sends `end <reason> <key>` on RUNNING_CHANNEL, the holder ends those requests as a local stop would, and
 * the sender waits until no session holds the key: woken by each `released` message (sent when a request
 * lets its locks go), and checking every CHECK_MS for a holder that died.
 */
import type pg from 'pg';
import { unref } from '../../core/timers.ts';
import type { EndReason, OtherInstances, RunningRequests, RunningTarget } from '../../core/streams/running.ts';

export const RUNNING_CHANNEL = 'tessera_running';

const CHECK_MS = 500;
/** An end stops waiting after this long for a request that does not end (its instance hangs), and says so. */
const GIVE_UP_MS = 30_000;
const REASONS: ReadonlySet<string> = new Set<EndReason>(['stop', 'reset', 'closed']);

/** The key of a text (a bigint as text), and whether any session holds an advisory lock on it. */
const HELD = `SELECT k::text AS key, EXISTS (
  SELECT 1 FROM pg_locks
  WHERE locktype = 'advisory' AND granted AND objsubid = 1
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND classid = ((k >> 32) & 4294967295)::oid AND objid = (k & 4294967295)::oid
) AS held FROM (SELECT hashtextextended($1, 0) AS k) AS hashed`;

interface Claim {
  socket: string | undefined;
  /** Its locks' keys (conversation, stop, socket) while this session holds them. */
  keys?: [string, string, string] | undefined;
}

export interface RelayOptions {
  /** The library's schema: requests of other libraries on the same database are others'. */
  schema: string;
  /** The instance's own session (listen.ts), which holds its locks; undefined while it reconnects. */
  session(): pg.Client | undefined;
  /** For an end's checks and message. */
  pool: pg.Pool;
  /** This instance's running requests. */
  local: RunningRequests;
}

export class PgRunningRelay implements OtherInstances {
  /** The requests running here, by conversation. */
  private readonly claims = new Map<string, Claim>();
  private readonly waiting = new Set<() => void>();

  constructor(private readonly options: RelayOptions) {}

  async claim(conversation: string, socket: string | undefined): Promise<boolean> {
    const claim: Claim = { socket };
    this.claims.set(conversation, claim);
    if (await this.lock(conversation, claim)) return true;
    this.claims.delete(conversation);
    return false;
  }

  release(conversation: string): void {
    const claim = this.claims.get(conversation);
    if (!claim) return;
    this.claims.delete(conversation);
    void this.unlock(claim);
  }

  async end(target: RunningTarget, reason: EndReason): Promise<void> {
    try {
      const check = async () => (await this.options.pool.query<{ key: string; held: boolean }>(HELD, [this.keyText(target)])).rows[0]!;
      const { key, held } = await check();
      if (!held) return;
      await this.options.pool.query('SELECT pg_notify($1, $2)', [RUNNING_CHANNEL, `end ${reason} ${key}`]);
      const giveUp = Date.now() + GIVE_UP_MS;
      while ((await check()).held) {
        if (Date.now() > giveUp) {
          console.warn(`qgpt: a request another instance runs did not end within ${GIVE_UP_MS} ms of ${reason}`);
          return;
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            this.waiting.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = unref(setTimeout(wake, CHECK_MS));
          this.waiting.add(wake);
        });
      }
    } catch (error) {
      console.error(`qgpt: the other instances could not be asked to ${reason} (${(error as Error).message})`);
    }
  }

  /** A message on RUNNING_CHANNEL. */
  receive(payload: string): void {
    if (payload === 'released') {
      for (const wake of [...this.waiting]) wake();
      return;
    }
    const [kind, reason, key] = payload.split(' ');
    if (kind !== 'end' || !reason || !REASONS.has(reason)) return;
    for (const [conversation, claim] of this.claims) {
      const at = claim.keys?.indexOf(key!) ?? -1;
      if (at < 0) continue;
      const target: RunningTarget =
        at === 0 ? { scope: 'conversation', conversation } : at === 1 ? { scope: 'stop', conversation, socket: claim.socket } : { scope: 'socket', socket: claim.socket };
      void this.options.local.end(target, reason as EndReason);
      return;
    }
  }

  /** After the session was made again (its locks went with the old one): takes them again. */
  async relock(session: pg.Client): Promise<void> {
    for (const [conversation, claim] of this.claims) {
      if (!(await this.lock(conversation, claim, session))) console.warn(`qgpt: conversation '${conversation}' was claimed by another instance while this one reconnected`);
    }
  }

  /** Takes the claim's locks; false when another session holds its conversation. Without a session it counts as taken (relock takes it). */
  private async lock(conversation: string, claim: Claim, session = this.options.session()): Promise<boolean> {
    if (!session) return true;
    const texts = [this.keyText({ scope: 'conversation', conversation }), this.keyText({ scope: 'stop', conversation, socket: claim.socket }), this.keyText({ scope: 'socket', socket: claim.socket })];
    try {
      const [row] = (
        await session.query<{ c: string; s: string; o: string; claimed: boolean }>(
          'SELECT hashtextextended($1, 0)::text AS c, hashtextextended($2, 0)::text AS s, hashtextextended($3, 0)::text AS o, pg_try_advisory_lock(hashtextextended($1, 0)) AS claimed',
          texts,
        )
      ).rows;
      if (!row!.claimed) return false;
      await session.query('SELECT pg_advisory_lock_shared($1::bigint), pg_advisory_lock_shared($2::bigint)', [row!.s, row!.o]);
      claim.keys = [row!.c, row!.s, row!.o];
      // Released while the locks were being taken: let them go.
      if (this.claims.get(conversation) !== claim) await this.unlock(claim);
      return true;
    } catch (error) {
      console.error(`qgpt: could not claim conversation '${conversation}' in the database (${(error as Error).message}); it is claimed once the session is back`);
      return true;
    }
  }

  private async unlock(claim: Claim): Promise<void> {
    const session = this.options.session();
    const keys = claim.keys;
    claim.keys = undefined;
    if (!keys || !session) return;
    try {
      await session.query('SELECT pg_advisory_unlock($1::bigint), pg_advisory_unlock_shared($2::bigint), pg_advisory_unlock_shared($3::bigint), pg_notify($4, $5)', [...keys, RUNNING_CHANNEL, 'released']);
    } catch (error) {
      // The session broke: its locks went with it.
      console.error(`qgpt: could not release a conversation's locks (${(error as Error).message})`);
    }
  }

  private keyText(target: RunningTarget): string {
    const { schema } = this.options;
    if (target.scope === 'conversation') return JSON.stringify([schema, 'conversation', target.conversation]);
    if (target.scope === 'stop') return JSON.stringify([schema, 'stop', target.conversation, target.socket ?? null]);
    return JSON.stringify([schema, 'socket', target.socket ?? null]);
  }
}
