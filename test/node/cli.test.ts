/**
 * `tessera serve`'s options (worker/node/cli.ts resolveOptions): each flag, else its environment variable,
 * else its default; and two real starts as a child process: on PORT and TESSERA_DATA_DIR without flags, and
 * bound beyond loopback with a token, which the start message says.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../worker/node/cli.ts';
import { freePort } from '../bench/server.ts';
import { startHostProcess } from '../support/node-host.ts';
import { preparedDataDir } from '../support/pg.ts';

const serve = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const resolved = resolveOptions(argv, env);
  if (resolved.command !== 'serve') throw new Error(`not serve: ${resolved.command}`);
  return resolved.options;
};

/** Waits until the host's output matches (its start message comes in more than one write). */
async function printed(output: () => string, pattern: RegExp): Promise<string> {
  for (const end = Date.now() + 30_000; !pattern.test(output()); ) {
    if (Date.now() > end) throw new Error(`never printed ${pattern}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return output();
}

describe('tessera serve: options', () => {
  it('without flags or environment: port 39300 on 127.0.0.1, PGlite in .tessera-data, no token', () => {
    expect(serve([])).toEqual({ port: 39300, hostname: '127.0.0.1', dataDir: '.tessera-data' });
    // Set to '' is unset.
    expect(serve(['serve'], { PORT: '', TESSERA_HOST: '', TESSERA_DATA_DIR: '', DATABASE_URL: '', TESSERA_TOKEN: '' })).toEqual({ port: 39300, hostname: '127.0.0.1', dataDir: '.tessera-data' });
  });

  it('each option falls back on its environment variable', () => {
    const env = { PORT: '4321', TESSERA_HOST: '0.0.0.0', TESSERA_DATA_DIR: '/srv/tessera', TESSERA_SCHEMA: 'team', TESSERA_TOKEN: 'secret' };
    expect(serve([], env)).toEqual({ port: 4321, hostname: '0.0.0.0', dataDir: '/srv/tessera', schema: 'team', token: 'secret' });
    expect(serve([], { DATABASE_URL: 'postgres://u@db/x' })).toEqual({ port: 39300, hostname: '127.0.0.1', databaseUrl: 'postgres://u@db/x' });
    expect(serve(['--port', '0'])).toMatchObject({ port: 0 });
  });

  it('flags win over the environment, and --data means PGlite whatever DATABASE_URL says', () => {
    const env = { PORT: '4321', TESSERA_DATA_DIR: '/srv/tessera', DATABASE_URL: 'postgres://u@db/x', TESSERA_TOKEN: 'env' };
    expect(serve(['--port', '5000', '--data', 'here', '--token', 'flag', '--host', '::1'], env)).toEqual({ port: 5000, hostname: '::1', dataDir: 'here', token: 'flag' });
    expect(serve(['--database-url', 'postgres://v@other/y', '--schema', 's'], env)).toMatchObject({ databaseUrl: 'postgres://v@other/y', schema: 's', port: 4321 });
  });

  it('refuses a port that is not one, an unknown command or option; --help and help ask for the usage', () => {
    for (const port of ['abc', '70000', '-1', '1.5', '0x50', ' 80']) expect(() => serve([`--port=${port}`]), port).toThrow(/--port must be a port number/);
    expect(() => serve([], { PORT: 'eighty' })).toThrow(/--port must be a port number, got 'eighty'/);
    expect(() => resolveOptions(['start'], {})).toThrow(/Unknown command 'start'/);
    expect(() => resolveOptions(['--verbose'], {})).toThrow(/verbose/);
    expect(resolveOptions(['--help'], {})).toEqual({ command: 'help' });
    expect(resolveOptions(['help'], {})).toEqual({ command: 'help' });
  });
});

describe('tessera serve: starting', { timeout: 180_000 }, () => {
  it('listens on PORT when no --port is given, and keeps the library in TESSERA_DATA_DIR when no --data is', async () => {
    const data = await preparedDataDir();
    const port = await freePort();
    const host = await startHostProcess([], { PORT: String(port), TESSERA_DATA_DIR: data.dir });
    try {
      expect(host.url).toBe(`http://127.0.0.1:${port}`);
      expect(host.output()).toContain(`(library: PGlite in ${data.dir})`);
      expect(await (await fetch(`${host.url}/.well-known/health`)).text()).toBe('ok');
    } finally {
      await host.stop();
      await data.remove();
    }
  });

  it('bound beyond loopback with a token: the start message says every request needs it, and every request does', async () => {
    const data = await preparedDataDir();
    const host = await startHostProcess(['--host', '0.0.0.0', '--data', data.dir], { TESSERA_TOKEN: 't0ken' });
    try {
      expect(host.url).toBe(`http://0.0.0.0:${host.port}`);
      const output = await printed(host.output, /Not only this machine/);
      expect(output).toContain(`Not only this machine can connect: every request needs the header 'Authorization: Bearer <token>'.`);
      expect(output).not.toContain('t0ken');
      const local = `http://127.0.0.1:${host.port}`;
      expect((await fetch(`${local}/assets`)).status).toBe(401);
      expect((await fetch(`${local}/assets`, { headers: { authorization: 'Bearer t0ken' } })).status).toBe(200);
    } finally {
      await host.stop();
      await data.remove();
    }
  });

  it('refuses to bind beyond loopback without a token, saying how to give one, before it listens', async () => {
    await expect(startHostProcess(['--host', '0.0.0.0', '--data', '/nonexistent/never-made'])).rejects.toThrow(/give a token \(--token or TESSERA_TOKEN\)/);
  });
});
