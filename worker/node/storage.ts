/**
 * The storage of a Node host: PGlite in a data folder (the default: nothing to install or start), or the
 * PostgreSQL server of a URL, which several instances may share; with the feed that goes with it.
 */
import { join, resolve } from 'node:path';
import { LogFeed } from './log-feed.ts';
import { lockDataFolder, PgliteDatabase, PostgresDatabase, type Database } from './pg/database.ts';
import { PgListener } from './pg/listen.ts';
import { PgStore } from './pg/pg-store.ts';

/** The channel every instance's writes NOTIFY on (the payload names the schema). */
export const CHANGE_CHANNEL = 'tessera_changes';

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
    const folder = resolve(options.dataDir ?? '.tessera-data');
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
    const listener = shared ? new PgListener({ url: options.databaseUrl!, channel: CHANGE_CHANNEL, schema, onChange: () => feed.poke() }) : undefined;
    await listener?.start();
    return {
      store,
      feed,
      shared,
      describe,
      async close() {
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
