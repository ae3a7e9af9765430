/**
 * The storage of a Node host: PGlite in a data folder (the default: nothing to install or start), or the
 * PostgreSQL server of a URL, which several instances may share; with the feed that goes with it.
 */
import { join, resolve } from 'node:path';
import type { Deps } from '../core/deps.ts';
import { runningRequests } from '../core/streams/running.ts';
import { unref } from '../core/timers.ts';
import { LogFeed } from './log-feed.ts';
import { lockDataFolder, PgliteDatabase, PostgresDatabase, type Database } from './pg/database.ts';
import { PgListener } from './pg/listen.ts';
import { PgStore } from './pg/pg-store.ts';
import { PgRunningRelay, RUNNING_CHANNEL } from './pg/running-relay.ts';

/** PGlite's data folder when none is given, relative to the working directory. */
export const DEFAULT_DATA_DIR = '.tessera-data';

/** The channel every instance's writes NOTIFY on (the payload names the schema). */
export const CHANGE_CHANNEL = 'tessera_changes';
/** How often an instance on a shared database reads the change log without being told (a notification is never the only way a change is found). */
const POLL_MS = 2000;

export interface StorageOptions {
  /** PGlite's folder (created when missing). Default `.tessera-data`. */
  dataDir?: string;
  /** A PostgreSQL URL: use that server instead of PGlite. */
  databaseUrl?: string;
  /** The PostgreSQL schema of the library. Default `tessera`. */
  schema?: string;
}

export interface Storage {
  store: PgStore;
  feed: LogFeed;
  /** Whether other instances may write to the same database (PostgreSQL). */
  shared: boolean;
  /** Says where the library is kept, for the start message. */
  describe: string;
  /** What the core needs from the storage beyond store and feed: on PostgreSQL, the relay to the other instances' running requests. */
  deps: Partial<Deps>;
  close(): Promise<void>;
}

export async function openStorage(options: StorageOptions = {}): Promise<Storage> {
  const schema = options.schema ?? 'tessera';
  let db: Database;
  let unlock = () => {};
  let describe: string;
  if (options.databaseUrl) {
    db = await PostgresDatabase.open({ url: options.databaseUrl });
    describe = `PostgreSQL ${redact(options.databaseUrl)}, schema ${schema}`;
  } else {
    const folder = resolve(options.dataDir ?? DEFAULT_DATA_DIR);
    unlock = lockDataFolder(folder);
    try {
      db = await PgliteDatabase.open({ dataDir: join(folder, 'pglite') });
    } catch (error) {
      unlock();
      throw error;
    }
    describe = `PGlite in ${folder}`;
  }
  try {
    const shared = db.kind === 'postgres';
    const store = await PgStore.open(db, { schema, ...(shared ? { notify: CHANGE_CHANNEL } : {}) });
    const feed = await LogFeed.start(store);
    let listener: PgListener | undefined;
    let relay: PgRunningRelay | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    if (db instanceof PostgresDatabase) {
      const session = new PgListener({
        url: db.url,
        channels: {
          [CHANGE_CHANNEL]: (payload) => {
            if (payload === schema) feed.poke();
          },
          [RUNNING_CHANNEL]: (payload) => relay!.receive(payload),
        },
        async onConnect(client) {
          // What was committed, and what ran here, while nobody listened.
          feed.poke();
          await relay!.relock(client);
        },
      });
      relay = new PgRunningRelay({ schema, session: () => session.session, pool: db.pool, local: runningRequests(store) });
      listener = session;
      await listener.start();
      poll = unref(setInterval(() => feed.poke(), POLL_MS));
    }
    return {
      store,
      feed,
      shared,
      describe,
      deps: relay ? { otherInstances: relay } : {},
      async close() {
        clearInterval(poll);
        listener?.close();
        feed.close();
        store.close();
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    unlock();
    throw error;
  }
}

/** The URL without its password. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(the given URL)';
  }
}
