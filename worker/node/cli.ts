/**
 * `tessera serve [--port N] [--host ADDRESS] [--data DIR] [--database-url URL] [--schema NAME] [--token T]`
 * (bin/tessera.mjs, `npm run start:node`). Each option falls back on an environment variable: PORT,
 * TESSERA_HOST, TESSERA_DATA_DIR, DATABASE_URL, TESSERA_SCHEMA, TESSERA_TOKEN.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PORT, startHost, type Host, type HostOptions } from './host.ts';
import { DEFAULT_DATA_DIR } from './storage.ts';

export const USAGE = `Usage: tessera serve [options]

Serves the Tessera API (the desktop service's, at the root path) with real WebSockets for the streams.

Options (and the environment variable each falls back on):
  --port N             port to listen on; 0 takes a free one (PORT, default ${DEFAULT_PORT})
  --host ADDRESS       address to bind (TESSERA_HOST, default 127.0.0.1); any other than a
                       loopback address needs --token
  --data DIR           PGlite's data folder (TESSERA_DATA_DIR, default ${DEFAULT_DATA_DIR})
  --database-url URL   keep the library in this PostgreSQL database instead (DATABASE_URL, unless
                       --data is given); several instances may share it
  --schema NAME        the PostgreSQL schema of the library (TESSERA_SCHEMA, default tessera)
  --token T            every request must send 'Authorization: Bearer T' (TESSERA_TOKEN)
  -h, --help           this text
`;

/** What a command line asks for, with every option resolved (flag, else environment, else default). */
export type Command = { command: 'help' } | { command: 'serve'; options: HostOptions };

/** An environment variable set to '' counts as unset. */
export function resolveOptions(argv: string[], env: NodeJS.ProcessEnv): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'database-url': { type: 'string' },
      schema: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') return { command: 'help' };
  if (command !== 'serve' || positionals.length > 1) throw new Error(`Unknown command '${positionals.join(' ')}'.\n\n${USAGE}`);
  const portText = values.port ?? env.PORT ?? '';
  const port = portText === '' ? DEFAULT_PORT : Number(portText);
  if (!/^\d{1,5}$/.test(portText || '0') || port > 65535) throw new Error(`--port must be a port number, got '${portText}'.`);
  // An explicit --data means PGlite in that folder, whatever DATABASE_URL the environment has.
  const databaseUrl = values['database-url'] ?? (values.data === undefined ? env.DATABASE_URL : undefined);
  const schema = values.schema ?? env.TESSERA_SCHEMA;
  const token = values.token ?? env.TESSERA_TOKEN;
  return {
    command: 'serve',
    options: {
      port,
      hostname: values.host ?? (env.TESSERA_HOST || '127.0.0.1'),
      ...(databaseUrl ? { databaseUrl } : { dataDir: values.data ?? (env.TESSERA_DATA_DIR || DEFAULT_DATA_DIR) }),
      ...(schema ? { schema } : {}),
      ...(token ? { token } : {}),
    },
  };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<Host | undefined> {
  const resolved = resolveOptions(argv, env);
  if (resolved.command === 'help') {
    process.stdout.write(USAGE);
    return undefined;
  }
  const host = await startHost(resolved.options);
  for (const line of host.banner) console.log(line);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Tessera: ${signal}, stopping`);
    host.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Tessera: stopping failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return host;
}
