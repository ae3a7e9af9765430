import { createApp } from '../core/app.ts';
import { AssetCache } from '../core/assets/asset-cache.ts';
import { createLanguageClassifier } from '../core/assets/language/classify.ts';
import { fetchModelFiles } from '../core/assets/language/vscode-model.ts';
import { withDefaults, type ServiceContext } from '../core/deps.ts';
import { DeferredEmbedder } from '../core/embed/select.ts';
import { NO_MODULES } from '../core/lazy-modules.ts';
import { vectorIndexFor } from '../core/qgpt/vectors/snippet-vectors.ts';
import { searchIndexFor } from '../core/search/search-index.ts';
import { createServices, type Services } from '../core/services.ts';
import { BroadcastFeed } from './broadcast-feed.ts';
import { createBrowserEmbedder } from './embedder-host.ts';
import { BrowserFileSource } from './file-source.ts';
import { IdbStore } from './idb-store.ts';
import { fetchCached, lazyModuleLoader } from './lazy-scripts.ts';

/** Where the language-detection model's files are, under the assets (see scripts/worker-bundle.ts). */
export const LANGUAGE_MODEL_PATH = 'models/vscode-languagedetection/';

export interface ServiceAppOptions {
  /** The path the API is mounted under. */
  base: string;
  /** Where the lazy scripts and model files are served; without it the features that need them fall back. */
  assets?: URL;
}

export interface ServiceApp {
  fetch(request: Request): Promise<Response> | Response;
  /** The same operations as typed calls (the RPC path), on the same context as `fetch`. */
  services: Services;
  ctx: ServiceContext;
}

/** The browser host: IndexedDB store, BroadcastChannel feed, the lazy modules and the language model, given to the core app. */
export async function createServiceApp({ base, assets }: ServiceAppOptions): Promise<ServiceApp> {
  const store = await IdbStore.open();
  const feed = new BroadcastFeed();
  const loadModule = assets ? lazyModuleLoader(assets) : NO_MODULES;
  // The embedder probes <assets>/models/ when first needed.
  const embedder = assets ? new DeferredEmbedder(() => createBrowserEmbedder(assets)) : undefined;
  const modelFiles = assets && fetchModelFiles(new URL(LANGUAGE_MODEL_PATH, assets), fetchCached);
  const classifier = createLanguageClassifier(modelFiles ? { modelFiles } : {});
  // `?asset-cache=off` on the worker's script URL: a worker that keeps nothing it read, so every read goes
  // to IndexedDB (the bench measures reads both ways).
  const assetCache = new URL(self.location.href).searchParams.get('asset-cache') === 'off' ? new AssetCache(feed, 0) : undefined;
  const ctx = withDefaults({ store, feed, classifier, base, loadModule, ...(embedder ? { embedder } : {}), files: new BrowserFileSource(store), ...(assetCache ? { assetCache } : {}) });
  // Writes are indexed and embedded as they land, so the first search or relevance call after an import
  // does not index or embed the library.
  searchIndexFor(ctx).follow();
  vectorIndexFor(ctx).follow();
  const app = createApp(ctx);
  return { fetch: (request) => app.fetch(request), services: createServices(ctx), ctx };
}
