import { AssetCache } from './assets/asset-cache.ts';
import type { Classifier } from './assets/classifier.ts';
import { ConfiguredEmbedder } from './embed/configured.ts';
import type { Embedder } from './embed/embedder.ts';
import { embeddingSettingsRecord } from './embed/endpoint-settings.ts';
import { HashingEmbedder } from './embed/hashing.ts';
import type { IdempotencyScope } from './idempotency.ts';
import type { Feed } from './feed/feed.ts';
import { HeardChanges } from './feed/heard.ts';
import { WrittenAssets } from './feed/written.ts';
import { NO_MODULES, type LoadModule } from './lazy-modules.ts';
import { NO_FILES, type FileSource } from './qgpt/files/files.ts';
import type { Store } from './store/store.ts';
import { randomUuid } from './ids.ts';
import { NO_OTHER_INSTANCES, type OtherInstances } from './streams/running.ts';

/** Everything the runtime-agnostic core needs from its host. */
export interface Deps {
  store: Store;
  feed: Feed;
  classifier: Classifier;
  /** The path prefix every route is mounted under. Default `/api`. */
  base?: string;
  now?: () => Date;
  newId?: () => string;
  /** Request bodies larger than this are refused with 413. Default 16 MiB. */
  maxBodyBytes?: number;
  /** The largest backup file `POST /backup/restore` takes (413 above it). Default 512 MiB. */
  maxRestoreBytes?: number;
  /**
   * Turns snippets into vectors (worker/core/embed): the built-in embedder, default the hashing embedder,
   * which needs no files. The ServiceContext's embedder wraps it (embed/configured.ts): a configured embeddings
   * endpoint answers instead while it works.
   */
  embedder?: Embedder;
  /** Recently read Assets, emptied on every published change. Default one on `feed`. */
  assetCache?: AssetCache;
  /** The files `/qgpt/relevance` may read (`paths`). Default none: every path is unreadable. */
  files?: FileSource;
  /** How the service reaches a configured chat-completions endpoint. Default the global `fetch`. */
  fetch?: typeof fetch;
  /** Loads the big libraries the core needs only sometimes (lazy-modules.ts). Default none: those features fall back. */
  loadModule?: LoadModule;
  /** What this context's commits wrote of new assets, for the background indexes. Default an empty one. */
  written?: WrittenAssets;
  /** The change events heard on `feed` and whether a write of this context is under way (feed/heard.ts). Default one on `feed`. */
  heard?: HeardChanges;
  /**
   * The `/qgpt/stream` requests of other instances serving the same library, so a stop, a reset or a
   * conversation's delete reaches them (streams/running.ts). Default none: the host is alone with its library.
   */
  otherInstances?: OtherInstances;
}

/**
 * Deps with every default filled in: what domain services receive. A keyed write request's ServiceContext also
 * carries its Idempotency-Key (see idempotency.ts).
 */
export type ServiceContext = Required<Deps> & { idempotency?: IdempotencyScope };

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** A backup carries the whole library, content bytes included: far more than one request body. */
export const DEFAULT_MAX_RESTORE_BYTES = 512 * 1024 * 1024;

export function withDefaults(deps: Deps): ServiceContext {
  const fetcher: typeof fetch = deps.fetch ?? ((input, init) => fetch(input, init));
  const builtIn = deps.embedder ?? new HashingEmbedder();
  return {
    base: '/api',
    now: () => new Date(),
    newId: randomUuid,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    maxRestoreBytes: DEFAULT_MAX_RESTORE_BYTES,
    files: NO_FILES,
    loadModule: NO_MODULES,
    otherInstances: NO_OTHER_INSTANCES,
    ...deps,
    fetch: fetcher,
    embedder:
      builtIn instanceof ConfiguredEmbedder ? builtIn : new ConfiguredEmbedder(builtIn, { readSettings: () => embeddingSettingsRecord.active(deps.store), fetch: fetcher }),
    // Made only when missing: a cache subscribes to the feed, and withDefaults may see a ServiceContext again.
    assetCache: deps.assetCache ?? new AssetCache(deps.feed),
    written: deps.written ?? new WrittenAssets(),
    heard: deps.heard ?? new HeardChanges(deps.feed),
  };
}
