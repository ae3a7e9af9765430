import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { createLanguageClassifier } from '../../worker/core/assets/language/classify.ts';
import { nodeModelFiles } from '../../worker/node/model-files.ts';

let shared: Classifier | undefined;

/** The real classifier, built once per test file (loading the model takes a moment). */
export async function testClassifier(): Promise<Classifier> {
  shared ??= createLanguageClassifier({ modelFiles: nodeModelFiles() });
  return shared;
}
