import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelFiles } from '../core/assets/language/vscode-model.ts';
import { CODE_VECTORS_FILE } from '../core/embed/code-vectors.ts';
import type { CodeVectorsFile } from '../core/embed/select.ts';

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

/**
 * The code vectors' file in this repository (worker/models/), found by walking up from this module: the
 * Node host runs from its sources or from a bundle of them under node_modules/.cache (bin/tessera.mjs).
 */
export function codeVectorsFile(from = dirname(fileURLToPath(import.meta.url))): CodeVectorsFile | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const path = join(dir, 'worker', 'models', CODE_VECTORS_FILE);
    if (existsSync(path)) {
      return {
        where: path,
        read: async () => {
          const buffer = await readFile(path);
          return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
        },
      };
    }
    if (dirname(dir) === dir) return undefined;
  }
}
