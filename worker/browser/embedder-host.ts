/**
 * The service worker's embedder: transformers.js when a sentence-embedding model's files are served
 * under `/models/<model>/` at this origin, else the code vectors beside the hashing embedder (their file is
 * one of the build's lazy files, kept offline with them), else the hashing embedder alone
 * (worker/core/embed/select.ts).
 *
 * onnxruntime-web runs its single-threaded wasm build (vite.config.ts aliases `onnxruntime-web/webgpu`
 * to it when bundling the worker: a service worker may not `import()`, and threads need cross-origin
 * isolation), from the self-hosted `/ort/ort-wasm-simd-threaded.wasm` (copied from the npm package by
 * vite.config.ts's packagedFiles); no `.mjs` is named, so the factory bundled into the lazy `transformers`
 * script (loaded on first use, see worker/browser/lazy-scripts.ts) is used.
 */
import { CODE_VECTORS_FILE } from '../core/embed/code-vectors.ts';
import { fetchModelSource, selectEmbedder } from '../core/embed/select.ts';
import type { Embedder } from '../core/embed/embedder.ts';
import { fetchCached, lazyModuleLoader } from './lazy-scripts.ts';

declare const self: ServiceWorkerGlobalScope;

/** Where model folders are, under the assets (the app's build: users add theirs under public/models/). */
export const MODELS_PATH = 'models/';
/** Where onnxruntime-web's wasm binary is, under the assets (see scripts/worker-bundle.ts). */
export const ORT_WASM_PATH = 'ort/ort-wasm-simd-threaded.wasm';

export interface BrowserEmbedderOptions {
  /** Model id, its folder under /models/. Default `Xenova/all-MiniLM-L6-v2`. */
  model?: string;
  /** Fetch the model from the hub when it is not served here (once; Cache Storage keeps it). Default false. */
  allowRemote?: boolean;
  /** The hub to fetch from, absolute or relative to this origin. Default the Hugging Face hub. */
  modelHost?: string;
}

/**
 * The options the worker was registered with, as query parameters of its script URL:
 * `register({scriptUrl: '/sw.js?embedding-model=Xenova/all-MiniLM-L12-v2&allow-remote-models=true'})`;
 * `model-host=<url>` names another hub (a mirror).
 */
export function optionsFromScriptUrl(url: string): BrowserEmbedderOptions {
  const params = new URL(url).searchParams;
  const model = params.get('embedding-model')?.trim();
  const remote = params.get('allow-remote-models');
  const host = params.get('model-host')?.trim();
  return { ...(model ? { model } : {}), allowRemote: remote === 'true' || remote === '1', ...(host ? { modelHost: host } : {}) };
}

/**
 * Probes `<assets>/models/<model>/` (a few small requests) and returns the active embedder. Options
 * default to those of the worker's script URL (see optionsFromScriptUrl).
 */
export function createBrowserEmbedder(
  assets: URL,
  options: BrowserEmbedderOptions = optionsFromScriptUrl(self.location.href),
): Promise<Embedder> {
  const models = new URL(MODELS_PATH, assets);
  const codeVectors = new URL(CODE_VECTORS_FILE, models).href;
  return selectEmbedder({
    loadModule: lazyModuleLoader(assets),
    // A path at this origin when it is one: transformers.js joins its local paths as paths, not URLs.
    modelPath: models.origin === self.location.origin ? models.pathname : models.href,
    source: fetchModelSource(models),
    ...(options.model ? { model: options.model } : {}),
    allowRemote: options.allowRemote ?? false,
    ...(options.modelHost ? { remoteHost: new URL(options.modelHost, self.location.origin).href } : {}),
    transformers: { browserCache: true, onnx: { wasmPaths: { wasm: new URL(ORT_WASM_PATH, assets).href }, numThreads: 1 } },
    codeVectors: {
      where: codeVectors,
      async read() {
        const response = await fetchCached(codeVectors);
        if (!response.ok) throw new Error(`GET ${codeVectors} answered ${response.status}`);
        return response.arrayBuffer();
      },
    },
  });
}
