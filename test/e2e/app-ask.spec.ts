/**
 * The Ask view as a person uses it, in Chromium, found by role and name only, with the page's CSP
 * enforced: questions about a small CoSQA-style library (functions with docstrings) answered over
 * `/qgpt/stream`, the answer linking the asset it used by name; Stop mid-answer; answers written by an
 * OpenAI-compatible stand-in (test/support/chat-server.ts, a test fixture) configured through Settings;
 * follow-ups in one conversation, which is listed, reopened after a reload, renamed and deleted for good;
 * suggested questions; and the plain note when no answer endpoint is set.
 */
import type { Page } from '@playwright/test';
import { createAssets, openApp, watchPage, type SeedSpec } from './app-support.ts';
import { allowedChatServers, expect, test } from './fixtures.ts';

// The page's own Content-Security-Policy applies here, as in app.spec.ts.
test.use({ bypassCSP: false });
// Each test installs the worker and fills a library first: near the 30 s default on a loaded machine.
test.describe.configure({ timeout: 60_000 });

const startChat = allowedChatServers();

/** CoSQA-style: a function each, its docstring saying what it does in the words a question would use. */
const COSQA_LIBRARY: SeedSpec[] = [
  {
    name: 'Check prime number',
    language: 'py',
    raw: `def is_prime(n):
    """Return True if the integer n is a prime number, checking divisors up to its square root."""
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True
`,
  },
  {
    name: 'Read JSON file',
    language: 'py',
    raw: `import json


def read_json(path):
    """Load a JSON file from disk and return the parsed dictionary."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
`,
  },
  {
    name: 'Flatten nested list',
    language: 'py',
    raw: `def flatten(items):
    """Flatten an arbitrarily nested list of lists into one flat list."""
    out = []
    for item in items:
        if isinstance(item, list):
            out.extend(flatten(item))
        else:
            out.append(item)
    return out
`,
  },
  {
    name: 'Debounce function',
    language: 'js',
    raw: `/**
 * Debounce a function: delay calling fn until wait milliseconds have passed since the last call.
 */
export function debounce(fn, wait = 200) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}
`,
  },
  {
    name: 'Deep clone object',
    language: 'js',
    raw: `/**
 * Deep clone a plain object or array, copying nested objects instead of sharing them.
 */
export function deepClone(value) {
  if (Array.isArray(value)) return value.map(deepClone);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepClone(v)]));
  }
  return value;
}
`,
  },
];

/** A navigation item of the app's rail. */
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const question = (page: Page) => page.getByRole('textbox', { name: 'Question' });
const askButton = (page: Page) => page.getByRole('button', { name: 'Ask', exact: true });
const answers = (page: Page) => page.getByRole('region', { name: 'Answer' });
/** The questions asked, as the exchanges show them (not the conversation list). */
const asked = (page: Page, text: string) => page.getByRole('region', { name: 'Ask your library' }).getByText(text, { exact: true });
const conversations = (page: Page) => page.getByRole('complementary', { name: 'Conversations' });

/** Opens the app, seeds the library, and goes to Ask by its navigation item. */
async function openAsk(page: Page, library: SeedSpec[] = COSQA_LIBRARY): Promise<void> {
  await openApp(page);
  if (library.length) {
    await createAssets(page, library);
    await expect(page.getByRole('list', { name: 'Library' }).getByRole('listitem')).toHaveCount(library.length);
  }
  await nav(page, 'Ask').click();
  await expect(page.getByRole('heading', { name: 'Ask your library' })).toBeVisible();
}

async function ask(page: Page, text: string): Promise<void> {
  await question(page).fill(text);
  await askButton(page).click();
}

/** Waits until the answer `index` is complete (no longer busy, the Ask button back). */
async function answered(page: Page, index: number): Promise<void> {
  await expect(answers(page).nth(index)).toHaveAttribute('aria-busy', 'false', { timeout: 15_000 });
  await expect(askButton(page)).toBeVisible();
}

/** The Settings card of the answer endpoint (the embeddings endpoint's card has the same fields). */
const answerCard = (page: Page) => page.getByRole('region', { name: 'Answer endpoint' });

/** Makes the stand-in the answer endpoint through Settings (Endpoint URL, Model, Save endpoint). */
async function configureInSettings(page: Page, url: string): Promise<void> {
  await nav(page, 'Settings').click();
  await answerCard(page).getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
  await answerCard(page).getByRole('textbox', { name: 'Model' }).fill('stand-in');
  await answerCard(page).getByRole('button', { name: 'Save endpoint' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
}

test('without an endpoint the view says answers are extractive; an answer about the library links the right asset by name, and the link opens it', async ({ page }) => {
  const check = await watchPage(page);
  await openAsk(page);
  // No endpoint: the view says plainly that answers are extractive and where to set an endpoint.
  const note = page.getByRole('note').filter({ hasText: 'Answers are extractive' });
  await expect(note).toBeVisible();
  await expect(note.getByRole('link', { name: 'Settings' })).toBeVisible();

  await ask(page, 'How do I check whether a number is prime?');
  await answered(page, 0);
  const answer = answers(page).first();
  await expect(answer).toContainText('def is_prime(n):');
  await expect(answer.getByRole('link', { name: 'Check prime number' }).first()).toBeVisible();
  await expect(answer.getByRole('link', { name: 'Read JSON file' })).toHaveCount(0);

  await answer.getByRole('link', { name: 'Check prime number' }).first().click();
  await expect(page.getByRole('heading', { name: 'Check prime number', level: 2 })).toBeVisible();
  await expect(page.getByRole('code')).toContainText('while i * i <= n');
  await check();
});

test('Stop mid-answer: the answer ends as stopped with the text streamed so far', async ({ page }) => {
  const check = await watchPage(page);
  const server = await startChat({ reply: 'Use is_prime(n), which tries divisors up to the square root. '.repeat(20), chunkSize: 4, delayMs: 60 });
  await openAsk(page);
  await configureInSettings(page, server.url);
  await nav(page, 'Ask').click();

  await ask(page, 'How do I check whether a number is prime?');
  const answer = answers(page).first();
  // Streamed: the first words show while the answer is still coming (the region is busy).
  await expect(answer).toContainText('Use is_prime', { timeout: 15_000 });
  await expect(answer).toHaveAttribute('aria-busy', 'true');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(answer.getByText('Stopped.')).toBeVisible();
  await expect(answer).toHaveAttribute('aria-busy', 'false');
  await expect(askButton(page)).toBeVisible();
  const text = (await answer.textContent()) ?? '';
  expect(text).toContain('Use is_prime');
  expect(text.length).toBeLessThan(server.reply.length);
  await check();
});

test('with the stand-in configured the answer comes from it; Test connection succeeds; a key over plain http elsewhere is refused', async ({ page }) => {
  const check = await watchPage(page);
  const server = await startChat({ reply: 'The stand-in says: call `is_prime(n)`.', chunkSize: 6 });
  await openAsk(page);

  // A key over plain http to another machine is refused in the UI, and nothing is saved.
  await nav(page, 'Settings').click();
  await answerCard(page).getByRole('textbox', { name: 'Endpoint URL' }).fill('http://models.example.com/v1');
  await answerCard(page).getByRole('textbox', { name: 'Model' }).fill('stand-in');
  await answerCard(page).getByLabel('API key (optional)').fill('sk-secret');
  await answerCard(page).getByRole('button', { name: 'Save endpoint' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'An API key is only sent over https://' })).toBeVisible();
  expect(await page.evaluate(() => fetch('/api/qgpt/settings').then((r) => r.json()))).toEqual({ configured: false });
  await expect(page.getByRole('button', { name: 'Test connection' })).toHaveCount(0);

  await answerCard(page).getByLabel('API key (optional)').fill('');
  await configureInSettings(page, server.url);
  await answerCard(page).getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Connected: stand-in at ${server.url} answered` })).toBeVisible();

  await nav(page, 'Ask').click();
  await expect(page.getByRole('note').filter({ hasText: 'Answers are extractive' })).toHaveCount(0);
  await ask(page, 'How do I check whether a number is prime?');
  await answered(page, 0);
  await expect(answers(page).first()).toContainText('The stand-in says: call is_prime(n).');
  // The stand-in was asked the question, with the snippet found for it.
  const asking = server.requests.filter((r) => JSON.stringify(r.body.messages).includes('How do I check whether a number is prime?'));
  expect(asking).toHaveLength(1);
  expect(asking[0]!.body.model).toBe('stand-in');
  expect(JSON.stringify(asking[0]!.body.messages)).toContain('def is_prime(n)');
  await check();
});

test('a follow-up keeps the conversation; it is listed, reopened after a reload, renamed and deleted for good', async ({ page }) => {
  const check = await watchPage(page);
  await openAsk(page);
  await ask(page, 'How do I check whether a number is prime?');
  await answered(page, 0);
  await ask(page, 'Is it fast for large values?');
  await answered(page, 1);
  await expect(answers(page)).toHaveCount(2);
  await expect(asked(page, 'How do I check whether a number is prime?')).toBeVisible();
  await expect(asked(page, 'Is it fast for large values?')).toBeVisible();
  // The follow-up does not say what "it" is (alone, it finds "Deep clone object" first): the conversation does.
  await expect(answers(page).nth(1).getByRole('link', { name: 'Check prime number' }).first()).toBeVisible();
  await expect(answers(page).nth(1).getByRole('link', { name: 'Deep clone object' })).toHaveCount(0);
  const list = conversations(page).getByRole('listitem');
  await expect(list).toHaveCount(1);

  await page.reload();
  await expect(list).toHaveCount(1);
  await expect(answers(page)).toHaveCount(0);
  // Named after its first question.
  const opener = list.getByRole('button', { name: /^How do I check whether a number is prime\?/ });
  await opener.click();
  await expect(answers(page)).toHaveCount(2);
  await expect(asked(page, 'How do I check whether a number is prime?')).toBeVisible();
  await expect(asked(page, 'Is it fast for large values?')).toBeVisible();

  await list.getByRole('button', { name: /^Rename / }).click();
  const field = page.getByRole('textbox', { name: 'Conversation name' });
  await field.fill('Primes and speed');
  await field.press('Enter');
  await expect(list.getByRole('button', { name: /^Primes and speed/ })).toBeVisible();
  await expect(opener).toHaveCount(0);

  await list.getByRole('button', { name: 'Delete Primes and speed' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(list).toHaveCount(0);
  await expect(conversations(page).getByText('No conversations yet.')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => fetch('/api/conversations').then((r) => r.json()).then((b: { iterable: unknown[] }) => b.iterable.length)))
    .toBe(0);
  await check();
});

test('suggested questions appear after an answer, and one asks itself when clicked', async ({ page }) => {
  const check = await watchPage(page);
  await openAsk(page);
  await ask(page, 'How do I flatten a nested list?');
  await answered(page, 0);
  const hints = page.getByRole('list', { name: 'Suggested questions' });
  await expect(hints).toBeVisible();
  const first = hints.getByRole('button').first();
  const hint = ((await first.textContent()) ?? '').trim();
  expect(hint).not.toBe('');
  await first.click();
  await expect(answers(page)).toHaveCount(2);
  await expect(asked(page, hint)).toBeVisible();
  await answered(page, 1);
  // Asked in the same conversation.
  await expect(conversations(page).getByRole('listitem')).toHaveCount(1);
  await check();
});
