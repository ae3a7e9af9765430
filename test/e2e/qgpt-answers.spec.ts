/**
 * Answers, reprompt, hints and related persons through the official SDK's QGPTApi in Chromium, against the
 * service worker: extractive answers from fragment seeds and from the ids relevance handed out; generative
 * answers from a chat-completions server this test starts on localhost (test/support/chat-server.ts; the
 * worker's fetch to it is cross-origin, so the server answers CORS), and the extractive fallback when it
 * fails. Every raw response the page received (the SDK's, and `/qgpt/settings`, Tessera's own, called with
 * the recording fetch) is checked against the contract.
 */
import type { Page } from '@playwright/test';
import type { QGPTHintsInput, QGPTPersonsRelatedInput, QGPTQuestionInput, QGPTRepromptInput, Seed } from '@pieces.app/pieces-os-client';
import { fragmentSeed } from '../support/seeds.ts';
import { useSdkPage } from './contract-check.ts';
import { allowedChatServers, expect, test } from './fixtures.ts';

const YAML_LOADER = `import yaml

def load_config(path):
    """Read the YAML configuration file at path."""
    with open(path) as handle:
        return yaml.safe_load(handle)
`;
const NOTES = 'Deployment notes. Logs go to /var/log/app and are rotated weekly by logrotate.';

let page: Page;
useSdkPage(test, (p) => (page = p));

const startChat = allowedChatServers();

const relevantFragment = (raw: string) => ({ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(raw).asset } });

/** Runs one QGPTApi call in the page; a failure comes back as its status and error body. */
function qgpt(op: 'question' | 'reprompt' | 'hints' | 'personsRelated', request: object): Promise<any> {
  return page.evaluate(
    async ({ op, request }) => {
      const { Configuration, QGPTApi } = window.PiecesSDK;
      const api = new QGPTApi(new Configuration({ basePath: `${location.origin}/api`, fetchApi: window.recordingFetch })) as any;
      // The SDK serializes a GroupedTimestamp's value with Date.toISOString: make ISO strings Dates again.
      const revive = (x: any): void => {
        if (!x || typeof x !== 'object') return;
        if (x.timestamp && typeof x.timestamp.value === 'string') x.timestamp.value = new Date(x.timestamp.value);
        Object.values(x).forEach(revive);
      };
      revive(request);
      try {
        return { ok: await api[op](request) };
      } catch (error) {
        const response = (error as { response?: Response }).response;
        return { status: response?.status, body: await response?.json() };
      }
    },
    { op, request: JSON.parse(JSON.stringify(request)) },
  );
}

function settings(method: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, body }) => {
      const response = await window.recordingFetch('/api/qgpt/settings', {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      return { status: response.status, body: await response.json() };
    },
    { method, body },
  );
}

function create(seed: unknown): Promise<any> {
  return page.evaluate(async (seed) => window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed }), seed as object);
}

test('question: extractive answers from fragment seeds and from relevance ids; an unusable seed is a 422', async () => {
  const fromFragments = await qgpt('question', {
    qGPTQuestionInput: { query: 'how do I load the yaml config', relevant: { iterable: [relevantFragment(NOTES), relevantFragment(YAML_LOADER)] } } as unknown as QGPTQuestionInput,
  });
  const answers = fromFragments.ok.answers.iterable as { score: number; text: string }[];
  expect(answers).toHaveLength(2);
  expect(answers[0]!.text).toContain('yaml.safe_load(handle)');
  expect(answers[0]!.text).toMatch(/\nSource: /);
  expect(answers[0]!.score).toBeGreaterThan(answers[1]!.score);

  const asset = await create(fragmentSeed(YAML_LOADER, { name: 'config loader' }));
  const relevance = await page.evaluate(async () => {
    const { Configuration, QGPTApi } = window.PiecesSDK;
    const api = new QGPTApi(new Configuration({ basePath: `${location.origin}/api`, fetchApi: window.recordingFetch }));
    return api.relevance({ qGPTRelevanceInput: { query: 'load yaml config', options: { database: true } } });
  });
  const ids = relevance.relevant.iterable.map((r) => ({ id: r.id }));
  expect(ids.length).toBeGreaterThan(0);
  const byId = await qgpt('question', { qGPTQuestionInput: { query: 'load yaml config', relevant: { iterable: ids } } });
  expect(byId.ok.answers.iterable[0].text).toContain(`Source: 'config loader' (asset ${asset.id})`);

  const refused = await qgpt('question', { qGPTQuestionInput: { query: 'q', relevant: { iterable: [{ id: 'never-handed-out' }] } } });
  expect(refused).toMatchObject({ status: 422, body: { error: { code: 'relevant_seed_unusable' } } });
});

test('question: generative answers from a chat-completions server on localhost, and the fallback when it fails', async () => {
  const server = await startChat({ reply: 'Use `load_config(path)`, which calls yaml.safe_load [2].', chunkSize: 5 });
  expect(await settings('GET')).toEqual({ status: 200, body: { configured: false } });
  const put = await settings('PUT', { url: server.url, model: 'tiny', apiKey: 'sk-e2e-secret' });
  expect(put.body).toEqual({ configured: true, url: server.url, model: 'tiny', enabled: true, hasApiKey: true });
  expect(JSON.stringify((await settings('GET')).body)).not.toContain('sk-e2e-secret');
  expect((await settings('PUT', { url: 'nope', model: 'tiny' })).status).toBe(422);

  const input = { qGPTQuestionInput: { query: 'how do I load the yaml config', relevant: { iterable: [relevantFragment(NOTES), relevantFragment(YAML_LOADER)] } } };
  const generated = await qgpt('question', input);
  expect(generated.ok.answers.iterable[0].text).toBe('Use `load_config(path)`, which calls yaml.safe_load [2].\n\nSources:\n[2] a snippet given with the question');
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-e2e-secret');
  expect(server.requests[0]!.body).toMatchObject({ model: 'tiny', stream: true });
  expect(server.requests[0]!.body.messages[1].content).toContain(YAML_LOADER);

  server.mode = 'error500';
  const failed = await qgpt('question', input);
  expect(failed.ok.answers.iterable[0].text).toMatch(new RegExp(`^\\(The chat model at ${server.url.replace(/\./g, '\\.')} failed: it answered HTTP 500`));
  expect(failed.ok.answers.iterable[0].text).toContain('yaml.safe_load(handle)');

  server.mode = 'close-mid-stream';
  const broken = await qgpt('question', input);
  expect(broken.ok.answers.iterable[0].text).toMatch(/^\(The chat model at .* failed: .*; showing passages from your library instead\.\)/);

  const port = server.port;
  await server.close();
  const unreachable = await qgpt('question', input);
  expect(unreachable.ok.answers.iterable[0].text).toMatch(new RegExp(`^\\(The chat model at http://127\\.0\\.0\\.1:${port}/v1 failed: it could not be reached`));

  expect(await settings('DELETE')).toEqual({ status: 200, body: { configured: false } });
  const extractive = await qgpt('question', input);
  expect(extractive.ok.answers.iterable[0].text).not.toMatch(/chat model/);
});

test('reprompt, hints and related persons', async () => {
  const reprompted = await qgpt('reprompt', {
    qGPTRepromptInput: {
      query: 'how do I test it?',
      conversation: { iterable: [{ role: 'USER', text: 'parse a yaml config file in python', timestamp: { value: new Date().toISOString() } }] },
    } as unknown as QGPTRepromptInput,
  });
  expect(reprompted.ok).toEqual({ query: 'how do I test it? parse yaml config file python' });

  const hints = await qgpt('hints', {
    qGPTHintsInput: {
      relevant: { iterable: [relevantFragment(YAML_LOADER)] },
      query: 'how do I read a yaml file?',
      answer: { score: 1, text: 'Call load_config(path).' },
    } as unknown as QGPTHintsInput,
  });
  const suggested = hints.ok.answers.iterable as { score: number; text: string }[];
  expect(suggested.length).toBeGreaterThanOrEqual(3);
  expect(suggested[0]!.text).toBe('What does `load_config` return?');
  expect(suggested.every((h) => h.score > 0 && h.score <= 1)).toBe(true);

  const person = (name: string) => ({ type: { basic: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` } } });
  const loader = await create({ ...fragmentSeed(YAML_LOADER, { name: 'config loader', persons: [person('Ada Lovelace')] }), person: person('Grace Hopper') });
  await create(fragmentSeed('SELECT id FROM invoices;', { name: 'invoices', persons: [person('Edgar Codd')] }));
  const related = await qgpt('personsRelated', {
    transferables: false,
    qGPTPersonsRelatedInput: { seed: fragmentSeed('cfg = load_config("app.yaml")') } as unknown as QGPTPersonsRelatedInput,
  });
  const names = related.ok.persons.iterable.map((p: any) => p.type.basic.name).sort();
  expect(names).toEqual(['Ada Lovelace', 'Grace Hopper']);
  for (const p of related.ok.persons.iterable) expect(related.ok.explanations[p.id]).toMatch(/^linked to 'config loader' \(matched: .*load_config/);
  expect(related.ok.persons.iterable.map((p: any) => p.id).sort()).toEqual(loader.persons.iterable.map((p: any) => p.id).sort());

  const refused = await qgpt('personsRelated', { qGPTPersonsRelatedInput: {} });
  expect(refused).toMatchObject({ status: 422, body: { error: { code: 'persons_input_required' } } });
});
