/**
 * Detects whether a text is prose or code and, for code, its language.
 *
 * The pipeline, cheapest and surest first:
 *  1. a file name hint with a known extension wins;
 *  2. near-certain signatures (`<?php`, a shebang, `<!DOCTYPE html>`, a JSON document) decide alone;
 *  3. prose is `TEXT` (`md` when it carries markdown markup, else `txt`);
 *  4. otherwise the guesslang model VS Code uses (`@vscode/vscode-languagedetection`, ./guesslang.ts) gives a
 *     probability for 54 languages, and a table of hand-written language signatures (keywords and
 *     constructs typical of one language) adds evidence; the best combined score wins. The signatures
 *     mainly split the pairs the model confuses on short snippets (C/C++, JS/TS, Java/C#/Groovy/Kotlin).
 *     Without the model (files not served, load failure) the signatures decide alone.
 *
 * Measured in test/bench/detect-accuracy.ts.
 */
import type { ClassificationGenericEnum, ClassificationSpecificEnum } from '../../model/schemas.ts';
import type { Classification, Classifier } from '../classifier.ts';
import { genericOf, specificOfFilename } from '../content.ts';
import { looksLikeCode, looksLikeMarkdown, looksLikeProse } from './shape.ts';
import { certainLanguage, signatureScores } from './signatures.ts';
import { createVscodeLanguageModel, type LanguageModel, type LanguageScores, type ModelFiles } from './vscode-model.ts';

type Specific = ClassificationSpecificEnum;

export interface LanguageClassifierOptions {
  /** Files for the VS Code model (preferred), or a ready model; neither means signatures only. */
  modelFiles?: ModelFiles;
  model?: LanguageModel;
  /** Told when the model fails (the classifier then falls back to signatures); default: console.warn once. */
  onModelError?: (error: unknown) => void;
}

/** How much the model's log-probability counts next to one unit of signature weight. */
const MODEL_WEIGHT = 1.5;
/** The floor of a language's model probability (languages outside the model's labels get it too). */
const MODEL_FLOOR = 0.005;

const TEXT: Classification = { generic: 'TEXT', specific: 'txt' };

/** Only the start of a long text is examined: enough to tell, and it bounds the cost. */
export const MAX_DETECT_CHARS = 20_000;

/** File names (lower-cased, also before a suffix: `Dockerfile.dev`) the wire enum lacks. */
const FILE_NAMES: Record<string, Specific> = {
  dockerfile: 'dockerfile', containerfile: 'dockerfile', makefile: 'hljs-makefile', gnumakefile: 'hljs-makefile',
  'cmakelists.txt': 'hljs-cmake',
};
/** Extensions the wire enum spells differently or lacks. */
const EXTENSIONS: Record<string, Specific> = {
  mts: 'ts', cts: 'ts', cjs: 'js', kts: 'kt', jsonc: 'json', json5: 'json', mk: 'hljs-makefile', cmake: 'hljs-cmake',
  gradle: 'hljs-gradle', proto: 'hljs-protobuf',
};

/** The classification a file name gives, if it names a known extension or file. */
export function specificOfHint(filename: string | undefined): Specific | undefined {
  const base = filename?.split(/[\\/]/).pop()?.toLowerCase();
  if (!base) return undefined;
  const dot = base.lastIndexOf('.');
  const named = FILE_NAMES[base] ?? (dot > 0 ? FILE_NAMES[base.slice(0, dot)] : undefined);
  if (named) return named;
  const known = specificOfFilename(filename);
  if (known && known !== 'UNKNOWN') return known;
  return dot >= 0 ? EXTENSIONS[base.slice(dot + 1)] : undefined;
}

function classification(specific: Specific): Classification {
  const generic: ClassificationGenericEnum = specific === 'UNKNOWN' ? 'CODE' : genericOf(specific);
  return { generic, specific };
}

/**
 * Combines the model's probabilities with the signature evidence. Undefined when the text does not
 * look like code and neither a confident model nor a signature points anywhere.
 */
export function decide(model: LanguageScores, signatures: ReadonlyMap<Specific, number>, codeShaped: boolean): Specific | undefined {
  const candidates = new Set<Specific>([...model.keys(), ...signatures.keys()]);
  const hasModel = model.size > 0;
  let best: Specific | undefined;
  let bestScore = -Infinity;
  for (const lang of candidates) {
    if (lang === 'UNKNOWN') continue;
    const evidence = signatures.get(lang) ?? 0;
    const score = (hasModel ? MODEL_WEIGHT * Math.log(Math.max(model.get(lang) ?? 0, MODEL_FLOOR)) : 0) + evidence;
    if (score > bestScore) {
      bestScore = score;
      best = lang;
    }
  }
  if (!best || codeShaped) return best;
  // Neither a confident model nor any signature: not enough to call it code in a given language.
  const p = model.get(best) ?? 0;
  const evidence = signatures.get(best) ?? 0;
  if (evidence < 2 && p < 0.3) return undefined;
  return best;
}

/**
 * A classifier for content saved without a classification. Build it once per worker; the model
 * loads on the first call that needs it.
 */
export function createLanguageClassifier(options: LanguageClassifierOptions = {}): Classifier {
  const model = options.model ?? (options.modelFiles ? createVscodeLanguageModel(options.modelFiles) : undefined);
  let warned = false;
  const onModelError =
    options.onModelError ??
    ((error: unknown) => {
      if (warned) return;
      warned = true;
      console.warn('language detection: model unavailable, using signatures only:', error);
    });

  return {
    async classify(content, hint) {
      const fromName = specificOfHint(hint?.filename);
      if (fromName) return classification(fromName);
      if (!content.trim()) return TEXT;
      const text = content.length > MAX_DETECT_CHARS ? content.slice(0, MAX_DETECT_CHARS) : content;
      const certain = certainLanguage(text);
      if (certain) return classification(certain);
      if (looksLikeMarkdown(text)) return { generic: 'TEXT', specific: 'md' };
      if (looksLikeProse(text)) return TEXT;

      let scores: LanguageScores = new Map();
      if (model) {
        try {
          scores = await model.predict(text);
        } catch (error) {
          onModelError(error);
        }
      }
      const lang = decide(scores, signatureScores(text), looksLikeCode(text));
      return lang ? classification(lang) : TEXT;
    },
  };
}
