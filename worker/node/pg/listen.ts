/**
 * `LISTEN` on a dedicated PostgreSQL connection: each notification on the channel whose payload is our
 * schema calls `onChange` (pg-store.ts sends one in every write that appends to the change log; it only
 * says "look at the log"). The connection is made again when it breaks (backing off up to 5 s), and
 * `onChange` is called after every (re)connect, for what was committed while nobody listened; a poll
 * every `pollMs` covers anything else (a notification is never the only way a change is found).
 */
import pg from 'pg';
import { unref } from '../../core/timers.ts';

export interface ListenOptions {
  url: string;
  channel: string;
  /** Only notifications with this payload count (several libraries may share a database). */
  schema: string;
  onChange: () => void;
  /** Default 2000 ms. */
  pollMs?: number;
}

export class PgListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = 100;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private poll: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly options: ListenOptions) {}

  /** Connects and listens; rejects when the first connection fails. */
  async start(): Promise<void> {
    await this.connect();
    this.poll = unref(setInterval(() => this.options.onChange(), this.options.pollMs ?? 2000));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.poll);
    void this.client?.end().catch(() => undefined);
    this.client = undefined;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url });
    client.on('notification', (message) => {
      if (message.channel === this.options.channel && message.payload === this.options.schema) this.options.onChange();
    });
    client.on('error', (error) => {
      console.error(`feed: the LISTEN connection failed (${error.message}); connecting again`);
      this.broken(client);
    });
    client.on('end', () => this.broken(client));
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.options.channel)}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 100;
    // What was committed while nobody listened.
    this.options.onChange();
  }

  private broken(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    const again = () => {
      if (this.closed) return;
      this.connect().catch((error: unknown) => {
        console.error(`feed: LISTEN reconnect failed (${(error as Error).message}); retrying in ${this.retryMs} ms`);
        this.retryMs = Math.min(this.retryMs * 2, 5000);
        this.retry = unref(setTimeout(again, this.retryMs));
      });
    };
    this.retry = unref(setTimeout(again, this.retryMs));
  }
}
