/**
 * `POST /qgpt/hints`: follow-up questions to suggest after an answer (a QGPTQuestionOutput whose answers
 * are the questions). Deterministic, from the words the relevant snippets and the answer use that the
 * previous query did not: identifiers first (a function gives "What does `f` return?" or "How is `f`
 * used?", a type "What is `T` for?", another identifier "Where is `x` set?"), then plain words ("How does
 * the code handle <word>?"). A word scores by how often it occurs, in how many snippets, and whether it is
 * an identifier; the scores are relative to the best (in (0, 1]). At most MAX_HINTS, at least MIN_HINTS
 * (general questions fill in, scored below the others); none repeats the previous query.
 */
import type { ServiceContext } from '../../deps.ts';
import type { QGPTHintsInput, QGPTQuestionAnswer, QGPTQuestionOutput } from '../../model/schemas.ts';
import { passagesOf } from './relevant-seeds.ts';
import { meaningfulTerms, mentionedIn, salientWords, type SalientWord } from './terms.ts';
import { answerScore } from './passage.ts';

export const MAX_HINTS = 5;
export const MIN_HINTS = 3;

/** Words of code that say nothing about it. */
const KEYWORDS = new Set(
  ('def class function func fn return import from const let var self this true false none null undefined new ' +
    'public private protected static void int str string bool boolean float double char else elif while for ' +
    'try catch except finally raise throw async await yield lambda package struct interface type print println ' +
    'source sources asset snippet given model cited').split(' '),
);

const GENERAL = ['Can you explain this code step by step?', 'What edge cases should I watch for here?', 'How can I test this?'];

interface Candidate {
  word: SalientWord;
  count: number;
  passages: number;
  kind: 'function' | 'type' | 'identifier' | 'word';
  order: number;
}

export async function hints(ctx: ServiceContext, input: QGPTHintsInput): Promise<QGPTQuestionOutput> {
  // Read through a narrow view: the inferred wire type is too deep for the type checker here.
  const view = input as unknown as { relevant: { iterable: unknown[] }; query?: string | null; answer?: { text: string } | null };
  const passages = await passagesOf(ctx, view.relevant, { allowEmpty: true });
  const query = view.query ?? '';
  const said = meaningfulTerms(query);
  const texts = [...passages.map((p) => p.text), answerBody(view.answer?.text ?? '')];

  const candidates = new Map<string, Candidate>();
  texts.forEach((text, t) => {
    const fromPassage = t < passages.length;
    for (const word of salientWords(text)) {
      if (KEYWORDS.has(word.text.toLowerCase()) || mentionedIn(word, said)) continue;
      const known = candidates.get(word.term);
      if (known) {
        known.count += word.count;
        if (fromPassage) known.passages++;
        if (known.kind === 'word' || known.kind === 'identifier') known.kind = kindOf(word, text, known.kind);
        continue;
      }
      candidates.set(word.term, { word, count: word.count, passages: fromPassage ? 1 : 0, kind: kindOf(word, text), order: candidates.size });
    }
  });

  const weight = (c: Candidate) => (Math.log2(1 + c.count) + c.passages) * (c.kind === 'word' ? 0.5 : c.kind === 'identifier' ? 1 : 1.25);
  const ranked = [...candidates.values()].sort((a, b) => weight(b) - weight(a) || a.order - b.order);
  const best = ranked.length > 0 ? weight(ranked[0]!) : 1;
  const seen = new Set([normalize(query)]);
  const out: QGPTQuestionAnswer[] = [];
  let functions = 0;
  for (const c of ranked) {
    if (out.length >= MAX_HINTS) break;
    const text = questionAbout(c, functions);
    if (c.kind === 'function') functions++;
    if (seen.has(normalize(text))) continue;
    seen.add(normalize(text));
    out.push({ score: answerScore(weight(c) / best), text });
  }
  const floor = out.length > 0 ? out[out.length - 1]!.score : 0.5;
  for (const text of GENERAL) {
    if (out.length >= MIN_HINTS) break;
    if (seen.has(normalize(text))) continue;
    seen.add(normalize(text));
    out.push({ score: answerScore(floor * 0.5 ** (out.length + 1)), text });
  }
  return { answers: { iterable: out } };
}

function kindOf(word: SalientWord, text: string, fallback?: Candidate['kind']): Candidate['kind'] {
  const name = `(?<![\\p{L}\\p{N}_$.])${escape(word.text)}(?![\\p{L}\\p{N}_$])`;
  if (new RegExp(`\\b(?:def|function|func|fn)\\s+${name}`, 'u').test(text)) return 'function';
  if (new RegExp(`\\b(?:class|interface|struct|type|enum)\\s+${name}`, 'u').test(text)) return 'type';
  // A call of a compound name (a plain word called, such as `open`, is most likely a builtin).
  if (word.identifier && new RegExp(`${name}\\s*\\(`, 'u').test(text)) return 'function';
  if (word.identifier && /^\p{Lu}\p{Ll}/u.test(word.text)) return 'type';
  return fallback ?? (word.identifier ? 'identifier' : 'word');
}

function questionAbout(c: Candidate, functionsSoFar: number): string {
  const name = c.word.text;
  switch (c.kind) {
    case 'function':
      return functionsSoFar % 2 === 0 ? `What does \`${name}\` return?` : `How is \`${name}\` used?`;
    case 'type':
      return `What is \`${name}\` for?`;
    case 'identifier':
      return `Where is \`${name}\` set?`;
    default:
      return `How does the code handle ${name}?`;
  }
}

/** An answer's text without what we add to it: source lines, the fallback note, asset ids. */
function answerBody(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^(Sources?:|\[\d+\] |\(The chat model at )/.test(line))
    .join('\n')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ' ');
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

