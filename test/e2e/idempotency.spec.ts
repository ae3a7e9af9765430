/**
 * A write runs once, whatever happens to the worker (review H8a). When Chromium stops a service worker that
 * has not answered a fetch yet, it dispatches the same request again to the restarted worker: a create
 * that committed just before the stop would commit again. The page's clients send an `Idempotency-Key`
 * with every write (createApi as a header, the RPC path with the call), and the worker answers a key it
 * has seen with the stored response.
 *
 * - The same keyed create sent again after a worker stop (what the re-dispatch does): one asset.
 * - Creates one after another in six lanes through `createApi`, with the worker stopped (CDP) ten times while they are in flight: every
 *   create is answered, and each is stored exactly once.
 * - The same over the RPC path: an acknowledged write cut off by the stop is sent again with its key,
 *   so every call is answered (none fails as interrupted) and none is stored twice.
 */
import type { Page } from '@playwright/test';
import type { TesseraApi } from '../../app/client/api.ts';
import type { TesseraRpc } from '../../app/client/rpc.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { expect, test } from './fixtures.ts';

type Client = { createApi(): TesseraApi; createRpc(): TesseraRpc };

declare global {
  interface Window {
    __load: { done: number; failed: string[]; answered: Record<string, string>; stop: boolean; finished: Promise<unknown> };
    __startLoad(lanes: number, via: 'http' | 'rpc'): void;
  }
}

/**
 * Stops every service worker (CDP) and waits until one reported stopping or `stopped`. The requests still
 * in flight start it again at once, so "all stopped now" (the fixture's wait) may never be seen; and a stop
 * asked for while the worker was still starting was once never reported in 15 s (a CI run): the stop is
 * asked for again until one is seen, as crash.spec.ts does.
 */
async function stopDuringRequests(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    let stopped = false;
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      if (versions.some((v) => v.runningStatus === 'stopped' || v.runningStatus === 'stopping')) stopped = true;
    });
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(
        async () => {
          if (!stopped) await cdp.send('ServiceWorker.stopAllWorkers');
          return stopped;
        },
        { message: 'the worker did not stop', timeout: 15_000, intervals: [50, 100, 250, 500] },
      )
      .toBe(true);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/**
 * Defines `window.__startLoad`: `lanes` loops, each creating one asset after another (named
 * `<lane>-<n>`) through createApi or RPC until `__load.stop` is set: there is always a create in flight.
 */
async function defineLoad(page: Page): Promise<void> {
  await page.evaluate((seed) => {
    const client = window.tessera as unknown as Client;
    const api = client.createApi();
    const rpc = client.createRpc();
    const load: Window['__load'] = { done: 0, failed: [], answered: {}, stop: false, finished: Promise.resolve() };
    window.__load = load;
    window.__startLoad = (lanes, via) => {
      const lane = async (l: number) => {
        for (let n = 0; !load.stop; n++) {
          const name = `${l}-${n}`;
          const named = { ...seed, asset: { ...seed.asset, metadata: { name } } } as never;
          try {
            const created = via === 'http' ? await api.create(named) : await rpc.createAsset(named, { transferables: false });
            load.answered[name] = created.id;
          } catch (error) {
            load.failed.push(`${name}: ${String(error)}`);
          } finally {
            load.done++;
          }
        }
      };
      load.finished = Promise.all(Array.from({ length: lanes }, (_, l) => lane(l)));
    };
  }, fragmentSeed(PYTHON_SNIPPET) as { asset: Record<string, unknown> });
}

/** Every asset's id by name; each name must be there once, under the id its create was answered with. */
async function expectEachOnce(page: Page): Promise<void> {
  const state = await page.evaluate(async () => {
    const list = (await (await fetch('/api/assets?transferables=false')).json()) as { iterable: { id: string; name?: string }[] };
    return { assets: list.iterable.map((a) => [a.id, a.name ?? ''] as const), load: window.__load };
  });
  const byName = new Map<string, string[]>();
  for (const [id, name] of state.assets) byName.set(name, [...(byName.get(name) ?? []), id]);
  const duplicates = [...byName].filter(([, ids]) => ids.length > 1).map(([name, ids]) => `${name} x${ids.length}`);
  expect(duplicates).toEqual([]);
  expect(state.load.failed).toEqual([]);
  expect(state.assets.length).toBeGreaterThan(0);
  expect(state.load.done).toBe(state.assets.length);
  for (const [name, id] of Object.entries(state.load.answered)) expect(byName.get(name), name).toEqual([id]);
}

test('a keyed create sent again after a worker stop is answered with the first response: one asset', async ({ appPage: page }) => {
  const send = () =>
    page.evaluate(async (seed) => {
      const response = await fetch('/api/assets/create', {
        method: 'POST',
        body: JSON.stringify(seed),
        headers: { 'content-type': 'application/json', 'idempotency-key': 'e2e-same-key' },
      });
      return { status: response.status, body: await response.text(), replayed: response.headers.get('idempotent-replayed') };
    }, fragmentSeed(PYTHON_SNIPPET, { name: 'once' }) as object);
  const first = await send();
  await stopDuringRequests(page);
  const again = await send();
  expect(first.status).toBe(200);
  expect(again).toEqual({ ...first, replayed: 'true' });
  const count = await page.evaluate(async () => ((await (await fetch('/api/assets?transferables=false')).json()) as { iterable: unknown[] }).iterable.length);
  expect(count).toBe(1);
});

for (const via of ['http', 'rpc'] as const) {
  test(`creates in flight (${via === 'http' ? 'createApi' : 'RPC'}) while the worker is stopped are answered and stored once each`, async ({ appPage: page }) => {
    const stops = 10;
    test.setTimeout(120_000);
    await defineLoad(page);
    await page.evaluate((via) => window.__startLoad(6, via), via);
    for (let stop = 0, done = 0; stop < stops; stop++) {
      // Some more answered since the last stop, and six in flight: stop the worker under them.
      const after = done + 4 + (stop % 3) * 4;
      await expect.poll(async () => (done = await page.evaluate(() => window.__load.done)), { timeout: 30_000 }).toBeGreaterThanOrEqual(after);
      await stopDuringRequests(page);
    }
    await page.evaluate(async () => {
      window.__load.stop = true;
      await window.__load.finished;
    });
    await expectEachOnce(page);
  });
}
