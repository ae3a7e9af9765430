import { createApp } from '../core/app.ts';
import { createLanguageClassifier } from '../core/assets/language/classify.ts';
import { fetchModelFiles } from '../core/assets/language/vscode-model.ts';
import { withDefaults, type ServiceContext } from '../core/deps.ts';
import { DeferredEmbedder } from '../core/embed/select.ts';
import { createServices, type Services } from '../core/services.ts';
import { BroadcastFeed } from './broadcast-feed.ts';
import { createBrowserEmbedder } from './embedder-host.ts';
import { BrowserFileSource } from './file-source.ts';
import { IdbStore } from './idb-store.ts';

/** Where the build serves the language-detection model's files (see vite.config.ts). */
export const LANGUAGE_MODEL_URL = '/models/vscode-languagedetection/';

export interface ServiceApp {
  fetch(request: Request): Promise<Response> | Response;
  /** The same operations as typed calls (the RPC path), on the same context as `fetch`. */
  services: Services;
  ctx: ServiceContext;
}

/** The browser host: IndexedDB store, BroadcastChannel feed and the language model, given to the core app. */
export async function createServiceApp(base: string): Promise<ServiceApp> {
  const store = await IdbStore.open();
  const embedder = new DeferredEmbedder(() => createBrowserEmbedder()); // probes /models/ when first needed
  const feed = new BroadcastFeed();
  const classifier = createLanguageClassifier({ modelFiles: fetchModelFiles(LANGUAGE_MODEL_URL) });
  const ctx = withDefaults({ store, feed, classifier, base, embedder, files: new BrowserFileSource(store) });
  const app = createApp(ctx);
  return { fetch: (request) => app.fetch(request), services: createServices(ctx), ctx };
}
