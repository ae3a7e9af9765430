/**
 * Helpers for the stream end-to-end specs: open sockets in a page and record their frames there
 * (`window.__sockets`), then read the frames back, parsed in the page by the official SDK's own
 * `StreamedIdentifiersFromJSON` / `AssetsFromJSON`.
 */
import type { Page } from '@playwright/test';
import { CLIENT_PAGE, expect } from './fixtures.ts';

export interface Recorded {
  frames: string[];
  events: string[];
  readyStates: number[];
  closeCode?: number;
  wasClean?: boolean;
}

declare global {
  interface Window {
    __sockets: Record<string, { socket: WebSocket; record: Recorded }>;
  }
}

/** A second page of the same context at `/`, ready, with the SDK injected. */
export async function secondPage(page: Page, inject: (page: Page) => Promise<void>): Promise<Page> {
  const other = await page.context().newPage();
  await other.goto(CLIENT_PAGE);
  await other.evaluate(() => window.tessera.ready());
  await inject(other);
  return other;
}

/**
 * Opens `new WebSocket(url)` (the page's shim) under `name`; `how: 'class'` uses the client's
 * TesseraSocket directly. Resolves once it is open (or closed).
 */
export async function openSocket(page: Page, name: string, path: string, how: 'shim' | 'class' = 'shim'): Promise<void> {
  await page.evaluate(
    async ({ name, path, how }) => {
      window.__sockets ??= {};
      const url = `ws://${location.host}/api${path}`;
      const Socket = how === 'shim' ? WebSocket : (window.tessera as unknown as { TesseraSocket: typeof WebSocket }).TesseraSocket;
      const socket = new Socket(url);
      const record: Recorded = { frames: [], events: [], readyStates: [socket.readyState] };
      window.__sockets[name] = { socket, record };
      socket.onmessage = (event) => {
        record.frames.push(event.data as string);
      };
      for (const type of ['open', 'error', 'close']) {
        socket.addEventListener(type, (event) => {
          record.events.push(type);
          record.readyStates.push(socket.readyState);
          if (type === 'close') {
            record.closeCode = (event as CloseEvent).code;
            record.wasClean = (event as CloseEvent).wasClean;
          }
        });
      }
      await new Promise<void>((resolve) => {
        socket.addEventListener('open', () => resolve());
        socket.addEventListener('close', () => resolve());
      });
    },
    { name, path, how },
  );
}

export function recorded(page: Page, name: string): Promise<Recorded> {
  return page.evaluate((name) => JSON.parse(JSON.stringify(window.__sockets[name]!.record)) as Recorded, name);
}

/** The identifiers frames of a socket, each parsed by the SDK: `[[id, deleted], …]` per frame. */
export function identifierFrames(page: Page, name: string): Promise<[string, boolean][][]> {
  return page.evaluate((name) => {
    const { StreamedIdentifiersFromJSON } = window.PiecesSDK;
    return window.__sockets[name]!.record.frames.map((text) => {
      const frame = StreamedIdentifiersFromJSON(JSON.parse(text));
      return frame.iterable.map((item) => {
        if (!item.asset) throw new Error('got an identifier in the assets stream that is not an asset');
        return [item.asset.id, item.deleted === true] as [string, boolean];
      });
    });
  }, name);
}

/** The Assets frames of a socket, each parsed by the SDK: per frame `[[id, name, deleted, content], …]`. */
export function assetFrames(page: Page, name: string): Promise<[string, string | null, boolean, string | null][][]> {
  return page.evaluate((name) => {
    const { AssetsFromJSON } = window.PiecesSDK;
    return window.__sockets[name]!.record.frames.map((text) => {
      const frame = AssetsFromJSON(JSON.parse(text));
      return frame.iterable.map((asset) => {
        if (asset.deleted && !(asset.deleted.value instanceof Date)) throw new Error('deleted is not a GroupedTimestamp');
        const content = asset.formats.iterable[0]?.fragment?.string?.raw ?? null;
        return [asset.id, asset.name ?? null, !!asset.deleted, content] as [string, string | null, boolean, string | null];
      });
    });
  }, name);
}

/** Waits until the socket has `count` frames (never more, checked after a short settle). */
export async function expectFrameCount(page: Page, name: string, count: number): Promise<void> {
  await expect.poll(async () => (await recorded(page, name)).frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
  await page.waitForTimeout(150);
  expect((await recorded(page, name)).frames.length).toBe(count);
}

/** Applies identifier frames as a real client does: the first frame is the truth, later ones deltas. */
export function idsAfter(frames: [string, boolean][][]): string[] {
  const ids = new Set<string>();
  frames.forEach((frame, i) => {
    if (i === 0) ids.clear();
    for (const [id, deleted] of frame) {
      if (deleted) ids.delete(id);
      else ids.add(id);
    }
  });
  return [...ids].sort();
}

/** The store's ids (pseudo included), sorted, as the HTTP API lists them. */
export async function storeIds(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const body = (await (await fetch('/api/assets/identifiers?pseudo=true')).json()) as { iterable: { id: string }[] };
    return body.iterable.map((r) => r.id).sort();
  });
}
