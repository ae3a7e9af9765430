/**
 * `/qgpt/question` and `/qgpt/settings`: the extractive answerer, relevant seeds (ids, fragments, the 422
 * for unusable ones), the settings API, and the generative answerer against a real local chat-completions
 * server (test/support/chat-server.ts), including each way it can fail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withDefaults, type ServiceContext } from '../../worker/core/deps.ts';
import type { QGPTQuestionInput } from '../../worker/core/model/schemas.ts';
import { ChatError, streamChat } from '../../worker/core/qgpt/answer/chat.ts';
import { HISTORY_CHARS, type Turn } from '../../worker/core/qgpt/answer/generative.ts';
import { questionWithSources } from '../../worker/core/qgpt/answer/question.ts';
import { storeRelevant } from '../../worker/core/qgpt/relevant-ring.ts';
import { chatSettingsRecord } from '../../worker/core/qgpt/answer/chat-settings.ts';
import { chatServersPerTest, startChatServer } from '../support/chat-server.ts';
import { testClassifier } from '../support/classifier.ts';
import { dumpStore } from '../support/dump.ts';
import { PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';

const YAML_LOADER = `import yaml

def load_config(path):
    """Read the YAML configuration file at path."""
    with open(path) as handle:
        return yaml.safe_load(handle)
`;
const README = `Deployment notes. The service reads its settings from config.yaml at start. Restart it after editing the file.

Logs go to /var/log/tessera. Rotate them weekly.`;

const relevantFragment = (raw: string, extra: Record<string, unknown> = {}) => ({ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(raw).asset }, ...extra });

let api: TestApi;
let ctx: ServiceContext;

beforeEach(async () => {
  api = await createTestApi();
  ctx = withDefaults({ store: api.store, feed: api.feed, classifier: await testClassifier() });
});
const chatServer = chatServersPerTest(afterEach);

async function settings(method: string, body?: unknown) {
  const reply = await api.call(method, '/qgpt/settings', body);
  return { status: reply.status, body: reply.json() };
}

async function createAsset(raw: string, name: string) {
  return (await api.post('/assets/create', fragmentSeed(raw, { name }))).json().id as string;
}

/** Keeps a snippet as relevance does; answers the id it hands out. */
async function handOut(record: { text: string; asset?: string; path?: string; source?: string }) {
  return (await storeRelevant(ctx, [{ start: 0, end: record.text.length, ...record }]))[0]!;
}

describe('POST /qgpt/question, extractive (no model configured)', () => {
  it('answers from fragment seeds, best first, each naming its source; the same input gives the same answers', async () => {
    const input = { query: 'how do I load the yaml config file', relevant: { iterable: [relevantFragment(README), relevantFragment(YAML_LOADER), relevantFragment(PYTHON_SNIPPET)] } };
    const reply = await api.post('/qgpt/question', input);
    expect(reply.status).toBe(200);
    const answers = reply.json().answers.iterable as { score: number; text: string }[];
    expect(answers.length).toBe(3);
    for (const a of answers) expect(a.score).toBeGreaterThanOrEqual(0), expect(a.score).toBeLessThanOrEqual(1), expect(a.text).toMatch(/\nSource: /);
    expect(answers.map((a) => a.score)).toEqual([...answers.map((a) => a.score)].sort((a, b) => b - a));
    expect(answers[0]!.text).toContain('yaml.safe_load(handle)');
    expect(answers[0]!.text.startsWith('```\n')).toBe(true);
    expect(answers[2]!.text).toContain('argparse');
    expect(answers[2]!.score).toBeLessThan(answers[0]!.score);
    expect((await api.post('/qgpt/question', input)).json()).toEqual(reply.json());
  });

  it('shows the best window of a long code passage and the best sentences of long prose, verbatim', async () => {
    const filler = Array.from({ length: 30 }, (_, i) => `    total_${i} = compute_value(${i})`).join('\n');
    const code = `def report():\n${filler}\n    send_email(recipient, summary)\n    return summary\n`;
    const prose = `${'The weather was fine that day and nothing happened at all. '.repeat(12)}To rotate the signing key, run the rotate command. Then restart the server. ${'Later, people went home. '.repeat(6)}`;
    const answers = (await api.post('/qgpt/question', { query: 'send email', relevant: { iterable: [relevantFragment(code)] } })).json().answers.iterable;
    expect(answers[0].text).toContain('send_email(recipient, summary)');
    expect(answers[0].text).not.toContain('total_0 ');
    const body = answers[0].text.split('\n').slice(1, -3).join('\n');
    expect(code).toContain(body);
    const proseAnswer = (await api.post('/qgpt/question', { query: 'rotate signing key', relevant: { iterable: [relevantFragment(prose)] } })).json().answers.iterable[0];
    expect(proseAnswer.text).toContain('To rotate the signing key, run the rotate command.');
    expect(proseAnswer.text.length).toBeLessThan(prose.length / 2);
  });

  it('answers at most 5, one per passage', async () => {
    const iterable = Array.from({ length: 8 }, (_, i) => relevantFragment(`note ${i}: the cache key is built from the user id`));
    const answers = (await api.post('/qgpt/question', { query: 'cache key', relevant: { iterable } })).json().answers.iterable;
    expect(answers).toHaveLength(5);
    expect(new Set(answers.map((a: { text: string }) => a.text)).size).toBe(5);
  });

  it('resolves a seed by the id relevance handed out, naming the asset and its id; an asset reference names the asset', async () => {
    const asset = await createAsset(YAML_LOADER, 'config loader');
    const id = await handOut({ text: YAML_LOADER, asset, source: 'config loader' });
    const byId = (await api.post('/qgpt/question', { query: 'load yaml', relevant: { iterable: [{ id }] } })).json();
    expect(byId.answers.iterable[0].text).toContain(`Source: 'config loader' (asset ${asset})`);
    expect(byId.answers.iterable[0].text).toContain('yaml.safe_load');
    const byRef = (await api.post('/qgpt/question', { query: 'load yaml', relevant: { iterable: [relevantFragment(YAML_LOADER, { asset: { id: asset } })] } })).json();
    expect(byRef.answers.iterable[0].text).toContain(`Source: 'config loader' (asset ${asset})`);
    const result = await questionWithSources(ctx, { query: 'load yaml', relevant: { iterable: [{ id }] } } as unknown as QGPTQuestionInput);
    expect(result).toMatchObject({ assets: [asset], answerer: 'extractive' });
  });

  it('forgets a deleted asset: its snippets leave the ring in the delete, and a question naming their ids no longer quotes it', async () => {
    const secret = `def rotate_secret():\n    return "hunter2-${'x'.repeat(8)}"\n`;
    const asset = await createAsset(secret, 'secret rotation');
    const kept = await createAsset(YAML_LOADER, 'config loader');
    const out = (await api.post('/qgpt/relevance', { query: 'rotate secret hunter2 yaml config', options: { database: true } })).json();
    const handed = out.relevant.iterable as { id: string; asset: { id: string } }[];
    const ofSecret = handed.find((r) => r.asset.id === asset)!.id;
    const ofKept = handed.find((r) => r.asset.id === kept)!.id;
    expect((await api.post(`/assets/${asset}/delete`)).status).toBe(200);

    const ring = await api.store.read((tx) => tx.getAll('relevant'));
    expect(ring.some((r) => r.asset === asset || r.text.includes('hunter2'))).toBe(false);
    expect(ring.some((r) => r.asset === kept)).toBe(true);
    const reply = await api.post('/qgpt/question', { query: 'rotate secret', relevant: { iterable: [{ id: ofSecret }] } });
    expect(reply.status).toBe(422);
    expect(reply.text).not.toContain('hunter2');
    const both = await api.post('/qgpt/question', { query: 'load yaml', relevant: { iterable: [{ id: ofKept }] } });
    expect(both.json().answers.iterable[0].text).toContain('yaml.safe_load');
  });

  it('does not keep, nor answer from, a snippet of an asset deleted between ranking and storing', async () => {
    const asset = await createAsset(YAML_LOADER, 'config loader');
    expect((await api.post(`/assets/${asset}/delete`)).status).toBe(200);
    // What a relevance call that ranked the asset before the delete committed stores after it.
    const id = await handOut({ text: YAML_LOADER, asset, source: 'config loader' });
    expect(await api.store.read((tx) => tx.getAll('relevant'))).toEqual([]);
    expect((await api.post('/qgpt/question', { query: 'load yaml', relevant: { iterable: [{ id }] } })).status).toBe(422);
  });

  it('refuses an empty list and a seed with neither a known id nor a fragment: 422, nothing stored changes', async () => {
    const id = await handOut({ text: 'x = 1' });
    const missingAsset = '00000000-0000-4000-8000-000000000000';
    const cases: [unknown, RegExp][] = [
      [{ query: 'q', relevant: { iterable: [] } }, /empty/],
      [{ query: 'q', relevant: { iterable: [{ id }, { asset: { id: missingAsset } }] } }, /relevant\.iterable\[1\] has neither an id .* nor a fragment string/],
      [{ query: 'q', relevant: { iterable: [{ id: 'never-handed-out' }] } }, /relevant\.iterable\[0\]: the id 'never-handed-out' is not one/],
      [{ query: 'q', relevant: { iterable: [{ id: `${id.split('.')[0]}.othernonce` }] } }, /is not one/],
      [{ query: 'q', relevant: { iterable: [{ seed: { asset: { ...fragmentSeed('').asset } } }] } }, /relevant\.iterable\[0\] has neither/],
    ];
    for (const [body, message] of cases) {
      const before = await dumpStore(api.store);
      const reply = await api.post('/qgpt/question', body);
      expect(reply.status, reply.text).toBe(422);
      expect(reply.json().error.code).toBe('relevant_seed_unusable');
      expect(reply.json().error.message).toMatch(message);
      expect(await dumpStore(api.store)).toEqual(before);
    }
  });
});

describe('/qgpt/settings', () => {
  it('is empty at first; PUT stores url, model and key; GET never answers the key; DELETE clears', async () => {
    expect(await settings('GET')).toEqual({ status: 200, body: { configured: false } });
    const put = await settings('PUT', { url: 'http://localhost:11434/v1', model: 'llama3.2', apiKey: 'sk-secret' });
    expect(put).toEqual({ status: 200, body: { configured: true, url: 'http://localhost:11434/v1', model: 'llama3.2', enabled: true, hasApiKey: true } });
    const got = await settings('GET');
    expect(got.body).toEqual(put.body);
    expect(JSON.stringify(got.body)).not.toContain('sk-secret');
    expect(await chatSettingsRecord.read(ctx.store)).toMatchObject({ apiKey: 'sk-secret' });
    expect((await settings('PUT', { url: 'http://localhost:11434/v1', model: 'llama3.2', enabled: false })).body).toMatchObject({ enabled: false, hasApiKey: false });
    expect(await settings('DELETE')).toEqual({ status: 200, body: { configured: false } });
    expect(await settings('GET')).toEqual({ status: 200, body: { configured: false } });
  });

  it('refuses bad settings with 422 (400 for malformed JSON) and keeps what was stored', async () => {
    await settings('PUT', { url: 'http://localhost:1/v1', model: 'm' });
    const before = await dumpStore(api.store);
    for (const bad of [{ url: 'not a url', model: 'm' }, { url: 'ftp://host/v1', model: 'm' }, { url: 'http://h/v1' }, { url: 'http://h/v1', model: '' }, { url: 'http://h/v1', model: 'm', apiKey: 5 }, { url: 'http://h/v1', model: 'm', extra: true }, {}]) {
      const reply = await settings('PUT', bad);
      expect(reply.status, JSON.stringify(bad)).toBe(422);
      expect(reply.body.error.status).toBe(422);
    }
    expect((await settings('PUT', '{"url": ')).status).toBe(400);
    expect(await dumpStore(api.store)).toEqual(before);
  });
});

describe('PUT /qgpt/settings, where the API key may travel', () => {
  it('refuses a key with a plain http endpoint off this machine (422, nothing stored), and takes https or loopback http', async () => {
    await settings('PUT', { url: 'https://api.example.com/v1', model: 'm', apiKey: 'sk-kept' });
    const before = await dumpStore(api.store);
    for (const url of ['http://api.example.com/v1', 'http://192.168.1.5:11434/v1', 'http://127.0.0.1.example.com/v1', 'http://localhost.example.com/v1', 'http://[::2]/v1']) {
      const reply = await settings('PUT', { url, model: 'm', apiKey: 'sk-secret' });
      expect(reply.status, url).toBe(422);
      expect(reply.body.error).toMatchObject({ status: 422 });
      expect(reply.body.error.message, url).toMatch(/API key is sent only over https/);
    }
    expect(await dumpStore(api.store)).toEqual(before);
    for (const url of ['http://localhost:11434/v1', 'http://127.5.6.7/v1', 'http://127.1:8080/v1', 'http://[::1]:8080/v1', 'https://api.example.com/v1']) {
      expect((await settings('PUT', { url, model: 'm', apiKey: 'sk-secret' })).status, url).toBe(200);
    }
    // Without a key, any http endpoint (a server on the local network that needs none).
    expect((await settings('PUT', { url: 'http://192.168.1.5:11434/v1', model: 'm' })).status).toBe(200);
  });
});

describe('generative answers from a configured chat-completions endpoint', () => {
  const question = (extra: Record<string, unknown> = {}) =>
    ({ query: 'how do I load the yaml config file', relevant: { iterable: [relevantFragment(README), relevantFragment(YAML_LOADER)] }, ...extra }) as unknown as QGPTQuestionInput;

  it('streams the model answer through onDelta, sends the key as a Bearer token, grounds the prompt and lists the cited sources', async () => {
    const server = await chatServer({ reply: 'Call `load_config(path)`; it uses yaml.safe_load [2].', chunkSize: 6 });
    const asset = await createAsset(YAML_LOADER, 'config loader');
    const id = await handOut({ text: YAML_LOADER, asset, source: 'config loader' });
    await settings('PUT', { url: server.url, model: 'tiny-model', apiKey: 'sk-secret' });
    const deltas: string[] = [];
    const input = { query: 'how do I load the yaml config file', relevant: { iterable: [relevantFragment(README), { id }] } };
    const result = await questionWithSources(ctx, input as unknown as QGPTQuestionInput, { onDelta: (d) => deltas.push(d) });

    const first = result.output.answers.iterable[0]!;
    expect(first.text).toBe(`Call \`load_config(path)\`; it uses yaml.safe_load [2].\n\nSources:\n[2] 'config loader' (asset ${asset})`);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(first.text);
    expect(result).toMatchObject({ answerer: 'generative', assets: [asset] });
    expect(first.score).toBeGreaterThan(0);
    expect(result.output.answers.iterable.length).toBeGreaterThan(1);
    for (const a of result.output.answers.iterable.slice(1)) expect(a.score).toBeLessThanOrEqual(first.score), expect(a.text).toMatch(/\nSource: /);

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-secret');
    expect(request.body).toMatchObject({ model: 'tiny-model', stream: true });
    const [system, user] = request.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/only from the numbered snippets/);
    expect(user.role).toBe('user');
    expect(user.content).toContain(`[2] from 'config loader' (asset ${asset}):\n${YAML_LOADER}`);
    expect(user.content).toContain('[1] from a snippet given with the question:\nDeployment notes.');
    expect(user.content).toMatch(/Question: how do I load the yaml config file$/);
  });

  it('answers the same through the route, and sends no Authorization header without a key', async () => {
    const server = await chatServer({ reply: 'See [1] and [9].' });
    await settings('PUT', { url: `${server.url}/`, model: 'm' });
    const reply = await api.post('/qgpt/question', question());
    expect(reply.status).toBe(200);
    expect(reply.json().answers.iterable[0].text).toBe('See [1] and [9].\n\nSources:\n[1] a snippet given with the question');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
  });

  it('names every snippet given when the model cites none', async () => {
    const server = await chatServer({ reply: 'I cannot tell.' });
    await settings('PUT', { url: server.url, model: 'm' });
    const text = (await api.post('/qgpt/question', question())).json().answers.iterable[0].text;
    expect(text).toBe('I cannot tell.\n\nSources: the model cited none of the snippets it was given:\n[1] a snippet given with the question\n[2] a snippet given with the question');
  });

  it('carries earlier turns of the conversation (stored messages named in input.messages, or given history)', async () => {
    const server = await chatServer({ reply: 'Yes [1].' });
    await settings('PUT', { url: server.url, model: 'm' });
    await api.store.write(async (tx) => {
      await tx.put('messages', { id: 'm1', conversation: 'c1', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', role: 'USER', text: 'where are the settings read?', assets: [] });
      await tx.put('messages', { id: 'm2', conversation: 'c1', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', role: 'ASSISTANT', text: 'From config.yaml.', assets: [] });
    });
    await api.post('/qgpt/question', question({ messages: { iterable: [{ id: 'm1' }, { id: 'm2' }] } }));
    expect(server.requests[0]!.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(server.requests[0]!.body.messages[1].content).toBe('where are the settings read?');
    await questionWithSources(ctx, question(), { history: [{ role: 'USER', text: 'earlier question' }] });
    expect(server.requests[1]!.body.messages[1]).toEqual({ role: 'user', content: 'earlier question' });
  });

  it(`puts at most ${HISTORY_CHARS} characters of earlier turns into the prompt, the newest first`, async () => {
    const server = await chatServer({ reply: 'Yes [1].' });
    await settings('PUT', { url: server.url, model: 'm' });
    const turn = (i: number): Turn => ({ role: i % 2 === 0 ? 'USER' : 'ASSISTANT', text: `${i}:`.padEnd(3000, 'x') });
    const history = Array.from({ length: 10 }, (_, i) => turn(i));
    await questionWithSources(ctx, question(), { history });
    const sent = server.requests[0]!.body.messages.slice(1, -1).map((m: { content: string }) => m.content);
    const fitting = Math.floor(HISTORY_CHARS / 3000);
    expect(sent).toEqual(history.slice(-fitting).map((t) => t.text));
    // One turn longer than the whole budget keeps its end.
    const long = `${'a'.repeat(HISTORY_CHARS)}the end`;
    await questionWithSources(ctx, question(), { history: [turn(0), { role: 'USER', text: long }] });
    const alone = server.requests[1]!.body.messages.slice(1, -1).map((m: { content: string }) => m.content);
    expect(alone).toEqual([long.slice(-HISTORY_CHARS)]);
  });

  it('POST /qgpt/question stops when its client goes away, without waiting for a silent endpoint', async () => {
    const server = await chatServer({ mode: 'silent' });
    await settings('PUT', { url: server.url, model: 'm' });
    const client = new AbortController();
    // In process the app answers the aborted request with a checked error; over HTTP the client that went away gets nothing.
    const outcome = api.call('POST', '/qgpt/question', question(), {}, client.signal).then(
      (reply) => reply.status,
      (error: Error) => error.name,
    );
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    client.abort();
    // The endpoint stays silent for the default 30 s: only the abort can make the service close its request
    // there before this 20 s deadline.
    for (const end = Date.now() + 20_000; server.abandoned === 0; await new Promise((resolve) => setTimeout(resolve, 10))) {
      if (Date.now() > end) throw new Error('the service still waits for the silent endpoint after its client went away');
    }
    const ended = await outcome;
    expect(ended === 'AbortError' || (typeof ended === 'number' && ended >= 400), String(ended)).toBe(true);
  });

  it('is not used while disabled', async () => {
    const server = await chatServer();
    await settings('PUT', { url: server.url, model: 'm', enabled: false });
    const result = await questionWithSources(ctx, question());
    expect(result.answerer).toBe('extractive');
    expect(server.requests).toHaveLength(0);
  });

  async function fallsBack(configure: () => Promise<string>, reason: RegExp, options: { timeoutMs?: number } = {}) {
    const url = await configure();
    const deltas: string[] = [];
    const result = await questionWithSources(ctx, question(), { onDelta: (d) => deltas.push(d), ...options });
    const first = result.output.answers.iterable[0]!;
    expect(result.answerer).toBe('extractive');
    expect(result.fallback).toMatch(reason);
    expect(first.text.startsWith(`(The chat model at ${url} failed: `)).toBe(true);
    expect(first.text).toMatch(/; showing passages from your library instead\.\)\n\n/);
    expect(first.text).toContain('yaml.safe_load(handle)');
    expect(first.text).toMatch(/\nSource: /);
    return { deltas, first };
  }

  it('falls back to extractive answers, saying so, when the endpoint answers 500', async () => {
    const server = await chatServer({ mode: 'error500' });
    const { deltas, first } = await fallsBack(async () => (await settings('PUT', { url: server.url, model: 'm' }), server.url), /^it answered HTTP 500$/);
    expect(deltas).toEqual([first.text]);
    // The endpoint's error body (which may echo the key) is neither shown nor stored.
    expect(first.text).not.toContain('model crashed');
    // And through the route.
    const reply = (await api.post('/qgpt/question', question())).json();
    expect(reply.answers.iterable[0].text).toMatch(/^\(The chat model at .* failed: it answered HTTP 500/);
  });

  it('falls back when the endpoint closes the stream midway (the partial text was already streamed)', async () => {
    const server = await chatServer({ mode: 'close-mid-stream', reply: 'Partial answer that never ends', chunkSize: 8 });
    const { deltas, first } = await fallsBack(async () => (await settings('PUT', { url: server.url, model: 'm' }), server.url), /stream (broke off|ended before)/);
    expect(deltas[0]).toBe('Partial ');
    expect(deltas.at(-1)).toBe(`\n\n${first.text}`);
    expect(first.text).not.toContain('Partial');
  });

  it('falls back when the endpoint cannot be reached, sends a malformed stream, or is silent past the timeout', async () => {
    const gone = await startChatServer();
    await gone.close();
    await fallsBack(async () => (await settings('PUT', { url: gone.url, model: 'm' }), gone.url), /could not be reached/);
    const malformed = await chatServer({ mode: 'malformed' });
    await fallsBack(async () => (await settings('PUT', { url: malformed.url, model: 'm' }), malformed.url), /malformed event/);
    const silent = await chatServer({ mode: 'silent' });
    // The reason names the 0.3 s given, so the fallback came from that timeout, not the 30 s default.
    await fallsBack(async () => (await settings('PUT', { url: silent.url, model: 'm' }), silent.url), /stopped sending for 0\.3 s|no answer within 0\.3 s/, { timeoutMs: 300 });
  });

  it('stops when the signal aborts: the fetch is aborted and no fallback is made', async () => {
    const server = await chatServer({ reply: 'x'.repeat(400), chunkSize: 4, delayMs: 20 });
    await settings('PUT', { url: server.url, model: 'm' });
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = questionWithSources(ctx, question(), { signal: controller.signal, onDelta: (d) => (deltas.push(d), deltas.length === 3 && controller.abort()) });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(deltas).toHaveLength(3);
  });

  it('reads a server that ignores stream and answers one JSON completion', async () => {
    const fetchJson: typeof fetch = async () =>
      new Response(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Whole answer [1].' } }] }), { headers: { 'content-type': 'application/json' } });
    const deltas: string[] = [];
    const text = await streamChat({ ...ctx, fetch: fetchJson }, { url: 'http://h/v1', model: 'm' }, [], { onDelta: (d) => deltas.push(d) });
    expect(text).toBe('Whole answer [1].');
    expect(deltas).toEqual(['Whole answer [1].']);
    await expect(streamChat({ ...ctx, fetch: async () => new Response('data: [DONE]\n\n') }, { url: 'http://h/v1', model: 'm' }, [])).rejects.toBeInstanceOf(ChatError);
  });
});
