/**
 * Benchmark section: creates through the official SDK (`@pieces.app/pieces-os-client`, its browser bundle
 * injected into the page), several in flight, language detection on (the seeds name no language), in a
 * fresh browser context so the library it grows touches no other section. A section of test/bench/run.ts
 * (`benchSdkCreates`; issue 17's target: 8 in flight, at least 500 assets/s).
 *
 * Rounds alternate between the SDK's `assetsCreateNewAsset` and the same request by plain `fetch`
 * (the baseline: what the SDK's own work adds), each round `perRound` creates with `inFlight` at a time;
 * assets/s is creates over the round's wall time in the page.
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
}

/** Page side: `bodies` created with `inFlight` at a time, by the SDK or by fetch; ms in all. */
function pageCreateRound(args: { bodies: string[]; inFlight: number; viaSdk: boolean }): Promise<number> {
  return (async () => {
    type Sdk = {
      Configuration: new (o: { basePath: string }) => unknown;
      AssetsApi: new (c: unknown) => { assetsCreateNewAsset(p: { seed: unknown; transferables: boolean }): Promise<{ id: string }> };
    };
    const sdk = (window as unknown as { PiecesSDK: Sdk }).PiecesSDK;
    const assets = new sdk.AssetsApi(new sdk.Configuration({ basePath: `${location.origin}/api` }));
    const createOne = async (body: string): Promise<string> => {
      if (args.viaSdk) return (await assets.assetsCreateNewAsset({ seed: JSON.parse(body), transferables: false })).id;
      const response = await fetch('/api/assets/create?transferables=false', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (!response.ok) throw new Error(`create: ${response.status} ${(await response.text()).slice(0, 200)}`);
      return ((await response.json()) as { id: string }).id;
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
    await page.evaluate(pageCreateRound, { bodies: bodies.slice(0, IN_FLIGHT), inFlight: IN_FLIGHT, viaSdk: true });
    const rounds = { sdk: [] as number[], fetch: [] as number[] };
    let at = IN_FLIGHT;
    for (let r = 0; r < 2 * ROUNDS; r++) {
      const viaSdk = r % 2 === 0;
      const round = bodies.slice(at, at + PER_ROUND);
      at += PER_ROUND;
      (viaSdk ? rounds.sdk : rounds.fetch).push(await page.evaluate(pageCreateRound, { bodies: round, inFlight: IN_FLIGHT, viaSdk }));
    }
    const summary = (ms: number[]) => ({
      creates: ms.length * PER_ROUND,
      perSecond: Math.round((ms.length * PER_ROUND) / (ms.reduce((a, b) => a + b, 0) / 1000)),
      roundsPerSecond: ms.map((t) => Math.round(PER_ROUND / (t / 1000))),
    });
    const result: SdkCreates = { inFlight: IN_FLIGHT, sdk: summary(rounds.sdk), fetch: summary(rounds.fetch) };
    phase(`Creates through the official SDK — assetsCreateNewAsset, ${IN_FLIGHT} in flight, language detection on, fresh context; rounds of ${PER_ROUND} alternating with plain fetch`);
    log(`  SDK    ${result.sdk.perSecond} assets/s (n=${result.sdk.creates}; rounds ${result.sdk.roundsPerSecond.join(', ')})   target ≥ 500: ${result.sdk.perSecond >= 500 ? 'met' : 'NOT met'}`);
    log(`  fetch  ${result.fetch.perSecond} assets/s (n=${result.fetch.creates}; rounds ${result.fetch.roundsPerSecond.join(', ')})`);
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
