/**
 * The measurements of the Node host section (test/bench/node-host.ts), each against a running host at
 * its root path, as a Node client sees it: create latency through the official SDK, creates with several
 * clients in flight, a library seeded with `POST /assets/import`, search latency, and write-to-frame
 * latency from one instance to another's WebSocket. Times are `performance.now()` around the request until
 * its body is read.
 */
import { AssetsApi, Configuration, type Seed } from '@pieces.app/pieces-os-client';
import { openSocket, wsUrl } from '../support/node-host.ts';
import { fragmentSeed } from '../support/seeds.ts';
import type { SnippetGen } from './library-snippets.ts';

/** Seeds whose language the classifier decides (as the browser bench's creates), from the search bench's generator. */
export function createSeeds(gen: SnippetGen, count: number): Seed[] {
  return Array.from({ length: count }, () => fragmentSeed(gen.snippet().raw) as unknown as Seed);
}

/** The official SDK's assets API on a host; no response checking, so the time is the SDK's own. */
function assetsApi(url: string): AssetsApi {
  return new AssetsApi(new Configuration({ basePath: url }));
}

/** Sequential `assetsCreateNewAsset` through one SDK client: the time of each, warm-up included (the caller drops it). */
export async function createSequential(url: string, seeds: readonly Seed[]): Promise<number[]> {
  const api = assetsApi(url);
  const times: number[] = [];
  for (const seed of seeds) {
    const t0 = performance.now();
    await api.assetsCreateNewAsset({ seed });
    times.push(performance.now() - t0);
  }
  return times;
}

/** `clients` SDK clients, each creating the next seed of a shared queue as soon as its last create answered. */
export async function createInFlight(url: string, seeds: readonly Seed[], clients: number): Promise<{ assets: number; ms: number; perSecond: number }> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const api = assetsApi(url);
      while (next < seeds.length) await api.assetsCreateNewAsset({ seed: seeds[next++]! });
    }),
  );
  const elapsed = performance.now() - t0;
  return { assets: seeds.length, ms: Math.round(elapsed), perSecond: Math.round(seeds.length / (elapsed / 1000)) };
}

const IMPORT_BATCH = 1000;
const IMPORTS_IN_FLIGHT = 3;

/** `size` generated snippets through `POST /assets/import`, as the browser's search bench loads its library; seconds taken. */
export async function importLibrary(url: string, gen: SnippetGen, size: number): Promise<number> {
  const t0 = performance.now();
  const batches: string[] = [];
  for (let done = 0; done < size; done += IMPORT_BATCH) {
    batches.push(JSON.stringify({ iterable: Array.from({ length: Math.min(IMPORT_BATCH, size - done) }, () => gen.seed()) }));
  }
  for (let i = 0; i < batches.length; i += IMPORTS_IN_FLIGHT) {
    await Promise.all(
      batches.slice(i, i + IMPORTS_IN_FLIGHT).map(async (body) => {
        const response = await fetch(`${url}/assets/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const text = await response.text();
        if (!response.ok) throw new Error(`import: ${response.status} ${text.slice(0, 300)}`);
      }),
    );
  }
  return (performance.now() - t0) / 1000;
}

/**
 * Write on `writer`, frame on `reader`'s `/assets/stream/identifiers` WebSocket: the browser bench's write
 * (`POST /asset/{id}/scores/increment`, one committed change each), one at a time, the next after the
 * previous frame arrived. Latency from the moment the request is sent to the frame's arrival (one clock,
 * this process); `afterAck` from the writer's answer to the frame.
 */
export async function frameLatencyAcross(writer: string, reader: string, samples: number): Promise<{ sent: number[]; afterAck: number[] }> {
  const create = await fetch(`${writer}/assets/create?transferables=false`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fragmentSeed('const streamed = true;\n', undefined, { generic: 'CODE', specific: 'js' })),
  });
  if (!create.ok) throw new Error(`create: ${create.status} ${await create.text()}`);
  const { id } = (await create.json()) as { id: string };
  const socket = await openSocket(wsUrl(reader, '/assets/stream/identifiers'));
  const arrivals: number[] = [];
  socket.ws.on('message', () => arrivals.push(performance.now()));
  try {
    await socket.next(10_000); // the snapshot frame
    // A delta for the create itself may still follow the snapshot: let it pass before the first sample.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent: number[] = [];
    const afterAck: number[] = [];
    for (let i = 0; i < samples; i++) {
      const before = arrivals.length;
      const t0 = performance.now();
      const response = await fetch(`${writer}/asset/${id}/scores/increment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ asset: { reuse: true } }),
      });
      await response.text();
      const acked = performance.now();
      if (!response.ok) throw new Error(`increment: ${response.status}`);
      await waitFor(() => arrivals.length > before, 5000);
      sent.push(arrivals[before]! - t0);
      afterAck.push(arrivals[before]! - acked);
    }
    return { sent, afterAck };
  } finally {
    socket.close();
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`no frame within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
