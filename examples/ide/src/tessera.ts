/**
 * The IDE's link to Tessera, through the package's public exports only: its own service worker (../sw.ts,
 * which installs Tessera under BASE) controls this page, so Tessera answers plain `fetch` and its sockets.
 */
import { createApi, TesseraSocket, type Asset, type QGPTRelevanceOutput, type QGPTStreamOutput, type SearchedAssets, type Seed } from 'tessera/client';

export const BASE = '/tessera/api';

/** The application the IDE's snippets are recorded under. */
const APPLICATION = { id: 'tessera-ide-example', name: 'OPEN_SOURCE', version: '0.1.0', platform: 'WEB', onboarded: true, privacy: 'OPEN' } as const;

export const api = createApi({ base: BASE });

/**
 * Registers the IDE's service worker and resolves once it controls the page and Tessera answers its health
 * check (a first visit waits for the worker's `clients.claim()`).
 */
export async function connect(): Promise<void> {
  const container = navigator.serviceWorker;
  if (!container) throw new Error('service workers are not available here (a secure context is required)');
  await container.register(new URL('./sw.js', location.href), { scope: './' });
  if (!container.controller) await new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
  for (let attempt = 0; ; attempt++) {
    const health = await fetch(`${BASE}/.well-known/health`, { cache: 'no-store' }).then((r) => r.text(), (e: unknown) => String(e));
    if (health.startsWith('ok')) return;
    if (attempt === 20) throw new Error(`Tessera did not answer its health check: ${health.slice(0, 120)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Saves `text` as a snippet; Tessera detects its language and suggests its name. */
export function saveSnippet(text: string): Promise<Asset> {
  return api.create(snippetSeed(text));
}

function snippetSeed(text: string): Seed {
  return { type: 'SEEDED_ASSET', asset: { application: APPLICATION, format: { fragment: { string: { raw: text } } } } };
}

export function searchSnippets(query: string, signal: AbortSignal): Promise<SearchedAssets> {
  return api.search(query, signal);
}

/** The text of a snippet, to insert. */
export async function snippetText(id: string): Promise<string> {
  const asset = await api.getAsset(id);
  const format = asset.formats.iterable?.find((f) => f.fragment?.string?.raw !== undefined) ?? asset.formats.iterable?.[0];
  return format?.fragment?.string?.raw ?? format?.file?.string?.raw ?? '';
}

export interface SnippetSummary {
  id: string;
  name: string;
  language: string;
}

export function summaryOf(asset: Asset): SnippetSummary {
  const format = asset.formats.iterable?.[0];
  return { id: asset.id, name: asset.name ?? 'Untitled', language: format?.classification?.specific ?? '' };
}

/** Up to `limit` stored snippets relevant to the open file (POST /qgpt/relevance over the library). */
export async function relatedSnippets(fileText: string, limit: number, signal: AbortSignal): Promise<SnippetSummary[]> {
  const response = await fetch(`${BASE}/qgpt/relevance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: fileText.slice(0, 4000), options: { database: true } }),
    signal,
  });
  if (!response.ok) throw new Error(`relevance: HTTP ${response.status}`);
  const output = (await response.json()) as QGPTRelevanceOutput;
  const ids = [...new Set(output.relevant.iterable.map((r) => r.asset?.id).filter((id): id is string => !!id))].slice(0, limit);
  return Promise.all(ids.map(async (id) => summaryOf(await api.getAsset(id))));
}

/**
 * Asks about `code` over `/qgpt/stream` (a socket, as the desktop service offers): `onText` gets the answer
 * as it streams in; resolves with the whole answer when the request completes.
 */
export function askAbout(code: string, question: string, onText: (delta: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new TesseraSocket(`${location.origin.replace(/^http/, 'ws')}${BASE}/qgpt/stream`, undefined, { base: BASE });
    const request = crypto.randomUUID();
    let answer = '';
    socket.onopen = () => {
      socket.send(JSON.stringify({ question: { query: question, relevant: { iterable: [{ seed: snippetSeed(code) }] } }, request }));
    };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data as string) as QGPTStreamOutput;
      if (frame.request !== request) return;
      if (frame.status === 'IN-PROGRESS') {
        const delta = frame.question?.answers.iterable[0]?.text ?? '';
        answer += delta;
        onText(delta);
      } else if (frame.status === 'COMPLETED') {
        socket.close();
        resolve(answer);
      } else if (frame.status && frame.status !== 'INITIALIZED') {
        socket.close();
        reject(new Error(frame.errorMessage ?? `the answer ended ${frame.status}`));
      }
    };
    socket.onclose = () => reject(new Error('the answer stream closed'));
  });
}
