/**
 * The browser worker's side of the Node host section's create figures: the same seeds, sequential and
 * with several clients in flight, through `fetch('/api/assets/create')` in a page of a fresh context
 * (a fresh IndexedDB), timed in the page until the body is read.
 */
import type { Browser } from 'playwright-core';
import type { Seed } from '@pieces.app/pieces-os-client';

export async function browserCreates(options: { browser: Browser; origin: string; sequential: readonly Seed[]; inFlight: readonly Seed[]; clients: number }) {
  const context = await options.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${options.origin}/?ui=off`); // no live UI refetching after each create
    await page.evaluate(() => (window as unknown as { tessera: { ready(): Promise<void> } }).tessera.ready());
    const sequential = await page.evaluate(pageCreates, { bodies: options.sequential.map((s) => JSON.stringify(s)), clients: 1 });
    const inFlight = await page.evaluate(pageCreates, { bodies: options.inFlight.map((s) => JSON.stringify(s)), clients: options.clients });
    return { sequential: sequential.times, inFlight: { assets: options.inFlight.length, ms: Math.round(inFlight.ms), perSecond: Math.round(options.inFlight.length / (inFlight.ms / 1000)) } };
  } finally {
    await context.close();
  }
}

/** Page side (serialised, so self-contained): `clients` loops taking the next body of a shared queue. */
function pageCreates(args: { bodies: string[]; clients: number }): Promise<{ times: number[]; ms: number }> {
  return (async () => {
    const times: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: args.clients }, async () => {
        while (next < args.bodies.length) {
          const body = args.bodies[next++]!;
          const t = performance.now();
          const response = await fetch('/api/assets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          const text = await response.text();
          if (!response.ok) throw new Error(`create: ${response.status} ${text.slice(0, 300)}`);
          times.push(performance.now() - t);
        }
      }),
    );
    return { times, ms: performance.now() - t0 };
  })();
}
