/**
 * `/qgpt/reprompt`, `/qgpt/hints` and `/qgpt/persons/related`: the rule-based reprompt and its generative
 * form against a local chat-completions server (with fallback), suggested questions, and the persons
 * linked to the most relevant assets.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatServersPerTest, configureChatEndpoint, startChatServer } from '../support/chat-server.ts';
import { dumpStore } from '../support/dump.ts';
import { fragmentSeed } from '../support/seeds.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';

const T = { value: '2026-01-01T00:00:00.000Z' };
const turn = (role: string, text: string) => ({ role, text, timestamp: T });
const relevantFragment = (raw: string) => ({ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(raw).asset } });

const CONFIG_CODE = `import yaml

def parse_config(path):
    with open(path) as handle:
        return load_yaml(handle)

def load_yaml(stream):
    return yaml.safe_load(stream)

class ConfigError(Exception):
    pass
`;

let api: TestApi;
beforeEach(async () => {
  api = await createTestApi();
});
const startChat = chatServersPerTest(afterEach);

async function configure(options: Parameters<typeof startChatServer>[0]) {
  const server = await startChat(options);
  await configureChatEndpoint(api, server);
  return server;
}

describe('POST /qgpt/reprompt', () => {
  it('carries the salient words of earlier user turns into the follow-up', async () => {
    const reply = await api.post('/qgpt/reprompt', {
      query: 'how do I test it?',
      conversation: { iterable: [turn('USER', 'parse a yaml config file in python'), turn('ASSISTANT', 'Use `yaml.safe_load` inside a with block.')] },
    });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ query: 'how do I test it? parse yaml config file python yaml.safe_load' });
  });

  it('carries no part of an asset id that an extractive answer names as its source', async () => {
    const id = '2c6638af-5b1e-4c2a-9f0e-1d2e3f4a5b6c';
    const reply = await api.post('/qgpt/reprompt', {
      query: 'is it fast?',
      conversation: { iterable: [turn('USER', 'check whether a number is prime'), turn('ASSISTANT', `def is_prime(n): ...\nSource: 'Check prime' (asset ${id})`)] },
    });
    const query = reply.json().query as string;
    expect(query).toContain('prime');
    expect(query).not.toMatch(/2c6638af|5b1e|1d2e3f4a5b6c/);
  });

  it('prefers the most recent user turn and identifiers, skips what the follow-up says, and keeps at most 6 words', async () => {
    const query = (
      await api.post('/qgpt/reprompt', {
        query: 'and for the config?',
        conversation: {
          iterable: [
            turn('USER', 'kubernetes helm charts and rollouts'),
            turn('USER', 'why does loadSettings fail on the staging server'),
          ],
        },
      })
    ).json().query as string;
    expect(query).toBe('and for the config? loadSettings fail staging server kubernetes helm');
  });

  it('answers the follow-up alone when there is nothing to carry, the last user turn when the query is empty, 422 with neither', async () => {
    expect((await api.post('/qgpt/reprompt', { query: 'list python files', conversation: {} })).json()).toEqual({ query: 'list python files' });
    expect((await api.post('/qgpt/reprompt', { query: ' ', conversation: { iterable: [turn('USER', 'sort a dict by value')] } })).json()).toEqual({ query: 'sort a dict by value' });
    const refused = await api.post('/qgpt/reprompt', { query: '', conversation: { iterable: [] } });
    expect(refused.status).toBe(422);
    expect(refused.json().error.code).toBe('query_required');
  });

  it('asks the configured model for a standalone query, and falls back to carried words when it fails', async () => {
    const server = await configure({ reply: '"How to test a YAML config parser in Python"\n' });
    const input = { query: 'how do I test it?', conversation: { iterable: [turn('USER', 'parse a yaml config file in python'), turn('ASSISTANT', 'Use yaml.safe_load.')] } };
    expect((await api.post('/qgpt/reprompt', input)).json()).toEqual({ query: 'How to test a YAML config parser in Python' });
    const messages = server.requests[0]!.body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[0].content).toMatch(/standalone search query/);
    expect(messages[3].content).toContain('how do I test it?');
    server.mode = 'error500';
    expect((await api.post('/qgpt/reprompt', input)).json()).toEqual({ query: 'how do I test it? parse yaml config file python yaml.safe_load' });
  });
});

describe('POST /qgpt/hints', () => {
  it('suggests 3-5 questions about identifiers of the snippets and answer the query did not mention, best first, deterministic', async () => {
    const input = {
      relevant: { iterable: [relevantFragment(CONFIG_CODE)] },
      query: 'how do I read the config file?',
      answer: { score: 0.8, text: 'Call parse_config(path); it returns what load_yaml returns.\n\nSource: asset 00000000-0000-4000-8000-000000000000' },
    };
    const reply = await api.post('/qgpt/hints', input);
    expect(reply.status).toBe(200);
    const hints = reply.json().answers.iterable as { score: number; text: string }[];
    expect(hints.length).toBeGreaterThanOrEqual(3);
    expect(hints.length).toBeLessThanOrEqual(5);
    const texts = hints.map((h) => h.text);
    expect(texts.slice(0, 2)).toEqual(['What does `load_yaml` return?', 'How is `parse_config` used?']);
    expect(texts).toContain('What is `ConfigError` for?');
    expect(texts.join(' ')).not.toMatch(/`open`|`yaml`|config file/);
    expect(new Set(texts).size).toBe(texts.length);
    expect(hints.map((h) => h.score)).toEqual([...hints.map((h) => h.score)].sort((a, b) => b - a));
    for (const h of hints) expect(h.score).toBeGreaterThan(0), expect(h.score).toBeLessThanOrEqual(1);
    expect(texts.join(' ')).not.toMatch(/00000000|Source|asset/);
    expect((await api.post('/qgpt/hints', input)).json()).toEqual(reply.json());
  });

  it('does not suggest what the previous query already asked about', async () => {
    const hints = (await api.post('/qgpt/hints', { relevant: { iterable: [relevantFragment(CONFIG_CODE)] }, query: 'what does parse_config return' })).json().answers.iterable as { text: string }[];
    expect(hints.map((h) => h.text).join('\n')).not.toContain('parse_config');
  });

  it('falls back to general questions when the snippets say little, never repeating the query', async () => {
    const hints = (await api.post('/qgpt/hints', { relevant: { iterable: [] }, query: 'How can I test this?' })).json().answers.iterable as { text: string; score: number }[];
    expect(hints.map((h) => h.text)).toEqual(['Can you explain this code step by step?', 'What edge cases should I watch for here?']);
    expect(hints.length).toBeGreaterThan(0);
    const refused = await api.post('/qgpt/hints', { relevant: { iterable: [{ id: 'unknown' }] } });
    expect(refused.status).toBe(422);
    expect(refused.json().error.code).toBe('relevant_seed_unusable');
  });
});

describe('POST /qgpt/persons/related', () => {
  const person = (name: string, email: string) => ({ type: { basic: { name, email } } });

  async function library() {
    const create = async (seed: unknown) => (await api.post('/assets/create', seed)).json();
    const yaml = await create({ ...fragmentSeed(CONFIG_CODE, { name: 'config loader', persons: [person('Ada Lovelace', 'ada@example.com')] }), person: person('Grace Hopper', 'grace@example.com') });
    const sql = await create(fragmentSeed('SELECT customer_id, SUM(total) FROM invoices GROUP BY customer_id;', { name: 'revenue report', persons: [person('Edgar Codd', 'ted@example.com')] }));
    const lonely = await create(fragmentSeed('def parse_config_v2(): pass', { name: 'nobody' }));
    return { yaml, sql, lonely };
  }

  it('answers the persons of the assets most relevant to a seed fragment, with explanations', async () => {
    const { yaml, sql } = await library();
    const reply = await api.post('/qgpt/persons/related', { seed: fragmentSeed('config = parse_config("app.yaml")  # load_yaml under the hood') });
    expect(reply.status).toBe(200);
    const body = reply.json();
    const names = body.persons.iterable.map((p: any) => p.type.basic.name).sort();
    expect(names).toEqual(['Ada Lovelace', 'Grace Hopper']);
    const ids = yaml.persons.iterable.map((p: any) => p.id).sort();
    expect(body.persons.iterable.map((p: any) => p.id).sort()).toEqual(ids);
    for (const id of ids) {
      expect(body.explanations[id]).toMatch(/^linked to 'config loader' \(matched: .*parse_config.*\)/);
      expect(body.persons.iterable.find((p: any) => p.id === id).assets.iterable.map((a: any) => a.id)).toEqual([yaml.id]);
    }
    expect(JSON.stringify(body)).not.toContain(sql.persons.iterable[0].id);
  });

  it('reads a conversation too, and answers no persons when nothing matches', async () => {
    const { sql } = await library();
    const body = (await api.post('/qgpt/persons/related', { conversation: { iterable: [turn('USER', 'who wrote the invoices revenue query?')] } })).json();
    expect(body.persons.iterable.map((p: any) => p.id)).toEqual([sql.persons.iterable[0].id]);
    expect(body.explanations[sql.persons.iterable[0].id]).toMatch(/'revenue report' \(matched: .*invoices/);
    const none = (await api.post('/qgpt/persons/related', { conversation: { iterable: [turn('USER', 'kubernetes ingress annotations')] } })).json();
    expect(none.persons.iterable).toEqual([]);
  });

  it('needs a seed with a fragment or a conversation: 422, nothing changes', async () => {
    await library();
    for (const body of [undefined, {}, { seed: { type: 'SEEDED_ASSET' } }]) {
      const before = await dumpStore(api.store);
      const reply = await api.post('/qgpt/persons/related', body);
      expect(reply.status, reply.text).toBe(422);
      expect(await dumpStore(api.store)).toEqual(before);
    }
  });
});
