import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Classifier } from '../../worker/core/assets/classifier.ts';
import { createLanguageClassifier } from '../../worker/core/assets/language/classify.ts';
import type { ModelFiles } from '../../worker/core/assets/language/vscode-model.ts';
import { importModule } from '../../worker/node/import-modules.ts';

const MODEL_DIR = fileURLToPath(new URL('../../node_modules/@vscode/vscode-languagedetection/model/', import.meta.url));

/** The language model's files read from the npm package, as the browser host fetches them. */
export function nodeModelFiles(dir = MODEL_DIR): ModelFiles {
  return {
    modelJson: async () => JSON.parse(await readFile(`${dir}model.json`, 'utf8')),
    weights: async () => {
      const buffer = await readFile(`${dir}group1-shard1of1.bin`);
      return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    },
  };
}

let shared: Classifier | undefined;

/** The real classifier, built once per test file (loading the model takes a moment). */
export async function testClassifier(): Promise<Classifier> {
  shared ??= createLanguageClassifier({ modelFiles: nodeModelFiles(), loadModule: importModule });
  return shared;
}
