/**
 * The Node host's token, in this process (startHost): required to bind anything but a loopback address,
 * and when set, asked of every request (WebSocket upgrades too) but the health and version checks.
 */
import { describe, expect, it } from 'vitest';
import { isLoopback, startHost } from '../../worker/node/host.ts';
import { openSocket, sdk, wsUrl } from '../support/node-host.ts';
import { preparedDataDir } from '../support/pg.ts';

describe('the Node host’s token', () => {
  it('is required to bind a non-loopback address (refused before anything listens)', async () => {
    await expect(startHost({ hostname: '0.0.0.0', port: 0, dataDir: '/nonexistent/never-made' })).rejects.toThrow(/needs a token|give a token/);
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', '::', 'example.com'].some(isLoopback)).toBe(false);
  });

  it('when set, every request needs Authorization: Bearer <token>, but health and version', { timeout: 120_000 }, async () => {
    const data = await preparedDataDir();
    const host = await startHost({ port: 0, dataDir: data.dir, token: 's3cret' });
    try {
      expect(host.banner.join('\n')).toMatch(/Authorization: Bearer <token>/);
      const denied = await fetch(`${host.url}/assets`);
      expect(denied.status).toBe(401);
      expect((await denied.json()).error.code).toBe('unauthorized');
      expect((await fetch(`${host.url}/assets`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${host.url}/.well-known/health`)).status).toBe(200);
      expect((await fetch(`${host.url}/.well-known/version`, { method: 'HEAD' })).status).toBe(200);
      const api = sdk(host.url, { authorization: 'Bearer s3cret' });
      expect((await api.assets.assetsSnapshot({})).iterable).toEqual([]);
      await expect(openSocket(wsUrl(host.url, '/assets/stream/identifiers'))).rejects.toThrow(/401/);
      const socket = await openSocket(wsUrl(host.url, '/assets/stream/identifiers'), { authorization: 'Bearer s3cret' });
      expect(await socket.next()).toEqual({ iterable: [] });
      socket.close();
    } finally {
      await host.close();
      await data.remove();
    }
  });
});
