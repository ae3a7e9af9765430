/**
 * The default answerer, which needs no model: the passages (or the parts of them) that best answer the
 * query, each attributed to where it comes from. Deterministic; the text of an answer is a span of one
 * passage, as given, followed by a "Source:" line.
 *
 * A passage is cut into candidate spans: code into its best window of at most 12 lines (the whole of a
 * shorter passage), prose into paragraphs and windows of up to 3 sentences. A span's score is the share of
 * the query's weight it covers, each query term weighted by how few passages hold it (1 + ln(N / df)), blended
 * 0.6 / 0.4 with the passage's relevance score when the passage has one. One answer per passage (its best
 * span), at most MAX_ANSWERS, best first; ties keep the input order.
 */
import { looksLikeCode } from '../../assets/language/shape.ts';
import type { QGPTQuestionAnswer } from '../../model/schemas.ts';
import { answerScore, type Passage } from './passage.ts';
import { sourceLabel } from './sources.ts';
import { meaningfulTerms } from './terms.ts';

export const MAX_ANSWERS = 5;
const CODE_WINDOW_LINES = 12;
const PROSE_WINDOW_SENTENCES = 3;
const PROSE_PARAGRAPH_CHARS = 600;

export interface ExtractedAnswer extends QGPTQuestionAnswer {
  /** The passage the answer shows. */
  passage: Passage;
}

/** The extractive answers to a query, best first (at least one when there is a passage). */
export function extractiveAnswers(query: string, passages: readonly Passage[], limit = MAX_ANSWERS): ExtractedAnswer[] {
  const weights = queryWeights(query, passages);
  const scored = passages.map((passage, index) => {
    const best = bestSpan(passage.text, weights);
    const lexical = best.score;
    const score = passage.score === undefined ? lexical : 0.6 * lexical + 0.4 * answerScore(passage.score);
    return { passage, index, span: best.text, score: answerScore(score) };
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map(({ passage, span, score }) => ({
    score,
    text: answerText(span, passage),
    passage,
  }));
}

/** How well a whole passage answers a query, in [0, 1] (what the generative answer's score is made of). */
export function passageRelevance(query: string, passage: Passage, passages: readonly Passage[]): number {
  const lexical = coverage(meaningfulTerms(passage.text), queryWeights(query, passages));
  return answerScore(passage.score === undefined ? lexical : 0.6 * lexical + 0.4 * answerScore(passage.score));
}

/** The attributed text of one extractive answer. */
function answerText(span: string, passage: Passage): string {
  const body = looksLikeCode(span) ? `\`\`\`\n${span}\n\`\`\`` : span;
  return `${body}\n\nSource: ${sourceLabel(passage)}`;
}

/** Each meaningful query term with its weight: rarer among the passages counts more. */
function queryWeights(query: string, passages: readonly Passage[]): Map<string, number> {
  const terms = meaningfulTerms(query);
  const sets = passages.map((p) => meaningfulTerms(p.text));
  const weights = new Map<string, number>();
  for (const term of terms) {
    const df = sets.filter((s) => s.has(term)).length;
    weights.set(term, 1 + Math.log((passages.length + 1) / (df + 1)));
  }
  return weights;
}

function coverage(spanTerms: ReadonlySet<string>, weights: ReadonlyMap<string, number>): number {
  let total = 0;
  let got = 0;
  for (const [term, weight] of weights) {
    total += weight;
    if (spanTerms.has(term)) got += weight;
  }
  return total === 0 ? 0 : got / total;
}

/** The passage's best candidate span; ties go to the earlier, then the shorter one. */
function bestSpan(text: string, weights: ReadonlyMap<string, number>): { text: string; score: number } {
  let best = { text: text.trim(), score: -1 };
  for (const span of candidateSpans(text)) {
    const score = coverage(meaningfulTerms(span), weights);
    if (score > best.score + 1e-9) best = { text: span, score };
  }
  return { text: best.text, score: Math.max(0, best.score) };
}

export function candidateSpans(text: string): string[] {
  const trimmed = text.replace(/^\s*\n/, '').trimEnd();
  if (looksLikeCode(trimmed)) return codeWindows(trimmed);
  return proseWindows(trimmed);
}

function codeWindows(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length <= CODE_WINDOW_LINES) return [text];
  const out: string[] = [];
  const step = CODE_WINDOW_LINES / 2;
  for (let start = 0; start < lines.length; start += step) {
    const end = Math.min(lines.length, start + CODE_WINDOW_LINES);
    out.push(lines.slice(start, end).join('\n').trimEnd());
    if (end === lines.length) break;
  }
  return out;
}

function proseWindows(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '')) {
    const sentences = paragraph.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g)?.map((s) => s.trim()).filter((s) => s !== '') ?? [paragraph];
    if (paragraph.length <= PROSE_PARAGRAPH_CHARS || sentences.length <= PROSE_WINDOW_SENTENCES) {
      out.push(paragraph);
      continue;
    }
    for (let i = 0; i + PROSE_WINDOW_SENTENCES <= sentences.length; i++) out.push(sentences.slice(i, i + PROSE_WINDOW_SENTENCES).join(' '));
  }
  return out.length > 0 ? out : [text.trim()];
}


