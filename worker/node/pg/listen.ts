/**
 * An instance's own PostgreSQL session: a dedicated connection that `LISTEN`s on the given channels and
 * calls each channel's handler with a notification's payload, and holds session-scoped state (the advisory
 * locks of running-relay.ts). The connection is made again when it breaks (backing off up to 5 s), and
 * `onConnect` runs after every (re)connect, once listening, for what was missed while nobody listened (the
 * feed reads the change log; the relay takes its locks again).
 */
import pg from 'pg';
import { unref } from '../../core/timers.ts';

export interface ListenOptions {
  url: string;
  /** What a notification does, by channel: called with its payload. */
  channels: Record<string, (payload: string) => void>;
  /** After every (re)connect, once listening, with the new session. */
  onConnect(session: pg.Client): void | Promise<void>;
}

export class PgListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = 100;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: ListenOptions) {}

  /** The live session; undefined while it is being made again. */
  get session(): pg.Client | undefined {
    return this.client;
  }

  /** Connects and listens; rejects when the first connection fails. */
  async start(): Promise<void> {
    await this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    void this.client?.end().catch(() => undefined);
    this.client = undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url });
    client.on('notification', (message) => {
      if (message.payload !== undefined) this.options.channels[message.channel]?.(message.payload);
    });
    client.on('error', (error) => {
      console.error(`postgres: the LISTEN session failed (${error.message}); connecting again`);
      this.broken(client);
    });
    client.on('end', () => this.broken(client));
    await client.connect();
    for (const channel of Object.keys(this.options.channels)) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 100;
    try {
      await this.options.onConnect(client);
    } catch (error) {
      console.error('postgres: catching up after (re)connecting failed', error);
    }
  }

  private broken(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    const again = () => {
      if (this.closed) return;
      this.connect().catch((error: unknown) => {
        console.error(`postgres: LISTEN reconnect failed (${(error as Error).message}); retrying in ${this.retryMs} ms`);
        this.retryMs = Math.min(this.retryMs * 2, 5000);
        this.retry = unref(setTimeout(again, this.retryMs));
      });
    };
    this.retry = unref(setTimeout(again, this.retryMs));
  }
}
