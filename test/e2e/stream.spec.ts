/**
 * The live streams in Chromium, across two pages: writes made through the official SDK in one page
 * arrive as frames in the other, read through `new WebSocket(...)` (the page's shim), parsed by the SDK's
 * own `StreamedIdentifiersFromJSON` / `AssetsFromJSON`. The first frame is the snapshot; one delta per
 * committed change, in commit order; deletions flagged; nothing lost or doubled when the worker is
 * stopped between writes, when events are lost, when the tab is frozen, when sockets open mid-burst.
 */
import type { Page } from '@playwright/test';
import type { Seed } from '@pieces.app/pieces-os-client';
import { checkExchanges, connectSdk } from './contract-check.ts';
import { expect, test } from './fixtures.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { assetFrames, expectFrameCount, identifierFrames, idsAfter, openSocket, recorded, secondPage, storeIds } from './stream-support.ts';

test.afterEach(async ({ page }) => {
  await checkExchanges(page);
});

function create(page: Page, raw = PYTHON_SNIPPET): Promise<string> {
  return page.evaluate(async (seed) => (await window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed })).id, fragmentSeed(raw) as object);
}

function rename(page: Page, id: string, name: string): Promise<void> {
  return page.evaluate(
    async ({ id, name }) => {
      const asset = await window.apis.asset.assetSnapshot({ asset: id });
      asset.name = name;
      await window.apis.asset.assetUpdate({ asset });
    },
    { id, name },
  );
}

function remove(page: Page, id: string): Promise<void> {
  return page.evaluate(async (id) => {
    await window.apis.assets.assetsDeleteAsset({ asset: id });
  }, id);
}

test('identifiers: snapshot first (also empty), then one delta per SDK write in another page, in commit order, deletions flagged', async ({
  appPage: writer,
  sdk,
}) => {
  await connectSdk(writer);
  const reader = await secondPage(writer, sdk.inject);
  await openSocket(reader, 'ids', '/assets/stream/identifiers');
  await expectFrameCount(reader, 'ids', 1);
  expect(await identifierFrames(reader, 'ids')).toEqual([[]]);

  const a = await create(writer);
  const b = await create(writer, GO_SNIPPET);
  await rename(writer, a, 'renamed');
  await writer.evaluate(
    async ({ a, b }) => {
      const { asset, tags } = window.apis;
      const current = await asset.assetSnapshot({ asset: b });
      await asset.assetReclassify({ assetReclassification: { asset: current, ext: 'ts' as never } });
      const tag = await tags.tagsCreateNewTag({ seededTag: { text: 'live' } });
      await asset.assetAssociateTag({ asset: a, tag: tag.id });
      await asset.assetScoresIncrement({ asset: b, seededScoreIncrement: { asset: { reuse: true } } });
      await asset.assetDisassociateTag({ asset: a, tag: tag.id });
    },
    { a, b },
  );
  await remove(writer, a);
  const expected: [string, boolean][][] = [[], [[a, false]], [[b, false]], [[a, false]], [[b, false]], [[a, false]], [[b, false]], [[a, false]], [[a, true]]];
  await expectFrameCount(reader, 'ids', expected.length);
  expect(await identifierFrames(reader, 'ids')).toEqual(expected);
  // the snapshot of a socket opened now is the store's state
  await openSocket(reader, 'late', '/assets/stream/identifiers');
  expect(await identifierFrames(reader, 'late')).toEqual([[[b, false]]]);
  expect(idsAfter(await identifierFrames(reader, 'ids'))).toEqual(await storeIds(writer));
  const record = await recorded(reader, 'ids');
  expect(record.events).toEqual(['open']);
  expect(record.readyStates).toEqual([0, 1]);
});

test('/assets/stream and /assets/stream/transferables: Assets frames (without / with content), deletions as the last known asset with deleted set', async ({
  appPage: writer,
  sdk,
}) => {
  await connectSdk(writer);
  const existing = await create(writer, GO_SNIPPET);
  const reader = await secondPage(writer, sdk.inject);
  await openSocket(reader, 'assets', '/assets/stream');
  await openSocket(reader, 'full', '/assets/stream/transferables');
  const a = await create(writer);
  await rename(writer, a, 'renamed');
  await remove(writer, existing);
  for (const name of ['assets', 'full']) await expectFrameCount(reader, name, 4);
  const plain = await assetFrames(reader, 'assets');
  const full = await assetFrames(reader, 'full');
  const existingName = plain[0]![0]![1];
  const createdName = plain[1]![0]![1];
  expect(plain).toEqual([
    [[existing, existingName, false, null]],
    [[a, createdName, false, null]],
    [[a, 'renamed', false, null]],
    [[existing, existingName, true, null]],
  ]);
  expect(full).toEqual([
    [[existing, existingName, false, GO_SNIPPET]],
    [[a, createdName, false, PYTHON_SNIPPET]],
    [[a, 'renamed', false, PYTHON_SNIPPET]],
    [[existing, existingName, true, GO_SNIPPET]],
  ]);
});

test('nothing lost or doubled when the worker is stopped (CDP) between writes', async ({ appPage: writer, sdk, stopServiceWorkers }) => {
  test.setTimeout(90_000); // nine worker stops and restarts
  await connectSdk(writer);
  const first = await create(writer);
  const reader = await secondPage(writer, sdk.inject);
  await openSocket(reader, 'ids', '/assets/stream/identifiers');
  await openSocket(reader, 'assets', '/assets/stream');
  // Before each stop, let the reader take in the frames so far: its catch-up fetches would otherwise
  // start the worker again right after the stop (legitimately), and the stop could not be confirmed.
  let frames = 1;
  const settled = async () => {
    frames++;
    await expect.poll(async () => (await recorded(reader, 'assets')).frames.length, { timeout: 10_000 }).toBe(frames);
    await expect.poll(async () => (await recorded(reader, 'ids')).frames.length, { timeout: 10_000 }).toBe(frames);
  };
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    await stopServiceWorkers(writer);
    ids.push(await create(writer, i % 2 ? GO_SNIPPET : PYTHON_SNIPPET));
    await settled();
    await stopServiceWorkers(writer);
    await rename(writer, ids[i]!, `n${i}`);
    await settled();
  }
  await stopServiceWorkers(writer);
  await remove(writer, first);
  const expected: [string, boolean][][] = [[[first, false]], ...ids.flatMap((id) => [[[id, false]], [[id, false]]] as [string, boolean][][]), [[first, true]]];
  await expectFrameCount(reader, 'ids', expected.length);
  expect(await identifierFrames(reader, 'ids')).toEqual(expected);
  await expectFrameCount(reader, 'assets', expected.length);
  const assets = await assetFrames(reader, 'assets');
  expect(assets.map((f) => f.map(([id, , deleted]) => [id, deleted]))).toEqual(expected);
  expect(assets.slice(1, -1).filter((_, i) => i % 2 === 1).map((f) => f[0]![1])).toEqual(['n0', 'n1', 'n2', 'n3']);
  expect(idsAfter(await identifierFrames(reader, 'ids'))).toEqual(await storeIds(writer));
});

test('lost channel messages are caught up from the change log, and when the tab becomes visible again', async ({ appPage: writer, sdk }) => {
  await connectSdk(writer);
  const reader = await secondPage(writer, sdk.inject);
  // Wrap the page's BroadcastChannel so that messages can be dropped, as a tab that missed them.
  await reader.evaluate(() => {
    const Real = BroadcastChannel;
    (window as unknown as { __drop: boolean }).__drop = false;
    window.BroadcastChannel = class extends Real {
      set onmessage(handler: ((event: MessageEvent) => void) | null) {
        super.onmessage = handler && ((event: MessageEvent) => !(window as unknown as { __drop: boolean }).__drop && handler.call(this, event));
      }
      get onmessage() {
        return super.onmessage;
      }
    } as typeof BroadcastChannel;
  });
  await openSocket(reader, 'ids', '/assets/stream/identifiers');
  const drop = (on: boolean) => reader.evaluate((on) => ((window as unknown as { __drop: boolean }).__drop = on), on);

  // A gap in the middle: found by the next event that arrives.
  const a = await create(writer);
  await drop(true);
  const b = await create(writer, GO_SNIPPET);
  await rename(writer, a, 'x');
  await drop(false);
  const c = await create(writer);
  await expectFrameCount(reader, 'ids', 5);
  expect(await identifierFrames(reader, 'ids')).toEqual([[], [[a, false]], [[b, false]], [[a, false]], [[c, false]]]);

  // A gap at the end (nothing comes after it): found when the tab becomes visible again.
  await drop(true);
  await remove(writer, b);
  await drop(false);
  await reader.waitForTimeout(200);
  expect((await recorded(reader, 'ids')).frames).toHaveLength(5);
  await reader.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expectFrameCount(reader, 'ids', 6);
  expect((await identifierFrames(reader, 'ids'))[5]).toEqual([[b, true]]);
  expect(idsAfter(await identifierFrames(reader, 'ids'))).toEqual(await storeIds(writer));
});

test('a frozen background tab ends with every change, in order, once', async ({ appPage: writer, sdk }) => {
  await connectSdk(writer);
  const reader = await secondPage(writer, sdk.inject);
  await openSocket(reader, 'ids', '/assets/stream/identifiers');
  const cdp = await reader.context().newCDPSession(reader);
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
  const a = await create(writer);
  const b = await create(writer, GO_SNIPPET);
  await remove(writer, a);
  await cdp.send('Page.setWebLifecycleState', { state: 'active' });
  await cdp.detach();
  await expectFrameCount(reader, 'ids', 4);
  expect(await identifierFrames(reader, 'ids')).toEqual([[], [[a, false]], [[b, false]], [[a, true]]]);
});

test('sockets opened while writes are in flight end with the store state, no id doubled', async ({ appPage: writer, sdk }) => {
  await connectSdk(writer);
  const reader = await secondPage(writer, sdk.inject);
  const burst = writer.evaluate(async (seed) => {
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        ids.push((await window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed })).id);
      }),
    );
    return ids;
  }, fragmentSeed(PYTHON_SNIPPET, undefined, { specific: 'py' }) as object);
  const names: string[] = [];
  for (let i = 0; i < 4; i++) {
    names.push(`s${i}`);
    await openSocket(reader, `s${i}`, '/assets/stream/identifiers');
    await reader.waitForTimeout(15);
  }
  const created = await burst;
  const final = await storeIds(writer);
  expect(final).toEqual([...created].sort());
  for (const name of names) {
    await expect.poll(async () => idsAfter(await identifierFrames(reader, name)), { timeout: 10_000 }).toEqual(final);
    const frames = await identifierFrames(reader, name);
    const seen = frames.flat().map(([id]) => id);
    expect(new Set(seen).size, `${name}: an id sent twice`).toBe(seen.length);
  }
});

test('the shim: new WebSocket(ws://host/api/...) is a Tessera socket with the same frames; other URLs get the real WebSocket', async ({
  appPage: writer,
  sdk,
}) => {
  await connectSdk(writer);
  const reader = await secondPage(writer, sdk.inject);
  await openSocket(reader, 'shim', '/assets/stream/identifiers', 'shim');
  await openSocket(reader, 'class', '/assets/stream/identifiers', 'class');
  const a = await create(writer);
  await remove(writer, a);
  await expectFrameCount(reader, 'shim', 3);
  await expectFrameCount(reader, 'class', 3);
  expect((await recorded(reader, 'shim')).frames).toEqual((await recorded(reader, 'class')).frames);
  const kinds = await reader.evaluate(() => {
    const ours = new WebSocket(`ws://${location.host}/api/assets/stream/identifiers`);
    const real = new WebSocket('ws://127.0.0.1:9/elsewhere');
    const relativeHttp = new WebSocket(`${location.origin}/api/assets/stream`);
    const { TesseraSocket } = window.tessera as unknown as { TesseraSocket: typeof WebSocket };
    const RealWebSocket = Object.getPrototypeOf(real).constructor as typeof WebSocket;
    const result = {
      ours: ours instanceof TesseraSocket,
      oursIsWebSocket: ours instanceof WebSocket,
      real: real instanceof TesseraSocket ? 'TesseraSocket' : RealWebSocket.name,
      realIsWebSocket: real instanceof WebSocket,
      relativeHttp: relativeHttp instanceof TesseraSocket,
      constants: [WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED, ours.OPEN],
    };
    real.onerror = () => {};
    ours.close();
    real.close();
    relativeHttp.close();
    return result;
  });
  expect(kinds).toEqual({
    ours: true,
    oursIsWebSocket: true,
    real: 'WebSocket',
    realIsWebSocket: true,
    relativeHttp: true,
    constants: [0, 1, 2, 3, 1],
  });
});

test('socket lifecycle: close() ends the frames with a clean close; an unknown path fails like a refused socket; send before open throws', async ({
  appPage: writer,
  sdk,
}) => {
  await connectSdk(writer);
  const reader = await secondPage(writer, sdk.inject);
  await openSocket(reader, 'ids', '/assets/stream/identifiers');
  await reader.evaluate(() => window.__sockets.ids!.socket.close(1000, 'done'));
  await create(writer);
  await reader.waitForTimeout(200);
  const closed = await recorded(reader, 'ids');
  expect(closed.frames).toHaveLength(1);
  expect(closed.events).toEqual(['open', 'close']);
  expect(closed.readyStates).toEqual([0, 1, 3]);
  expect([closed.closeCode, closed.wasClean]).toEqual([1000, true]);

  await openSocket(reader, 'nope', '/conversations/stream/nothing');
  const nope = await recorded(reader, 'nope');
  expect(nope.events).toEqual(['error', 'close']);
  expect([nope.closeCode, nope.wasClean]).toEqual([1006, false]);

  const sendEarly = await reader.evaluate(() => {
    const socket = new WebSocket(`ws://${location.host}/api/assets/stream`);
    try {
      socket.send('x');
      return 'sent';
    } catch (error) {
      return (error as DOMException).name;
    } finally {
      socket.close();
    }
  });
  expect(sendEarly).toBe('InvalidStateError');
});

test('/qgpt/stream over the same transport: each input frame is answered by frames the SDK parses, echoing request and conversation; health stream says ok', async ({
  appPage: page,
  sdk: _sdk,
}) => {
  const result = await page.evaluate(async () => {
    const socket = new WebSocket(`ws://${location.host}/api/qgpt/stream`);
    const frames: unknown[] = [];
    await new Promise((resolve) => (socket.onopen = resolve));
    const two = new Promise<void>((resolve) => {
      socket.onmessage = (event) => {
        frames.push(window.PiecesSDK.QGPTStreamOutputFromJSON(JSON.parse(event.data as string)));
        if (frames.length === 2) resolve();
      };
    });
    const relevant = { iterable: [] };
    socket.send(JSON.stringify({ question: { query: 'what does parse_args do?', relevant }, relevance: { query: 'x' }, request: 'q1', conversation: 'c1' }));
    socket.send(JSON.stringify({ conversation: 'c2', stop: true, request: 'q2' }));
    await two;
    socket.close();
    const health = new WebSocket(`ws://${location.host}/api/.well-known/stream/health`);
    const text = await new Promise<string>((resolve) => (health.onmessage = (event) => resolve(event.data as string)));
    health.close();
    return { frames: JSON.parse(JSON.stringify(frames)), health: text };
  });
  const byRequest = Object.fromEntries((result.frames as { request: string }[]).map((f) => [f.request, f]));
  expect(byRequest.q1).toEqual({ conversation: 'c1', request: 'q1', status: 'FAILED', statusCode: 422, errorMessage: expect.stringContaining('both relevance and question') });
  expect(byRequest.q2).toEqual({ conversation: 'c2', request: 'q2', status: 'STOPPED' });
  expect(result.health.toLowerCase().startsWith('ok')).toBe(true);
});
