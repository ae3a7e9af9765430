/**
 * A passage: one piece of text a question is answered from (a relevant snippet), with where it came
 * from. What the answerers (answer/), hints and the stream work on.
 */
export interface Passage {
  text: string;
  /** The relevant seed's id, when it came from relevance. */
  id?: string;
  /** The asset it came from. */
  asset?: string;
  /** The file it came from (paths query space). */
  path?: string;
  /** Asset name or file name: how an answer names its source. */
  source?: string;
  /** UTF-16 offsets of the text in its asset's content or file. */
  start?: number;
  end?: number;
  /** Relevance score in [0, 1], when known. */
  score?: number;
}

/** A score as the wire carries it: in [0, 1] (anything else, NaN included, clamped; NaN is 0), four decimals. */
export function answerScore(x: number): number {
  const clamped = Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
  return Math.round(clamped * 1e4) / 1e4;
}
