import type { ClassificationGenericEnum, ClassificationSpecificEnum } from '../model/schemas.ts';

/** What a classifier decides about a piece of content the seed did not classify. */
export interface Classification {
  generic: ClassificationGenericEnum;
  specific: ClassificationSpecificEnum;
}

/**
 * Detects the kind (code or text) and, for code, the language of a text.
 * Async because real detectors load a model; runs before any storage transaction opens.
 */
export interface Classifier {
  classify(text: string, hint?: { filename?: string }): Promise<Classification>;
}
