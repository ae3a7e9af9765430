/**
 * The service layer: every operation of Tessera as a typed call, the one way in to the domain code. The
 * HTTP routes (routes/*) parse a request and call one operation; the page's RPC path over a
 * MessageChannel (worker/browser/rpc.ts, app/client/rpc.ts) and in-process hosts call the same. Each
 * operation checks its input here (service-input.ts), so every caller gets the same wire object and
 * fails with the same ApiError (status, code, message).
 */
import { createAsset } from './assets/create.ts';
import { draftSeed } from './assets/draft.ts';
import { importAssets } from './assets/import.ts';
import { exportAsset, parseExportType } from './assets/export.ts';
import { getActivities, getAsset, getAssetBody, getConversations, getFormats, listAssets, listAssetsBody, listIdentifiers, pseudoSnapshot } from './assets/read.ts';
import { markAfterWrite, scrubAnswer, settleDeletes } from './assets/half-deleted.ts';
import { deleteAsset } from './assets/remove.ts';
import { incrementScores } from './assets/scores.ts';
import { AssetUpdateSchema, reclassifyAsset, updateAsset } from './assets/update.ts';
import { readBackup } from './backup/read.ts';
import { restoreBackup, type RestoreSummary } from './backup/restore.ts';
import { backupFilename, backupStream } from './backup/write.ts';
import type { ServiceContext } from './deps.ts';
import { describeEmbedder, embedTagged, type EmbedderInfo, type TaggedVectors } from './embed/embedder.ts';
import {
  embeddingSettingsRecord,
  EmbeddingSettingsSchema,
  testEmbeddingSettings,
  type EmbeddingSettings,
} from './embed/endpoint-settings.ts';
import { ApiError, badRequest } from './errors.ts';
import { changeLink, linkKindOf, type LinkKind, type LinkPath } from './links/associate.ts';
import { createSummary, createTag, createWebsite, listSummaries, listTags, listWebsites } from './links/labels.ts';
import {
  AssetReclassificationSchema,
  AssetsSearchWithFiltersInputSchema,
  QGPTHintsInputSchema,
  QGPTPersonsRelatedInputSchema,
  QGPTQuestionInputSchema,
  QGPTRelevanceInputSchema,
  QGPTRepromptInputSchema,
  SeededAccessorSchema,
  SeededScoreIncrementSchema,
  SeededTagSchema,
  SeededWebsiteSchema,
  SeededWorkstreamSummarySchema,
  SeedSchema,
  SeedsSchema,
  type Activities,
  type Asset,
  type AssetReclassification,
  type Assets,
  type AssetsSearchWithFiltersInput,
  type AssetsSearchWithFiltersOutput,
  type Conversation,
  type Conversations,
  type ExportedAsset,
  type FlattenedAssets,
  type Formats,
  type PseudoAssets,
  type QGPTHintsInput,
  type QGPTPersonsRelatedInput,
  type QGPTPersonsRelatedOutput,
  type QGPTQuestionInput,
  type QGPTQuestionOutput,
  type QGPTRelevanceInput,
  type QGPTRelevanceOutput,
  type QGPTRepromptInput,
  type QGPTRepromptOutput,
  type QGPTStreamOutput,
  type SearchedAssets,
  type Seed,
  type SeededAccessor,
  type Seeds,
  type SeededScoreIncrement,
  type SeededTag,
  type SeededWebsite,
  type SeededWorkstreamSummary,
  type Tag,
  type Tags,
  type Website,
  type Websites,
  type WorkstreamSummaries,
  type WorkstreamSummary,
} from './model/schemas.ts';
import { libraryPreviews } from './library/previews.ts';
import { listLibraryRows, listLibraryRowsBody, type LibraryRowsOptions } from './library/rows.ts';
import type { LibraryPreviews, LibraryRows } from './library/schemas.ts';
import { ConversationUpdateSchema, deleteConversation, getConversation, listConversations, updateConversation } from './qgpt/conversations.ts';
import { listFolders, registerFolder, removeFolder, type GrantedFolder, type GrantedFolders } from './qgpt/files/folders.ts';
import { hints } from './qgpt/answer/hints.ts';
import { personsRelated } from './qgpt/persons.ts';
import { question } from './qgpt/answer/question.ts';
import { loadLibraryIndexes, type RelevanceTiming } from './qgpt/rank.ts';
import { MAX_RELEVANT, ranksLibrary, relevance } from './qgpt/relevance.ts';
import { reprompt } from './qgpt/answer/reprompt.ts';
import { ChatError, streamChat } from './qgpt/answer/chat.ts';
import { ChatSettingsSchema, chatSettingsRecord, publicSettings, type ChatSettings, type PublicChatSettings } from './qgpt/answer/chat-settings.ts';
import { vectorIndexFor, type EmbeddingProgress } from './qgpt/vectors/snippet-vectors.ts';
import { recommendedAssets, relatedAssets, suggestedAssets } from './search/discover.ts';
import { MAX_PAGE_SIZE, searchAssets, searchWithFilters, type SearchTiming } from './search/service.ts';
import { checkKey, runOnce } from './idempotency.ts';
import { check, checkOptional, count, flag, id, idList, optionalText, wholeNumber } from './service-input.ts';
import { OPERATIONS, UNKEYED_WRITES } from './service-operations.ts';
import {
  EmbedRequestSchema,
  RecommendationInputSchema,
  RelatedInputSchema,
  SearchParamsSchema,
  type EmbedRequest,
  type RecommendationInput,
  type RelatedInput,
  type SearchParams,
} from './service-schemas.ts';
import { answerStream } from './streams/qgpt.ts';
import { SOCKET_HEADER, STREAM_PATHS, type StreamCatchUp, type StreamKind } from './streams/protocol.ts';
import { streamChanges, streamSnapshot, type StreamSnapshot } from './streams/reads.ts';

export type { LinkPath };

export interface TransferableOptions {
  /** Include fragment and file contents. Default true (as the routes' `transferables` parameter). */
  transferables?: boolean;
}
export interface ListOptions extends TransferableOptions {
  /** Include pseudo assets. Default false. */
  pseudo?: boolean;
}
export interface SearchOptions extends ListOptions {
  /** How many results to answer, 1..1000 (default 100), after `offset` (default 0). */
  limit?: number;
  offset?: number;
  /**
   * Answer each result with its asset. Default true. False (a Tessera extension) answers the hits alone:
   * identifier, score, match, exact, for a page that shows its own rows (the app's list), read from the
   * index without reading an asset.
   */
  assets?: boolean;
}
export type { RelevanceTiming };

/** What a search tells besides its result (the route answers them as headers): where the time went, and the number of results in all. */
export interface SearchObserver {
  timing?: SearchTiming;
  onTotal?: (total: number) => void;
}


/**
 * Every operation of the service. Inputs are checked as the routes check bodies and parameters
 * (a bad one fails with 400 or 422), so any JSON-like value may be passed.
 */
export interface Services {
  // reads
  /** GET /asset/{id}; POST /asset/{id} with a SeededAccessor (checked: there is one local user). */
  getAsset(asset: string, options?: TransferableOptions & { accessor?: SeededAccessor }): Promise<Asset>;
  /** GET /assets */
  listAssets(options?: ListOptions): Promise<Assets>;
  /** GET /assets?suggested=true */
  suggestedAssets(options?: ListOptions): Promise<Assets>;
  /** GET /assets/search: one page of the ranked results */
  searchAssets(params: SearchParams, options?: SearchOptions, observer?: SearchObserver): Promise<SearchedAssets>;
  /** POST /assets/search */
  searchWithFilters(input?: AssetsSearchWithFiltersInput, options?: SearchOptions, observer?: SearchObserver): Promise<AssetsSearchWithFiltersOutput>;
  /** GET|POST /assets/related (no input: the user's recent activity) */
  relatedAssets(input?: RelatedInput): Promise<Assets>;
  /** GET|POST /assets/recommended (no input: the user's recent activity) */
  recommendedAssets(input?: RecommendationInput): Promise<Assets>;
  /** GET /assets/stream[/identifiers|/transferables]: the snapshot frame with its seq */
  streamSnapshot(kind: StreamKind): Promise<StreamSnapshot>;
  /** GET /assets/stream…?since=: the changes after `since` */
  streamChanges(kind: StreamKind, since: number): Promise<StreamCatchUp>;
  /** POST /qgpt/relevance (`limit` 1..100, default 10) */
  relevance(input: QGPTRelevanceInput, options?: { limit?: number; timing?: RelevanceTiming }): Promise<QGPTRelevanceOutput>;
  /** POST /qgpt/question; `signal` stops the answer (a client that went away). */
  question(input: QGPTQuestionInput, options?: { signal?: AbortSignal }): Promise<QGPTQuestionOutput>;
  /** POST /qgpt/reprompt */
  reprompt(input: QGPTRepromptInput): Promise<QGPTRepromptOutput>;
  /** POST /qgpt/hints */
  hints(input: QGPTHintsInput): Promise<QGPTQuestionOutput>;
  /** POST /qgpt/persons/related */
  personsRelated(input?: QGPTPersonsRelatedInput, options?: TransferableOptions): Promise<QGPTPersonsRelatedOutput>;
  /** GET /qgpt/settings (the API key never answered back) */
  chatSettings(): Promise<PublicChatSettings>;
  /** POST /qgpt/settings/test: whether the saved endpoint answers; `signal` stops asking. */
  testChatSettings(options?: { signal?: AbortSignal }): Promise<SettingsTest>;
  /** GET /embeddings: the active embedder */
  describeEmbedder(): Promise<EmbedderInfo>;
  /** POST /embeddings (stores nothing) */
  embed(input: EmbedRequest): Promise<Embedded>;
  /** GET /embeddings/library */
  embeddingProgress(): Promise<EmbeddingProgress>;
  /** GET /embeddings/settings (the API key never answered back) */
  embeddingSettings(): Promise<PublicChatSettings>;
  /** POST /embeddings/settings/test: whether the saved embeddings endpoint answers */
  testEmbeddingSettings(): Promise<SettingsTest>;
  /** GET /assets/identifiers */
  listIdentifiers(options?: { pseudo?: boolean }): Promise<FlattenedAssets>;
  /** GET /assets/pseudo */
  pseudoSnapshot(): Promise<PseudoAssets>;
  /** GET /asset/{id}/formats */
  getFormats(asset: string, options?: TransferableOptions): Promise<Formats>;
  /** GET /asset/{id}/activities */
  getActivities(asset: string): Promise<Activities>;
  /** GET /asset/{id}/conversations */
  getConversations(asset: string): Promise<Conversations>;
  /** POST /assets/draft (stores nothing) */
  draftSeed(seed?: Seed): Promise<Seed>;
  /** GET /tags */
  listTags(): Promise<Tags>;
  /** GET /websites */
  listWebsites(): Promise<Websites>;
  /** GET /workstream_summaries */
  listSummaries(): Promise<WorkstreamSummaries>;
  /** GET /library (Tessera's own: the list a library view shows; `first` 1..1,000,000: only the first rows) */
  listLibraryRows(options?: LibraryRowsOptions): Promise<LibraryRows>;
  /** GET /library/previews?ids= (Tessera's own) */
  libraryPreviews(ids: readonly string[]): Promise<LibraryPreviews>;
  // writes
  /** POST /assets/create */
  createAsset(seed?: Seed, options?: TransferableOptions): Promise<Asset>;
  /** POST /assets/import */
  importAssets(seeds: Seeds): Promise<FlattenedAssets>;
  /** POST /asset/update */
  updateAsset(asset: Partial<Asset> & Pick<Asset, 'id'>, options?: TransferableOptions): Promise<Asset>;
  /** POST /asset/reclassify */
  reclassifyAsset(input: AssetReclassification, options?: TransferableOptions): Promise<Asset>;
  /** POST /assets/{id}/delete: the deleted id */
  deleteAsset(asset: string): Promise<string>;
  /** POST /asset/{id}/scores/increment */
  incrementScores(asset: string, increment?: SeededScoreIncrement): Promise<void>;
  /** POST /asset/{id}/{kind}/associate/{other} */
  associate(kind: LinkPath, asset: string, other: string): Promise<void>;
  /** POST /asset/{id}/{kind}/disassociate/{other} */
  disassociate(kind: LinkPath, asset: string, other: string): Promise<void>;
  /** GET /asset/{id}/export?export_type= (records an export activity) */
  exportAsset(asset: string, type?: string): Promise<ExportedAsset>;
  /** POST /tags/create */
  createTag(seed: SeededTag): Promise<Tag>;
  /** POST /websites/create */
  createWebsite(seed: SeededWebsite): Promise<Website>;
  /** POST /workstream_summaries/create */
  createSummary(seed: SeededWorkstreamSummary): Promise<WorkstreamSummary>;
  /** POST /conversations/{id}/delete */
  deleteConversation(conversation: string): Promise<void>;
  /** GET /conversations */
  listConversations(): Promise<Conversations>;
  /** GET /conversation/{id} */
  getConversation(conversation: string): Promise<Conversation>;
  /** POST /conversation/update (the name) */
  updateConversation(conversation: Partial<Conversation> & Pick<Conversation, 'id'>): Promise<Conversation>;
  // granted folders (Tessera's own; see qgpt/files/folders.ts)
  /** GET /folders */
  listFolders(): Promise<GrantedFolders>;
  /** No route (HTTP cannot carry a FileSystemDirectoryHandle): stores `handle` under `name`, replacing one of that name. */
  registerFolder(name: string, handle: unknown): Promise<GrantedFolder>;
  /** DELETE /folders/{name} */
  removeFolder(name: string): Promise<void>;
  /** PUT /qgpt/settings */
  saveChatSettings(settings: ChatSettings): Promise<PublicChatSettings>;
  /** DELETE /qgpt/settings */
  clearChatSettings(): Promise<PublicChatSettings>;
  /** PUT /embeddings/settings */
  saveEmbeddingSettings(settings: EmbeddingSettings): Promise<PublicChatSettings>;
  /** DELETE /embeddings/settings */
  clearEmbeddingSettings(): Promise<PublicChatSettings>;
  /** POST /embeddings/library: starts bringing the library's vectors up to date; the progress now. */
  refreshEmbeddings(): Promise<EmbeddingProgress>;
}

/**
 * The operations whose input or output is a stream: for HTTP and in-process callers, not the RPC path
 * (a stream does not cross its MessagePort).
 */
export interface StreamingServices {
  /** GET /backup: the backup file as it is read, and its name */
  backup(): { filename: string; stream: ReadableStream<Uint8Array> };
  /** POST /backup/restore: the backup file's bytes; `dryRun` stores nothing */
  restoreBackup(file: AsyncIterable<Uint8Array>, options?: { dryRun?: boolean }): Promise<RestoreSummary>;
  /**
   * POST /qgpt/stream: one input frame (its text, parsed here) in, the output frames out. `socket` names
   * the scope of a reset; `closed` tells that nobody reads the frames any more.
   */
  answerStream(frame: string, options?: { socket?: string; closed?: AbortSignal }): AsyncGenerator<QGPTStreamOutput>;
}

/**
 * Reads answered as their JSON body, serialised once and kept in the asset cache until the next change:
 * for HTTP (the RPC path takes the objects, through `getAsset` and `listAssets`).
 */
export interface BodyServices {
  /** GET /asset/{id}: `getAsset`'s answer as JSON bytes */
  getAssetBody(asset: string, options?: TransferableOptions): Promise<Uint8Array<ArrayBuffer>>;
  /** GET /assets: `listAssets`'s answer as JSON bytes */
  listAssetsBody(options?: ListOptions): Promise<Uint8Array<ArrayBuffer>>;
  /** GET /library: `listLibraryRows`'s answer as JSON bytes */
  listLibraryRowsBody(options?: LibraryRowsOptions): Promise<Uint8Array<ArrayBuffer>>;
}

export type AllServices = Services & StreamingServices & BodyServices;
export type Operation = keyof Services;

/** POST /embeddings: the active embedder's vectors, one per text, in order. */
export interface Embedded {
  embedder: string;
  dimensions: number;
  vectors: number[][];
}

/** POST /qgpt/settings/test: whether the saved endpoint answered, or why not. */
export interface SettingsTest {
  ok: boolean;
  message: string;
}

/** How long POST /qgpt/settings/test waits for the endpoint. */
const SETTINGS_TEST_TIMEOUT_MS = 10_000;

/** The operations bound to one context. */
export function createServices(ctx: ServiceContext): AllServices {
  return afterHalfDeletes(ctx, {
    // reads
    getAsset: async (asset, options) => {
      checkOptional(SeededAccessorSchema, options?.accessor);
      return getAsset(ctx, id(asset), transferables(options));
    },
    listAssets: (options?: ListOptions) => listAssets(ctx, listing(options)),
    getAssetBody: (asset, options) => getAssetBody(ctx, id(asset), transferables(options)),
    listAssetsBody: (options?: ListOptions) => listAssetsBody(ctx, listing(options)),
    listLibraryRowsBody: (options?: LibraryRowsOptions) => listLibraryRowsBody(ctx, libraryRows(options)),
    suggestedAssets: (options?: ListOptions) => suggestedAssets(ctx, listing(options)),
    searchAssets: (params, options, observer) => {
      const checked = check(SearchParamsSchema, params, '{query?, tags?}');
      return searchAssets(ctx, checked, searching(options, observer));
    },
    searchWithFilters: (input, options, observer) =>
      searchWithFilters(ctx, checkOptional(AssetsSearchWithFiltersInputSchema, input), searching(options, observer)),
    relatedAssets: (input) => relatedAssets(ctx, checkOptional(RelatedInputSchema, input)),
    recommendedAssets: (input) => recommendedAssets(ctx, checkOptional(RecommendationInputSchema, input)),
    streamSnapshot: (kind) => streamSnapshot(ctx, streamKind(kind)),
    streamChanges: (kind, since) => streamChanges(ctx, streamKind(kind), wholeNumber(since, 'since', 0, Number.MAX_SAFE_INTEGER)),
    relevance: (input, options) => {
      const limit = count(options, 'limit', 1, MAX_RELEVANT);
      if (ranksLibrary(input)) loadLibraryIndexes(ctx);
      return relevance(ctx, check(QGPTRelevanceInputSchema, input, 'QGPTRelevanceInput'), { ...(limit === undefined ? {} : { limit }), timing: options?.timing });
    },
    question: (input, options) => question(ctx, check(QGPTQuestionInputSchema, input, 'QGPTQuestionInput'), { signal: options?.signal }),
    reprompt: (input) => reprompt(ctx, check(QGPTRepromptInputSchema, input, 'QGPTRepromptInput')),
    hints: (input) => hints(ctx, check(QGPTHintsInputSchema, input, 'QGPTHintsInput')),
    personsRelated: (input, options) => {
      // Annotated: inferring the deep wire type through `??` overflows the type checker.
      const checked: QGPTPersonsRelatedInput = checkOptional(QGPTPersonsRelatedInputSchema, input) ?? {};
      return personsRelated(ctx, checked, transferables(options));
    },
    chatSettings: async () => publicSettings(await chatSettingsRecord.read(ctx.store)),
    testChatSettings: (options) => testChatSettings(ctx, options?.signal),
    describeEmbedder: async () => {
      await ctx.embedder.ready?.();
      return describeEmbedder(ctx.embedder);
    },
    embed: (input) => embedTexts(ctx, check(EmbedRequestSchema, input, '{texts: string[]}').texts),
    embeddingProgress: async () => vectorIndexFor(ctx).progress,
    embeddingSettings: async () => publicSettings(await embeddingSettingsRecord.read(ctx.store)),
    testEmbeddingSettings: () => testEmbeddingSettings(ctx),
    listIdentifiers: (options?: { pseudo?: boolean }) => listIdentifiers(ctx, { pseudo: flag(options, 'pseudo', false) }),
    pseudoSnapshot: () => pseudoSnapshot(ctx),
    getFormats: (asset: string, options?: TransferableOptions) => getFormats(ctx, id(asset), transferables(options)),
    getActivities: (asset: string) => getActivities(ctx, id(asset)),
    getConversations: (asset: string) => getConversations(ctx, id(asset)),
    draftSeed: (seed) => draftSeed(ctx, checkOptional(SeedSchema, seed)),
    listTags: () => listTags(ctx),
    listWebsites: () => listWebsites(ctx),
    listSummaries: () => listSummaries(ctx),
    listLibraryRows: (options?: LibraryRowsOptions) => listLibraryRows(ctx, libraryRows(options)),
    libraryPreviews: (ids: readonly string[]) => libraryPreviews(ctx, idList(ids)),
    // writes
    createAsset: (seed, options) => createAsset(ctx, checkOptional(SeedSchema, seed), transferables(options)),
    importAssets: (seeds) => importAssets(ctx, check(SeedsSchema, seeds, 'Seeds')),
    updateAsset: (asset, options) =>
      updateAsset(ctx, check(AssetUpdateSchema, asset, 'Asset'), transferables(options)),
    reclassifyAsset: (input, options) =>
      reclassifyAsset(ctx, check(AssetReclassificationSchema, input, 'AssetReclassification'), transferables(options)),
    deleteAsset: (asset: string) => deleteAsset(ctx, id(asset)),
    incrementScores: async (asset, increment) => {
      await incrementScores(ctx, id(asset), checkOptional(SeededScoreIncrementSchema, increment));
    },
    associate: (kind: LinkPath, asset: string, other: string) => changeLink(ctx, linkKind(kind), id(asset), id(other, 'linked'), true),
    disassociate: (kind: LinkPath, asset: string, other: string) => changeLink(ctx, linkKind(kind), id(asset), id(other, 'linked'), false),
    exportAsset: (asset: string, type?: string) => exportAsset(ctx, id(asset), parseExportType(type)),
    createTag: (seed) => createTag(ctx, check(SeededTagSchema, seed, 'SeededTag')),
    createWebsite: (seed) => createWebsite(ctx, check(SeededWebsiteSchema, seed, 'SeededWebsite')),
    createSummary: (seed) =>
      createSummary(ctx, check(SeededWorkstreamSummarySchema, seed, 'SeededWorkstreamSummary')),
    deleteConversation: (conversation: string) => deleteConversation(ctx, id(conversation, 'conversation')),
    listConversations: () => listConversations(ctx),
    getConversation: (conversation: string) => getConversation(ctx, id(conversation, 'conversation')),
    updateConversation: (conversation) => updateConversation(ctx, check(ConversationUpdateSchema, conversation, 'Conversation')),
    listFolders: () => listFolders(ctx),
    registerFolder: (name: string, handle: unknown) => registerFolder(ctx, name, handle),
    removeFolder: (name: string) => removeFolder(ctx, id(name, 'folder')),
    saveChatSettings: (settings) => chatSettingsRecord.write(ctx, check(ChatSettingsSchema, settings, '{url, model, apiKey?, enabled?}')),
    clearChatSettings: () => chatSettingsRecord.clear(ctx),
    saveEmbeddingSettings: (settings) => embeddingSettingsRecord.write(ctx, check(EmbeddingSettingsSchema, settings, '{url, model, apiKey?, enabled?}')),
    clearEmbeddingSettings: () => embeddingSettingsRecord.clear(ctx),
    refreshEmbeddings: async () => {
      const vectors = vectorIndexFor(ctx);
      vectors.current().catch((error) => console.error('embeddings: bringing the library vectors up to date failed', error));
      return vectors.progress;
    },
    // streams
    backup: () => ({ filename: backupFilename(ctx.now()), stream: backupStream(ctx) }),
    restoreBackup: async (file, options) => restoreBackup(ctx, await readBackup(file), { dryRun: flag(options, 'dryRun', false) }),
    answerStream: (frame, options) => answerStream(ctx, frame, options?.closed, socketName(options?.socket)),
  });
}

/**
 * Each operation run after `settleDeletes` and answered without half-deleted assets (assets/half-deleted.ts):
 * a worker's first operation finishes the deletes a stopped worker left half done, a write first finishes
 * those a full disk held up (and the first write on a store empty at the start puts the marker that saves
 * the next worker this look), and no answer names an asset whose delete is still half done. Not `backup`:
 * the file holds the records as they are stored.
 */
function afterHalfDeletes(ctx: ServiceContext, services: AllServices): AllServices {
  const wrapped: Record<string, unknown> = { ...services };
  for (const [name, operation] of Object.entries(services) as [string, (...args: unknown[]) => unknown][]) {
    if (name === 'backup') continue;
    const write = (OPERATIONS as Record<string, string>)[name] === 'write' || name === 'restoreBackup';
    wrapped[name] =
      name === 'answerStream'
        ? (...args: unknown[]) => {
            // Called now, so that a bad socket name is thrown before any frame (the route answers it a 400); not
            // settled first: the first `next()` must register the exchange at once (routes/streams.ts).
            const frames = operation(...args) as AsyncIterable<unknown>;
            return (async function* () {
              for await (const frame of frames) yield scrubAnswer(ctx.store, frame);
            })();
          }
        : async (...args: unknown[]) => {
            await settleDeletes(ctx, write);
            const answer = await operation(...args);
            if (write) await markAfterWrite(ctx);
            return scrubAnswer(ctx.store, answer);
          };
  }
  return wrapped as unknown as AllServices;
}

const transferables = (options?: TransferableOptions) => ({ transferables: flag(options, 'transferables', true) });
const listing = (options?: ListOptions) => ({ ...transferables(options), pseudo: flag(options, 'pseudo', false) });
const libraryRows = (options?: LibraryRowsOptions): LibraryRowsOptions => {
  const first = count(options, 'first', 1, 1_000_000);
  return { pseudo: flag(options, 'pseudo', false), ...(first === undefined ? {} : { first }) };
};
const searching = (options?: SearchOptions, observer?: SearchObserver) => ({
  ...listing(options),
  page: { limit: count(options, 'limit', 1, MAX_PAGE_SIZE), offset: count(options, 'offset', 0, 1_000_000) },
  assets: flag(options, 'assets', true),
  timing: observer?.timing,
  onTotal: observer?.onTotal,
});

async function embedTexts(ctx: ServiceContext, texts: string[]): Promise<Embedded> {
  let tagged: TaggedVectors;
  try {
    // Tagged: a configured endpoint that fails mid-call leaves the vectors of the built-in embedder.
    tagged = await embedTagged(ctx.embedder, texts);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ApiError(503, 'embedder_unavailable', `The embedder ${ctx.embedder.id} failed: ${message}`);
  }
  const { embedder, vectors } = tagged;
  return { embedder, dimensions: vectors[0]?.length ?? ctx.embedder.dimensions, vectors: vectors.map((v) => Array.from(v)) };
}

/** Asks the saved endpoint for a one-word completion; says the reason only when it fails (not the endpoint's own error text). */
async function testChatSettings(ctx: ServiceContext, signal: AbortSignal | undefined): Promise<SettingsTest> {
  const settings = await chatSettingsRecord.read(ctx.store);
  if (!settings) return { ok: false, message: 'No answer endpoint is set.' };
  const started = performance.now();
  try {
    await streamChat(ctx, settings, [{ role: 'user', content: 'Reply with the single word: ok' }], { timeoutMs: SETTINGS_TEST_TIMEOUT_MS, signal });
    return { ok: true, message: `Connected: ${settings.model} at ${settings.url} answered in ${Math.round(performance.now() - started)} ms.` };
  } catch (error) {
    if (!(error instanceof ChatError)) throw error;
    return { ok: false, message: `${settings.url} did not answer: ${error.reason}` };
  }
}

function streamKind(kind: unknown): StreamKind {
  if (!Object.values(STREAM_PATHS).includes(kind as StreamKind)) throw badRequest(`No stream of kind '${String(kind)}'.`, 'invalid_parameter');
  return kind as StreamKind;
}

/** The socket a stream frame comes from: 1 to 100 characters (its header on HTTP). */
function socketName(socket: unknown): string | undefined {
  const name = optionalText({ socket }, 'socket');
  if (name !== undefined && (name.length === 0 || name.length > 100)) {
    throw badRequest(`Header '${SOCKET_HEADER}' must name the socket in 1 to 100 characters.`, 'invalid_parameter');
  }
  return name;
}

function linkKind(kind: unknown): LinkKind {
  const found = linkKindOf(kind);
  if (!found) throw badRequest(`Cannot associate '${String(kind)}'; use tags, websites or workstream_summaries.`);
  return found;
}

/**
 * A write operation sent with an Idempotency-Key (the RPC path's `keyed` calls): run once per key, on
 * the ServiceContext carrying it, as a keyed HTTP write is (idempotency.ts). Answers the operation's result, or
 * for a key seen before the result stored then (its JSON). A read, or an unknown operation, is a 400.
 */
export async function runKeyedOperation(ctx: ServiceContext, key: unknown, operation: unknown, args: unknown): Promise<unknown> {
  const name = typeof operation === 'string' && Object.hasOwn(OPERATIONS, operation) ? (operation as Operation) : undefined;
  if (!name || OPERATIONS[name] !== 'write' || UNKEYED_WRITES.includes(name)) {
    throw badRequest(`'${String(operation)}' is not a write that takes an Idempotency-Key.`, 'invalid_parameter');
  }
  const list = Array.isArray(args) ? args : [];
  const run = (scoped: ServiceContext) => (createServices(scoped)[name] as (...a: unknown[]) => Promise<unknown>)(...list);
  const respond = (out: unknown) => ({ status: 200, contentType: 'application/json', body: out === undefined ? '' : JSON.stringify(out) });
  const outcome = await runOnce(ctx, checkKey(key), `RPC ${name}`, respond, run);
  if (!outcome.replayed) return outcome.result;
  return outcome.response.body === '' ? undefined : JSON.parse(outcome.response.body);
}
