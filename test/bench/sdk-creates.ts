/**
 * Benchmark section: creates through the official SDK (`@pieces.app/pieces-os-client`, its browser bundle
 * injected into the page), several in flight, language detection on (the seeds name no language), in a
 * fresh browser context so the library it grows touches no other section. A section of test/bench/run.ts
 * (`benchSdkCreates`; issue 17's target: 8 in flight, at least 500 assets/s).
 *
 * Rounds alternate between the SDK's `assetsCreateNewAsset`, the same request by plain `fetch` (the
 * baseline: what the SDK's own work adds), and the same bodies POSTed to the echo route, which the worker
 * answers once it has read the body, without the app (the transport's ceiling: no create can go faster);
 * each round `perRound` requests with `inFlight` at a time; per second is requests over the round's wall
 * time in the page.
 */
import type { Browser } from 'playwright-core';
import { sdkBundle } from '../support/sdk-bundle.ts';

const ROUNDS = 4; // per client, alternating
const PER_ROUND = 100;
const IN_FLIGHT = 8;

export interface SdkCreates {
  inFlight: number;
  /** Creates per client over all its rounds, and their assets/s (all its creates over all its time). */
  sdk: { creates: number; perSecond: number; roundsPerSecond: number[] };
  fetch: { creates: number; perSecond: number; roundsPerSecond: number[] };
  /** The same bodies POSTed to `/api/__echo`: requests, not creates. */
  echo: { creates: number; perSecond: number; roundsPerSecond: number[] };
}

type Client = keyof Omit<SdkCreates, 'inFlight'>;

/** Page side: `bodies` created with `inFlight` at a time, by the SDK or by fetch (or POSTed to the echo route); ms in all. */
function pageCreateRound(args: { bodies: string[]; inFlight: number; via: Client }): Promise<number> {
  return (async () => {
    type Sdk = {
      Configuration: new (o: { basePath: string }) => unknown;
      AssetsApi: new (c: unknown) => { assetsCreateNewAsset(p: { seed: unknown; transferables: boolean }): Promise<{ id: string }> };
    };
    const sdk = (window as unknown as { PiecesSDK: Sdk }).PiecesSDK;
    const assets = new sdk.AssetsApi(new sdk.Configuration({ basePath: `${location.origin}/api` }));
    const createOne = async (body: string): Promise<string> => {
      if (args.via === 'sdk') return (await assets.assetsCreateNewAsset({ seed: JSON.parse(body), transferables: false })).id;
      const url = args.via === 'echo' ? '/api/__echo' : '/api/assets/create?transferables=false';
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (!response.ok) throw new Error(`create: ${response.status} ${(await response.text()).slice(0, 200)}`);
      return args.via === 'echo' ? (await response.text(), 'echo') : ((await response.json()) as { id: string }).id;
    };
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: args.inFlight }, async () => {
        while (next < args.bodies.length) {
          const id = await createOne(args.bodies[next++]!);
          if (!id) throw new Error('create answered no id');
        }
      }),
    );
    return performance.now() - t0;
  })();
}

export async function benchSdkCreates(args: {
  browser: Browser;
  origin: string;
  /** Seed bodies (JSON), at least 2 × ROUNDS × PER_ROUND; none names its language. */
  bodies: string[];
  log: (text?: string) => void;
  phase: (title: string) => void;
}): Promise<SdkCreates> {
  const { browser, origin, bodies, log, phase } = args;
  if (bodies.length < 2 * ROUNDS * PER_ROUND) throw new Error(`benchSdkCreates: ${bodies.length} bodies, ${2 * ROUNDS * PER_ROUND} needed`);
  // The page's Content-Security-Policy allows no inline script: the injected SDK needs it bypassed (as in e2e).
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/?ui=off`);
    await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
    await page.addScriptTag({ content: await sdkBundle() });
    // Warm-up: the language model loads on the first create.
    await page.evaluate(pageCreateRound, { bodies: bodies.slice(0, IN_FLIGHT), inFlight: IN_FLIGHT, via: 'sdk' as Client });
    const rounds: Record<Client, number[]> = { sdk: [], fetch: [], echo: [] };
    let at = IN_FLIGHT;
    for (let r = 0; r < ROUNDS; r++) {
      for (const via of ['sdk', 'fetch'] as const) {
        rounds[via].push(await page.evaluate(pageCreateRound, { bodies: bodies.slice(at, at + PER_ROUND), inFlight: IN_FLIGHT, via }));
        at += PER_ROUND;
      }
      // The echo creates nothing: the fetch round's bodies again.
      rounds.echo.push(await page.evaluate(pageCreateRound, { bodies: bodies.slice(at - PER_ROUND, at), inFlight: IN_FLIGHT, via: 'echo' as Client }));
    }
    const summary = (ms: number[]) => ({
      creates: ms.length * PER_ROUND,
      perSecond: Math.round((ms.length * PER_ROUND) / (ms.reduce((a, b) => a + b, 0) / 1000)),
      roundsPerSecond: ms.map((t) => Math.round(PER_ROUND / (t / 1000))),
    });
    const result: SdkCreates = { inFlight: IN_FLIGHT, sdk: summary(rounds.sdk), fetch: summary(rounds.fetch), echo: summary(rounds.echo) };
    phase(`Creates through the official SDK — assetsCreateNewAsset, ${IN_FLIGHT} in flight, language detection on, fresh context; rounds of ${PER_ROUND} alternating with plain fetch and with the echo route`);
    log(`  SDK    ${result.sdk.perSecond} assets/s (n=${result.sdk.creates}; rounds ${result.sdk.roundsPerSecond.join(', ')})   target ≥ 500: ${result.sdk.perSecond >= 500 ? 'met' : 'NOT met'}`);
    log(`  fetch  ${result.fetch.perSecond} assets/s (n=${result.fetch.creates}; rounds ${result.fetch.roundsPerSecond.join(', ')})`);
    log(`  echo   ${result.echo.perSecond} requests/s (n=${result.echo.creates}; rounds ${result.echo.roundsPerSecond.join(', ')}): the same bodies POSTed to /api/__echo, the transport's ceiling; SDK creates at ${Math.round((100 * result.sdk.perSecond) / result.echo.perSecond)}% of it`);
    return result;
  } finally {
    await context.close();
  }
}

/** Run alone against a build: `node .bench/sdk-creates.mjs --dist <build>` (after esbuild, as the other sections). */
async function standalone(): Promise<number> {
  const { freePort, runSectionAlone } = await import('./server.ts');
  const { seedBody, snippets } = await import('./create-snippets.ts');
  return runSectionAlone(await freePort(), async (browser, origin, dist) => {
    console.log(`Tessera SDK creates benchmark — Chromium ${browser.version()}, build ${dist}`);
    const bodies = snippets(2 * ROUNDS * PER_ROUND + IN_FLIGHT, 4).map((s) => seedBody(s.raw));
    await benchSdkCreates({ browser, origin, bodies, log: (text = '') => console.log(text), phase: (title) => console.log(`\n${title}`) });
  });
}

if (/sdk-creates\.(m?js|ts)$/.test(process.argv[1] ?? '')) process.exitCode = await standalone();
