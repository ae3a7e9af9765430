/**
 * The two PostgreSQL engines behind one small interface: embedded PGlite (PostgreSQL in WASM, one
 * connection in this process, kept in a data folder or in memory) and a PostgreSQL server through
 * node-postgres (a pool of connections, shared with other Tessera instances).
 *
 * A transaction holds a `Lease` on a connection: PGlite's one connection exclusively (so PGlite runs one
 * transaction at a time, reads included), or a pooled connection. A write's lease on PostgreSQL also waits
 * for this process's other writes on the same collections (in-process, first come first served), so a
 * write does not hold a pooled connection while it waits for the database's lock held by a sibling.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { exclusive } from '../../core/exclusive.ts';

export interface SqlClient {
  /** One statement; `$1`… are `params`. */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Several statements separated by semicolons, without parameters (migrations). */
  script(sql: string): Promise<void>;
}

export interface Lease {
  client: SqlClient;
  release(): void;
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /** True when one connection runs every transaction in turn (PGlite): no other session can interleave. */
  readonly serial: boolean;
  /** A connection for one transaction; `writes` names the collections a write will lock (undefined: a read). */
  lease(writes?: readonly string[]): Promise<Lease>;
  close(): Promise<void>;
}

/** Runs one holder at a time, in the order they asked. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const before = this.tail;
    this.tail = before.then(() => held);
    await before;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }
}

/**
 * Per-name locks, first come first served: a holder of a set of names waits for every earlier holder of
 * any of them. All of a holder's names are queued at once, so two holders never wait for each other.
 */
export class ScopeLocks {
  private tails = new Map<string, Promise<void>>();

  async acquire(names: readonly string[]): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const before = names.map((name) => this.tails.get(name));
    for (const name of names) this.tails.set(name, held);
    await Promise.all(before);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      for (const name of names) if (this.tails.get(name) === held) this.tails.delete(name);
    };
  }
}

export interface PgliteOptions {
  /** Where PGlite keeps its files; in memory when undefined. */
  dataDir?: string;
  /** A data folder tarball (`dumpDataDir`) to start from instead of running initdb (tests: much faster). */
  loadDataDir?: Blob;
}

/** PGlite: PostgreSQL in this process, one connection. */
export class PgliteDatabase implements Database {
  readonly kind = 'pglite';
  readonly serial = true;
  private mutex = new Mutex();
  private client: SqlClient;

  private constructor(readonly pglite: PGlite) {
    this.client = {
      // Parameters are written into the statement as literals: PGlite answers a statement without
      // parameters several times faster (a parameterised one costs it a Describe round first: 1.15 ms
      // against 0.14 ms for a primary-key read, measured here).
      query: async <R,>(sql: string, params?: unknown[]) => (await pglite.query<R>(params?.length ? inline(sql, params) : sql)).rows,
      script: async (sql: string) => {
        await pglite.exec(sql);
      },
    };
  }

  static async open(options: PgliteOptions = {}): Promise<PgliteDatabase> {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    const pglite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    // `inline` quotes strings by doubling single quotes, which is exact only with this setting (the
    // default since PostgreSQL 9.1; set here so that nothing can turn it off).
    await pglite.exec('SET standard_conforming_strings = on');
    return new PgliteDatabase(pglite);
  }

  async lease(): Promise<Lease> {
    const release = await this.mutex.acquire();
    return { client: this.client, release };
  }

  async close(): Promise<void> {
    const release = await this.mutex.acquire();
    try {
      if (!this.pglite.closed) await this.pglite.close();
    } finally {
      release();
    }
  }
}

export interface PostgresOptions {
  url: string;
  /** Pool size. Default 10. */
  max?: number;
}

/** A PostgreSQL server through node-postgres' pool. */
export class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  readonly serial = false;
  private locks = new ScopeLocks();

  private constructor(
    readonly pool: pg.Pool,
    readonly url: string,
  ) {}

  static async open(options: PostgresOptions): Promise<PostgresDatabase> {
    const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10 });
    // An idle pooled connection the server closed (a restart) must not crash the process: the pool drops it.
    pool.on('error', (error) => console.error(`postgres: an idle connection failed: ${error.message}`));
    const database = new PostgresDatabase(pool, options.url);
    // Fail now, with the server's message, rather than at the first request.
    const client = await pool.connect();
    client.release();
    return database;
  }

  async lease(writes?: readonly string[]): Promise<Lease> {
    const unlock = writes ? await this.locks.acquire(writes) : () => {};
    let connection: pg.PoolClient;
    try {
      connection = await this.pool.connect();
    } catch (error) {
      unlock();
      throw error;
    }
    // A checked-out connection that breaks emits 'error' on itself (the pool only listens to idle ones):
    // without a listener that would end the process. A broken one is destroyed on release, not pooled.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    connection.on('error', onError);
    let released = false;
    // A transaction's reads may be asked for side by side (Promise.all); a connection runs one query at a
    // time, and node-postgres's own queue for a busy client is deprecated (pg@9 removes it): queued here.
    const inTurn = exclusive();
    return {
      client: {
        query: <R,>(sql: string, params?: unknown[]) => inTurn(async () => (await connection.query(sql, params)).rows as R[]),
        script: (sql: string) =>
          inTurn(async () => {
            await connection.query(sql);
          }),
      },
      release: () => {
        if (released) return;
        released = true;
        connection.off('error', onError);
        connection.release(broken);
        unlock();
      },
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * `sql` with each `$n` replaced by the SQL literal of `params[n - 1]`: strings quoted (single quotes
 * doubled, exact under standard_conforming_strings), finite numbers as they are, null, and arrays of
 * strings and nulls as quoted array literals (the statement casts them: `$1::text[]`). Only for statements written
 * in this folder, whose text has no `$n` of its own.
 */
export function inline(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoteString(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => {
      if (item === null) return 'NULL';
      if (typeof item !== 'string') throw new TypeError('inline: arrays of strings and nulls only');
      return `"${item.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    });
    return quoteString(`{${items.join(',')}}`);
  }
  throw new TypeError(`inline: cannot write a ${typeof value} as a literal`);
}

function quoteString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Keeps a second process from opening the same PGlite data folder (two PostgreSQL backends on one folder
 * would corrupt it): a lock file with the owner's pid, taken over when that process is gone (a crash).
 */
export function lockDataFolder(folder: string): () => void {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'tessera.lock');
  let owner: number | undefined;
  try {
    owner = Number(readFileSync(path, 'utf8').trim());
  } catch {
    owner = undefined;
  }
  if (owner && owner !== process.pid && alive(owner)) {
    throw new Error(`The data folder ${folder} is in use by another Tessera (pid ${owner}). Stop it, or use another folder (--data).`);
  }
  writeFileSync(path, String(process.pid));
  return () => rmSync(path, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
