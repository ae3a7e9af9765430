import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ModelFiles } from '../core/assets/language/vscode-model.ts';

/** The language model's folder in the npm package (@vscode/vscode-languagedetection ships it). */
export function languageModelDir(): string {
  const main = createRequire(import.meta.url).resolve('@vscode/vscode-languagedetection');
  return join(dirname(main), '..', '..', 'model');
}

/** The language model's files read from disk, as the browser host fetches them. */
export function nodeModelFiles(dir = languageModelDir()): ModelFiles {
  return {
    modelJson: async () => JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as Record<string, unknown>,
    weights: async () => {
      const buffer = await readFile(join(dir, 'group1-shard1of1.bin'));
      return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    },
  };
}
