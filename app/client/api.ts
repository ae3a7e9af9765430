/**
 * Typed calls over the HTTP API for page code (the app, and any web app on the origin): each is one
 * `fetch` under the base, answers the wire object, and fails with a `TesseraApiError` carrying the
 * status, code and message of the JSON error body.
 *
 * Every write (and the export, a GET that records an activity) sends a fresh `Idempotency-Key` header:
 * when the browser stops the worker before it has answered and hands the request to the next one, the
 * write still runs once (worker/core/idempotency.ts).
 * A call that fails with a network error (the stopped worker's fetch was not handed on) is sent again,
 * up to 3 times, with the same key.
 *
 * ```ts
 * const api = createApi();                       // base from register(), default '/api'
 * const { rows } = await api.libraryRows();
 * const asset = await api.getAsset(rows[0].id);
 * ```
 */
import type {
  Conversation,
  Conversations,
  QGPTHintsInput,
  QGPTQuestionOutput,
  QGPTRepromptInput,
  QGPTRepromptOutput,
  Activities,
  Asset,
  Assets,
  ClassificationSpecificEnum,
  ExportedAsset,
  SearchedAssets,
  Seed,
  Tag,
  Tags,
  Website,
  Websites,
} from '../../worker/core/model/schemas.ts';
import type { LibraryPreviews, LibraryRows } from '../../worker/core/library/schemas.ts';
import type { EmbedderInfo } from '../../worker/core/embed/embedder.ts';
import type { EmbeddingProgress } from '../../worker/core/qgpt/vectors/snippet-vectors.ts';
import type { ChatSettings, PublicChatSettings } from '../../worker/core/qgpt/answer/chat-settings.ts';
import { IDEMPOTENCY_HEADER } from '../../worker/core/idempotency.ts';

/** The request header that makes a write run once however often it is sent (worker/core/idempotency.ts). */
export { IDEMPOTENCY_HEADER };
import { clientDefaults } from './defaults.ts';

export type { Asset, Seed, SearchedAssets, ClassificationSpecificEnum } from '../../worker/core/model/schemas.ts';
export type { LibraryRow, LibraryRows } from '../../worker/core/library/schemas.ts';
export type { Conversation, QGPTRelevanceOutput, QGPTStreamOutput, RelevantQGPTSeed, RelevantQGPTSeeds } from '../../worker/core/model/schemas.ts';
export type { RestoreSummary } from '../../worker/core/backup/restore.ts';
export type { EmbedderInfo, EmbeddingProgress };
/** An endpoint's settings as saved (`PUT /qgpt/settings`, `PUT /embeddings/settings`), and as answered: without the key. */
export type { ChatSettings, PublicChatSettings };

/** A failed call: the HTTP status and the `{error: {code, message}}` the service answered. */
export class TesseraApiError extends Error {
  override name = 'TesseraApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiOptions {
  /** Path under which the worker answers. Default: the base given to `register()` (`'/api'`). */
  base?: string;
  signal?: AbortSignal;
}

export type ExportType = 'MD' | 'HTML';

/** The application the app's writes are recorded under (Asset.application). */
export const APP_APPLICATION = {
  id: 'tessera-app',
  name: 'OPEN_SOURCE',
  version: '0.1.0',
  platform: 'WEB',
  onboarded: true,
  privacy: 'OPEN',
} as const;

/** Every call of `createApi()`; each names the route it calls. */
export interface TesseraApi {
  /** GET /library: every asset as a list row. */
  libraryRows(signal?: AbortSignal): Promise<LibraryRows>;
  /** GET /library?first=: the list's first `count` rows and how many it holds (a first screen, before the rest). */
  firstLibraryRows(count: number): Promise<LibraryRows>;
  /** GET /library/previews?ids=: the first lines of up to 100 assets. */
  previews(ids: readonly string[]): Promise<LibraryPreviews>;
  /** GET /assets/search?query=&transferables=false */
  search(query: string, signal?: AbortSignal): Promise<SearchedAssets>;
  /** GET /assets/search?query=&assets=false: the ranked hits alone (identifier, score, match), no asset read, for a list that has its rows */
  searchHits(query: string, signal?: AbortSignal): Promise<SearchedAssets>;
  /** GET /asset/{id} (with content) */
  getAsset(id: string): Promise<Asset>;
  /** GET /asset/{id}/activities */
  activities(id: string): Promise<Activities>;
  /** POST /assets/related */
  related(id: string): Promise<Assets>;
  /** GET /tags */
  tags(): Promise<Tags>;
  /** GET /websites */
  websites(): Promise<Websites>;
  /** POST /assets/draft: the seed with its detected language and a suggested name; nothing stored. */
  draft(seed: Seed): Promise<Seed>;
  /** POST /assets/create */
  create(seed: Seed): Promise<Asset>;
  /** POST /asset/update */
  update(asset: Asset): Promise<Asset>;
  /** POST /asset/reclassify */
  reclassify(asset: Asset, ext: ClassificationSpecificEnum): Promise<Asset>;
  /** POST /assets/{id}/delete */
  remove(id: string): Promise<string>;
  /** POST /tags/create with the asset: finds or creates the tag and links it. */
  addTag(id: string, text: string): Promise<Tag>;
  /** POST /asset/{id}/tags/disassociate/{tag} */
  removeTag(id: string, tag: string): Promise<void>;
  /** POST /websites/create with the asset */
  addWebsite(id: string, url: string, name: string): Promise<Website>;
  /** POST /asset/{id}/websites/disassociate/{website} */
  removeWebsite(id: string, website: string): Promise<void>;
  /** GET /asset/{id}/export?export_type= */
  exportAsset(id: string, type: ExportType): Promise<ExportedAsset>;
  /** GET /conversations: every stored conversation, with its messages. */
  conversations(): Promise<Conversations>;
  /** GET /conversation/{id} */
  conversation(id: string): Promise<Conversation>;
  /** POST /conversation/update with a new name */
  renameConversation(conversation: Conversation, name: string): Promise<Conversation>;
  /** POST /conversations/{id}/delete */
  deleteConversation(id: string): Promise<void>;
  /** POST /qgpt/hints: questions to ask next */
  hints(input: QGPTHintsInput): Promise<QGPTQuestionOutput>;
  /** POST /qgpt/reprompt: a follow-up rewritten to stand on its own */
  reprompt(input: QGPTRepromptInput): Promise<QGPTRepromptOutput>;
  /** GET /qgpt/settings */
  answerEndpoint(): Promise<PublicChatSettings>;
  /** PUT /qgpt/settings */
  setAnswerEndpoint(settings: ChatSettings): Promise<PublicChatSettings>;
  /** DELETE /qgpt/settings: extractive answers again */
  clearAnswerEndpoint(): Promise<PublicChatSettings>;
  /** POST /qgpt/settings/test: asks the saved endpoint for its models */
  testAnswerEndpoint(): Promise<{ ok: boolean; message: string; models?: string[] }>;
  /** GET /embeddings: the active embedder */
  embedder(): Promise<EmbedderInfo>;
  /** GET /embeddings/settings: the embeddings endpoint, without its key */
  embeddingsEndpoint(): Promise<PublicChatSettings>;
  /** PUT /embeddings/settings */
  setEmbeddingsEndpoint(settings: ChatSettings): Promise<PublicChatSettings>;
  /** DELETE /embeddings/settings: the built-in embedder again */
  clearEmbeddingsEndpoint(): Promise<PublicChatSettings>;
  /** POST /embeddings/settings/test: asks the saved endpoint for a vector */
  testEmbeddingsEndpoint(): Promise<{ ok: boolean; message: string }>;
  /** GET /embeddings/library: how far the library's vectors are */
  embeddingProgress(): Promise<EmbeddingProgress>;
}

/** How often a call is sent when it fails with a network error (see `call`). */
const NETWORK_ATTEMPTS = 3;

export function createApi(options: ApiOptions = {}): TesseraApi {
  const base = () => (options.base ?? clientDefaults.base).replace(/\/+$/, '');

  /** `write`: the call changes the library, and carries a fresh Idempotency-Key (see the header comment). */
  async function call<T>(path: string, init: RequestInit & { json?: unknown; signal?: AbortSignal; write?: boolean } = {}): Promise<T> {
    const { json, write, ...rest } = init;
    const headers: Record<string, string> = {};
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (write) headers[IDEMPOTENCY_HEADER] = crypto.randomUUID();
    const signal = init.signal ?? options.signal ?? null;
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      try {
        response = await fetch(`${base()}${path}`, { ...rest, ...(json !== undefined && { body: JSON.stringify(json) }), headers, signal });
        break;
      } catch (error) {
        // A network error (the worker stopped under the request): a read, or a write with its key, is safe
        // to send again; the key makes a write that did run answer its stored response.
        if (!(error instanceof TypeError) || signal?.aborted || attempt >= NETWORK_ATTEMPTS) throw error;
      }
    }
    const text = await response.text();
    if (!response.ok) {
      let error: { code?: string; message?: string } | undefined;
      try {
        error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
      } catch {
        // not JSON: the status says enough
      }
      throw new TesseraApiError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`);
    }
    if (text === '') return undefined as T;
    return (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
  }
  const post = <T>(path: string, json?: unknown, signal?: AbortSignal) => call<T>(path, { method: 'POST', json, ...(signal && { signal }) });
  const write = <T>(path: string, json?: unknown, method = 'POST') => call<T>(path, { method, json, write: true });
  const q = encodeURIComponent;

  return {
    // reads
    libraryRows: (signal?: AbortSignal) => call<LibraryRows>('/library', signal ? { signal } : {}),
    firstLibraryRows: (count: number) => call<LibraryRows>(`/library?first=${count}`),
    previews: (ids: readonly string[]) => call<LibraryPreviews>(`/library/previews?ids=${ids.map(q).join(',')}`),
    search: (query: string, signal?: AbortSignal) =>
      call<SearchedAssets>(`/assets/search?query=${q(query)}&transferables=false`, signal ? { signal } : {}),
    searchHits: (query: string, signal?: AbortSignal) =>
      call<SearchedAssets>(`/assets/search?query=${q(query)}&assets=false`, signal ? { signal } : {}),
    getAsset: (id: string) => call<Asset>(`/asset/${q(id)}`),
    activities: (id: string) => call<Activities>(`/asset/${q(id)}/activities`),
    related: (id: string) => post<Assets>('/assets/related', { iterable: [{ id }] }),
    tags: () => call<Tags>('/tags'),
    websites: () => call<Websites>('/websites'),
    draft: (seed: Seed) => post<Seed>('/assets/draft', seed),
    // writes
    create: (seed: Seed) => write<Asset>('/assets/create', seed),
    update: (asset: Asset) => write<Asset>('/asset/update', asset),
    reclassify: (asset: Asset, ext: ClassificationSpecificEnum) => write<Asset>('/asset/reclassify', { asset, ext }),
    remove: (id: string) => write<string>(`/assets/${q(id)}/delete`),
    addTag: (id: string, text: string) => write<Tag>('/tags/create', { text, asset: id }),
    removeTag: (id: string, tag: string) => write<void>(`/asset/${q(id)}/tags/disassociate/${q(tag)}`),
    addWebsite: (id: string, url: string, name: string) => write<Website>('/websites/create', { url, name, asset: id }),
    removeWebsite: (id: string, website: string) => write<void>(`/asset/${q(id)}/websites/disassociate/${q(website)}`),
    // A GET that records an export activity: keyed as the writes are.
    exportAsset: (id: string, type: ExportType) => call<ExportedAsset>(`/asset/${q(id)}/export?export_type=${type}`, { write: true }),
    conversations: () => call<Conversations>('/conversations'),
    conversation: (id: string) => call<Conversation>(`/conversation/${q(id)}`),
    renameConversation: (conversation: Conversation, name: string) => write<Conversation>('/conversation/update', { ...conversation, name }),
    deleteConversation: (id: string) => write<void>(`/conversations/${q(id)}/delete`),
    hints: (input: QGPTHintsInput) => post<QGPTQuestionOutput>('/qgpt/hints', input),
    reprompt: (input: QGPTRepromptInput) => post<QGPTRepromptOutput>('/qgpt/reprompt', input),
    answerEndpoint: () => call<PublicChatSettings>('/qgpt/settings'),
    setAnswerEndpoint: (settings) => write<PublicChatSettings>('/qgpt/settings', settings, 'PUT'),
    clearAnswerEndpoint: () => write<PublicChatSettings>('/qgpt/settings', undefined, 'DELETE'),
    testAnswerEndpoint: () => post<{ ok: boolean; message: string; models?: string[] }>('/qgpt/settings/test'),
    embedder: () => call<EmbedderInfo>('/embeddings'),
    embeddingsEndpoint: () => call<PublicChatSettings>('/embeddings/settings'),
    setEmbeddingsEndpoint: (settings) => write<PublicChatSettings>('/embeddings/settings', settings, 'PUT'),
    clearEmbeddingsEndpoint: () => write<PublicChatSettings>('/embeddings/settings', undefined, 'DELETE'),
    testEmbeddingsEndpoint: () => post<{ ok: boolean; message: string }>('/embeddings/settings/test'),
    embeddingProgress: () => call<EmbeddingProgress>('/embeddings/library'),
  };
}
