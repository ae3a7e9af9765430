/**
 * The Node host as a child process (`node bin/tessera.mjs serve`, what `npm run start:node` runs), on a
 * free port unless told (`--port 0`; the port is read from its start line), and the official SDK pointed at it with
 * every response checked against the contract.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetApi, AssetsApi, Configuration, QGPTApi, WellKnownApi } from '@pieces.app/pieces-os-client';
import WebSocket from 'ws';
import { checkResponse } from './responses.ts';

/** The repository: the nearest folder above this file with bin/tessera.mjs (this file may be bundled, as by the bench). */
const ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'bin', 'tessera.mjs'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('bin/tessera.mjs not found above this file');
    dir = up;
  }
  return dir;
})();

export interface HostProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL; resolves with the exit code or signal once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/** Starts `tessera serve` with `args` on a free port, unless `args` or `env` (PORT) name one. */
export async function startHostProcess(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<HostProcess> {
  const port = args.includes('--port') || env.PORT ? [] : ['--port', '0'];
  const child = spawn(process.execPath, ['bin/tessera.mjs', 'serve', ...port, ...args], {
    cwd: ROOT,
    // The tests say which storage, address and token a host uses: none inherits the runner's.
    env: { ...process.env, DATABASE_URL: '', PORT: '', TESSERA_HOST: '', TESSERA_DATA_DIR: '', TESSERA_SCHEMA: '', TESSERA_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not start in ${timeoutMs} ms:\n${text}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the host exited (${how}) before it listened:\n${text}`));
    });
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    output: () => text,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The SDK's API classes on the host, each response checked against the contract (responses.ts). */
export function sdk(basePath: string, headers: Record<string, string> = {}) {
  const fetchApi: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const body = await response.clone().text();
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    checkResponse({
      method: init?.method ?? 'GET',
      path: url.pathname,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body,
    });
    return response;
  };
  const config = new Configuration({ basePath, fetchApi, headers });
  return { assets: new AssetsApi(config), asset: new AssetApi(config), qgpt: new QGPTApi(config), wellKnown: new WellKnownApi(config) };
}

/**
 * Tessera's own routes on a running host, as the test API's `call` reaches them: a JSON body, the answer
 * checked against the contract (responses.ts). `path` is under the host's URL.
 */
export function hostCall(url: string) {
  return async (method: string, path: string, body?: unknown) => {
    const init: RequestInit = { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) };
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    checkResponse({ method, path: path.split('?')[0]!, status: response.status, contentType: response.headers.get('content-type'), body: text });
    return { status: response.status, text };
  };
}

/** A WebSocket with its frames collected as they come; `next()` waits for the next unread frame. */
export async function openSocket(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  const frames: string[] = [];
  let read = 0;
  let wake: (() => void) | undefined;
  ws.on('message', (data) => {
    frames.push(data.toString());
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_request, response) => reject(new Error(`WebSocket refused: ${response.statusCode}`)));
  });
  return {
    ws,
    frames,
    /** The next frame not yet returned, parsed as JSON unless `text`; rejects after `ms`. */
    async next<T = any>(ms = 5000, text = false): Promise<T> {
      const end = Date.now() + ms;
      while (read >= frames.length) {
        const left = end - Date.now();
        if (left <= 0) throw new Error(`no frame in ${ms} ms (got ${frames.length})`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, left);
        });
      }
      const frame = frames[read++]!;
      return (text ? frame : JSON.parse(frame)) as T;
    },
    close() {
      ws.close();
    },
  };
}

export const wsUrl = (httpUrl: string, path: string) => `${httpUrl.replace(/^http/, 'ws')}${path}`;
