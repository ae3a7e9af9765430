import type { FetchApi } from './socket.ts';
import { delay } from './delay.ts';

/** Health checks before giving up on a worker that answers but not with `ok`. */
const HEALTH_ATTEMPTS = 20;

/**
 * Resolves once `GET <base>/.well-known/health` answers a body starting `ok` (the service worker's through
 * the page's `fetch`, or the embedded mode's); retries with a growing pause, then rejects saying the last answer.
 */
export async function waitHealthy(base: string, fetchApi: FetchApi = (input, init) => fetch(input, init)): Promise<void> {
  let last = '';
  for (let attempt = 0; attempt < HEALTH_ATTEMPTS; attempt++) {
    try {
      const response = await fetchApi(`${base}/.well-known/health`, { cache: 'no-store' });
      const body = await response.text();
      if (body.startsWith('ok')) return;
      last = `${response.status} ${body.slice(0, 120)}`;
    } catch (error) {
      last = String(error);
    }
    await delay(Math.min(50 * 2 ** attempt, 1000));
  }
  throw new Error(`tessera: the worker did not answer ${base}/.well-known/health with ok (last: ${last})`);
}
