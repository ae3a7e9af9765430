/**
 * The Store on PostgreSQL semantics: PGlite (embedded, the Node default) or a PostgreSQL server. One
 * collection is one table of `(id, data json)` (migrations.ts); records are JSON text (encode.ts).
 *
 * - `write` is one transaction (READ COMMITTED). On PostgreSQL it first takes a transaction-scoped
 *   advisory lock per collection in its scope, in name order: writes on shared collections run one at a
 *   time across every instance on the database (the change log's seq is read, incremented and written in
 *   the write, so it stays gap-free and in commit order), writes on disjoint collections side by side.
 * - `read` sees one snapshot (REPEATABLE READ, READ ONLY); PGlite runs transactions one at a time on its one
 *   connection, which is one snapshot already.
 * - Puts and deletes are staged and sent in batches (one statement per collection) before anything reads
 *   that collection and at commit; a get of a staged id is answered from the stage.
 * - As in IndexedDB (and MemoryStore), a transaction whose function awaits anything but its own calls (a
 *   timer, a fetch, another transaction) ends at that point: a write commits what it did so far, and later
 *   calls fail with `TransactionInactiveError`. So code that works on one store works on all, and a
 *   transaction never holds a connection (or PGlite's only one) while its function waits on other work.
 * - With `notify`, a write that appends to the change log sends `NOTIFY <channel>` in its transaction:
 *   PostgreSQL delivers it on commit only, and the listeners (pg-feed.ts) then read the log.
 */
import { ApiError } from '../../core/errors.ts';
import { unref } from '../../core/timers.ts';
import { COLLECTIONS, type CollectionName } from '../../core/store/records.ts';
import type { IndexQuery, ReadTx, Store, WriteTx } from '../../core/store/store.ts';
import type { Database, Lease, SqlClient } from './database.ts';
import { decodeRecord, encodeRecord } from './encode.ts';
import { indexColumns, indexKey, migrate, quote } from './migrations.ts';

export interface PgStoreOptions {
  /** The PostgreSQL schema holding the tables. Default `tessera`. */
  schema?: string;
  /** NOTIFY this channel (payload: the schema) in every write that appends to the change log. */
  notify?: string;
  /** Close the database when the store is closed. */
  ownsDatabase?: boolean;
}

/** Staged puts (encoded JSON) and deletes (null) beyond this many are sent before the next call goes on. */
const FLUSH_AT = 1000;
/** Rows per INSERT statement. */
const BATCH = 500;

export class PgStore implements Store {
  closed = false;
  private readonly tables: Record<CollectionName, string>;

  private constructor(
    readonly db: Database,
    readonly schema: string,
    private readonly options: PgStoreOptions,
  ) {
    const s = quote(schema);
    this.tables = Object.fromEntries(COLLECTIONS.map((c) => [c, `${s}.${quote(c)}`])) as Record<CollectionName, string>;
  }

  /** Opens the store on `db`, running the schema migrations first. */
  static async open(db: Database, options: PgStoreOptions = {}): Promise<PgStore> {
    const schema = options.schema ?? 'tessera';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name '${schema}'.`);
    await migrate(db, schema);
    return new PgStore(db, schema, options);
  }

  read<T>(fn: (tx: ReadTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    return this.run('read', fn as (tx: WriteTx) => Promise<T>, scope);
  }

  write<T>(fn: (tx: WriteTx) => Promise<T>, scope?: readonly CollectionName[]): Promise<T> {
    return this.run('write', fn, scope);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.options.ownsDatabase) void this.db.close().catch((error: unknown) => console.error('pg store: closing the database failed', error));
  }

  private async run<T>(mode: Mode, fn: (tx: WriteTx) => Promise<T>, scope: readonly CollectionName[] = COLLECTIONS): Promise<T> {
    if (this.closed) throw new DOMException('The store is closed.', 'InvalidStateError');
    const names = [...new Set(scope)].sort();
    let lease: Lease;
    try {
      lease = await this.db.lease(mode === 'write' ? names : undefined);
    } catch (error) {
      throw storageError(error);
    }
    const tx = new Transaction(this.tables, this.db.serial, lease, mode, scope, this.options.notify, this.schema);
    try {
      await tx.begin(names, quote(this.schema));
    } catch (error) {
      lease.release();
      throw storageError(error);
    }
    return tx.run(fn);
  }
}

type Mode = 'read' | 'write';

class Transaction {
  private state: 'active' | 'finishing' | 'done' = 'active';
  private finished: Promise<void> | undefined;
  private pending = 0;
  private inflight = new Set<Promise<unknown>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private immediate: unknown;
  /** Per collection, by id: the record as JSON text with its index keys, or null for a delete. */
  private staged = new Map<CollectionName, Map<string, Staged | null>>();
  private stagedCount = 0;
  private appended = false;
  private began = false;
  private readonly client: SqlClient;

  constructor(
    private readonly tables: Record<CollectionName, string>,
    private readonly serial: boolean,
    private readonly lease: Lease,
    private readonly mode: Mode,
    private readonly scope: readonly CollectionName[],
    private readonly notify: string | undefined,
    private readonly schema: string,
  ) {
    this.client = lease.client;
  }

  async begin(names: readonly string[], schema: string): Promise<void> {
    if (this.mode === 'write') {
      await this.client.query('BEGIN');
      this.began = true;
      if (!this.serial) await this.client.query(`SELECT ${schema}.lock_collections($1::text[])`, [names]);
    } else if (!this.serial) {
      await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      this.began = true;
    }
  }

  async run<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    this.armIdle();
    let result: T;
    try {
      result = await fn(this.api());
    } catch (error) {
      this.disarm();
      if (this.state === 'active') await this.finish(false).catch(() => undefined);
      else await this.finished?.catch(() => undefined);
      throw error;
    }
    this.disarm();
    // Ended early (its function awaited other work): what was done is committed, or the commit's error.
    if (this.state === 'active') await this.finish(true);
    else await this.finished;
    return result;
  }

  /** Commits (or rolls back) once every call under way has settled, then gives the connection back. */
  private finish(commit: boolean): Promise<void> {
    this.state = 'finishing';
    this.finished = (async () => {
      try {
        await Promise.allSettled([...this.inflight]);
        if (!this.began) return;
        if (commit && this.mode === 'write') {
          for (const c of [...this.staged.keys()]) await this.flush(c);
          if (this.appended && this.notify) await this.client.query('SELECT pg_notify($1, $2)', [this.notify, this.schema]);
        }
        await this.client.query(commit ? 'COMMIT' : 'ROLLBACK');
      } catch (error) {
        if (this.began) await this.client.query('ROLLBACK').catch(() => undefined);
        throw storageError(error);
      } finally {
        this.state = 'done';
        this.lease.release();
      }
    })();
    return this.finished;
  }

  // Idle: no call of ours under way and a task has run, so the function awaits something else.
  private armIdle(): void {
    this.disarm();
    const idle = () => {
      this.disarm();
      if (this.state === 'active' && this.pending === 0) this.finish(true).catch(() => undefined);
    };
    this.timer = unref(setTimeout(idle, 0));
    this.immediate = setImmediate(idle);
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate as NodeJS.Immediate);
    this.timer = this.immediate = undefined;
  }

  private call<T>(c: CollectionName, work: () => Promise<T>): Promise<T> {
    if (this.state !== 'active') {
      return Promise.reject(
        new DOMException(
          'The transaction has finished: its function awaited something other than its own calls, which ends a transaction (as IndexedDB commits an idle one).',
          'TransactionInactiveError',
        ),
      );
    }
    if (!this.scope.includes(c)) return Promise.reject(new DOMException(`'${c}' is not in this transaction's scope`, 'NotFoundError'));
    this.pending++;
    this.disarm();
    const promise: Promise<T> = work()
      .catch((error: unknown) => {
        throw storageError(error);
      })
      .finally(() => {
        this.inflight.delete(promise);
        if (--this.pending === 0 && this.state === 'active') this.armIdle();
      });
    this.inflight.add(promise);
    return promise;
  }

  private api(): WriteTx {
    const table = (c: CollectionName) => this.tables[c];
    const decode = <R,>(rows: { data: string }[]) => rows.map((r) => decodeRecord<R>(r.data));
    const tx: WriteTx = {
      get: (c, id) =>
        this.call(c, async () => {
          const staged = this.staged.get(c);
          if (staged?.has(id)) return fromStage(staged.get(id)!) as never;
          if (!storable(id)) return undefined as never;
          const rows = await this.client.query<{ data: string }>(`SELECT data::text AS data FROM ${table(c)} WHERE id = $1`, [id]);
          return (rows[0] ? decodeRecord(rows[0].data) : undefined) as never;
        }),
      getMany: (c, ids) =>
        this.call(c, async () => {
          const staged = this.staged.get(c);
          const wanted = [...new Set(ids.filter((id) => !staged?.has(id) && storable(id)))];
          const found = new Map<string, string>();
          if (wanted.length > 0) {
            const rows = await this.client.query<{ id: string; data: string }>(
              `SELECT id, data::text AS data FROM ${table(c)} WHERE id = ANY($1::text[])`,
              [wanted],
            );
            for (const row of rows) found.set(row.id, row.data);
          }
          const out = [];
          for (const id of ids) {
            const text = staged?.has(id) ? staged.get(id)?.text : found.get(id);
            if (text) out.push(decodeRecord(text));
          }
          return out as never;
        }),
      getAll: (c) =>
        this.call(c, async () => {
          await this.flush(c);
          return decode(await this.client.query(`SELECT data::text AS data FROM ${table(c)} ORDER BY id`)) as never;
        }),
      getRange: (c, after, limit) =>
        this.call(c, async () => {
          if (!(limit > 0)) return [];
          await this.flush(c);
          const bounded = Number.isFinite(limit);
          const params: unknown[] = after === undefined ? [] : [after];
          if (bounded) params.push(Math.floor(limit));
          const where = after === undefined ? '' : 'WHERE id > $1';
          const cap = bounded ? `LIMIT $${params.length}` : '';
          return decode(await this.client.query(`SELECT data::text AS data FROM ${table(c)} ${where} ORDER BY id ${cap}`, params)) as never;
        }),
      count: (c) =>
        this.call(c, async () => {
          await this.flush(c);
          const [row] = await this.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table(c)}`);
          return row?.n ?? 0;
        }),
      getAllFromIndex: (c, index, query, limit) =>
        this.call(c, async () => decode(await this.fromIndex(c, index, query, 'data::text AS data', limit)) as never),
      getKeysFromIndex: (c, index, query, limit) =>
        this.call(c, async () => (await this.fromIndex<{ id: string }>(c, index, query, 'id', limit)).map((r) => r.id)),
      countFromIndex: (c, index, query) =>
        this.call(c, async () => {
          const [row] = await this.fromIndex<{ n: number }>(c, index, query, 'count(*)::int AS n');
          return row?.n ?? 0;
        }),
      put: (c, record) =>
        this.call(c, async () => {
          if (this.mode !== 'write') throw new DOMException('A read transaction cannot put.', 'ReadOnlyError');
          this.stage(c, record.id, { text: encodeRecord(record), keys: indexColumns(c).map(({ keyPath }) => indexKey(record, keyPath)) });
          if (this.stagedCount >= FLUSH_AT) for (const name of [...this.staged.keys()]) await this.flush(name);
        }),
      delete: (c, id) =>
        this.call(c, async () => {
          if (this.mode !== 'write') throw new DOMException('A read transaction cannot delete.', 'ReadOnlyError');
          if (!storable(id)) return; // no stored record can have that id
          this.stage(c, id, null);
        }),
      deleteUpTo: (c, id) =>
        this.call(c, async () => {
          if (this.mode !== 'write') throw new DOMException('A read transaction cannot delete.', 'ReadOnlyError');
          // Staged changes first, so a put staged before this is deleted with the rest and one after it is not.
          await this.flush(c);
          await this.client.query(`DELETE FROM ${table(c)} WHERE id <= $1`, [id]);
        }),
    };
    return tx;
  }

  /** The rows an index query matches (flushing the collection's staged changes first), in index key then id order. */
  private async fromIndex<R = { data: string }>(c: CollectionName, index: string, query: IndexQuery, select: string, limit?: number): Promise<R[]> {
    if (!indexColumns(c).some((i) => i.name === index)) throw new DOMException(`'${c}' has no index '${index}'`, 'NotFoundError');
    if (limit !== undefined && !(limit > 0)) return [];
    await this.flush(c);
    const column = quote(index);
    const params: unknown[] = [];
    const where = [`${column} IS NOT NULL`];
    const bound = (op: string, key: string) => {
      params.push(key);
      where.push(`${column} ${op} $${params.length}`);
    };
    if (typeof query === 'string') {
      if (!storable(query)) return [];
      bound('=', query);
    } else {
      if (query.lower !== undefined) bound(query.lowerOpen ? '>' : '>=', query.lower.replaceAll('\0', ''));
      if (query.upper !== undefined) bound(query.upperOpen ? '<' : '<=', query.upper.replaceAll('\0', ''));
    }
    const counting = select.startsWith('count(');
    let sql = `SELECT ${select} FROM ${this.tables[c]} WHERE ${where.join(' AND ')}`;
    if (!counting) sql += ` ORDER BY ${column}, id`;
    if (!counting && limit !== undefined && Number.isFinite(limit)) {
      params.push(Math.floor(limit));
      sql += ` LIMIT $${params.length}`;
    }
    return this.client.query<R>(sql, params);
  }

  private stage(c: CollectionName, id: string, staged: Staged | null): void {
    if (typeof id !== 'string') throw new DOMException(`A record of '${c}' needs a string id.`, 'DataError');
    let changes = this.staged.get(c);
    if (!changes) this.staged.set(c, (changes = new Map()));
    if (!changes.has(id)) this.stagedCount++;
    changes.set(id, staged);
    if (c === 'changes' && staged !== null) this.appended = true;
  }

  /** Sends the staged changes of one collection. Taken off the stage first: later calls stage anew. */
  private async flush(c: CollectionName): Promise<void> {
    const changes = this.staged.get(c);
    if (!changes || changes.size === 0) return;
    this.staged.delete(c);
    this.stagedCount -= changes.size;
    const table = this.tables[c];
    const puts: [string, Staged][] = [];
    const deletes: string[] = [];
    for (const [id, staged] of changes) {
      if (staged === null) deletes.push(id);
      else puts.push([id, staged]);
    }
    if (deletes.length > 0) await this.client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [deletes]);
    if (puts.length === 0) return;
    const columns = indexColumns(c).map(({ name }) => quote(name));
    const names = ['id', 'data', ...columns].join(', ');
    const upsert = `ON CONFLICT (id) DO UPDATE SET ${['data', ...columns].map((n) => `${n} = EXCLUDED.${n}`).join(', ')}`;
    if (puts.length === 1) {
      const [id, { text, keys }] = puts[0]!;
      const values = ['$1', '$2::json', ...columns.map((_, i) => `$${i + 3}`)].join(', ');
      await this.client.query(`INSERT INTO ${table} (${names}) VALUES (${values}) ${upsert}`, [id, text, ...keys]);
      return;
    }
    const arrays = ['$1::text[]', '$2::json[]', ...columns.map((_, i) => `$${i + 3}::text[]`)].join(', ');
    for (let i = 0; i < puts.length; i += BATCH) {
      const batch = puts.slice(i, i + BATCH);
      await this.client.query(`INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays}) ${upsert}`, [
        batch.map(([id]) => id),
        batch.map(([, { text }]) => text),
        ...columns.map((_, k) => batch.map(([, { keys }]) => keys[k])),
      ]);
    }
  }
}

/** A staged put: the record as JSON text, and its key in each index column (indexColumns order). */
interface Staged {
  text: string;
  keys: (string | null)[];
}

function fromStage(staged: Staged | null) {
  return staged === null ? undefined : decodeRecord(staged.text);
}

/** Connection failures: the server went away, refused or dropped the connection, or shut down. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03']);

/**
 * PostgreSQL's errors as the core answers them: "disk full" as the QuotaExceededError it answers with 507
 * (services.ts), a lost or refused connection as a 503 (the next request gets a new connection).
 */
function storageError(error: unknown): unknown {
  if (error instanceof ApiError || error instanceof DOMException) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  if (code === '53100') return new DOMException(`The database is out of space: ${message}`, 'QuotaExceededError');
  if (NETWORK_CODES.has(code) || code.startsWith('08') || /Connection terminated|connection error|timeout exceeded when trying to connect/i.test(message)) {
    return new ApiError(
      503,
      'storage_unavailable',
      `The database cannot be reached (${message}). Try again; a write cut off while it committed may or may not have been stored.`,
    );
  }
  return error;
}

/**
 * Whether PostgreSQL can hold `id`: its text type has no U+0000, so an id with one (an asset id from a
 * hostile URL, `%00`) names no record: a read finds nothing and a delete does nothing, as in IndexedDB.
 */
function storable(id: string): boolean {
  return !id.includes('\0');
}
