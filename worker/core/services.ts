/**
 * The asset service as typed calls, for callers that do not go through HTTP (the page's RPC path over a
 * MessageChannel, see worker/browser/rpc.ts and app/client/rpc.ts). Each operation validates its input
 * with the same contract schema as its route and calls the same domain function, so it returns the same
 * wire object as the route and fails with the same ApiError (status, code, message).
 */
import type { z } from 'zod';
import { createAsset } from './assets/create.ts';
import { draftSeed } from './assets/draft.ts';
import { exportAsset, parseExportType } from './assets/export.ts';
import { getActivities, getAsset, getConversations, getFormats, listAssets, listIdentifiers, pseudoSnapshot } from './assets/read.ts';
import { deleteAsset } from './assets/remove.ts';
import { incrementScores } from './assets/scores.ts';
import { AssetUpdateSchema, reclassifyAsset, updateAsset } from './assets/update.ts';
import type { ServiceContext } from './deps.ts';
import { ApiError, badRequest, invalid, isQuotaExceeded } from './errors.ts';
import { changeLink, linkKindOf, type LinkKind, type LinkPath } from './links/associate.ts';
import { createSummary, createTag, createWebsite, listSummaries, listTags, listWebsites } from './links/labels.ts';
import {
  AssetReclassificationSchema,
  IdSchema,
  SeededScoreIncrementSchema,
  SeededTagSchema,
  SeededWebsiteSchema,
  SeededWorkstreamSummarySchema,
  SeedSchema,
  type Activities,
  type Asset,
  type AssetReclassification,
  type Assets,
  type Conversation,
  type Conversations,
  type ExportedAsset,
  type FlattenedAssets,
  type Formats,
  type PseudoAssets,
  type Seed,
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
import { listLibraryRows } from './library/rows.ts';
import type { LibraryPreviews, LibraryRows } from './library/schemas.ts';
import { ConversationUpdateSchema, deleteConversation, getConversation, listConversations, updateConversation } from './qgpt/conversations.ts';
import { listFolders, registerFolder, removeFolder, type GrantedFolder, type GrantedFolders } from './qgpt/files/folders.ts';
import { describeIssues } from './routes/http.ts';
import { checkKey, runOnce } from './idempotency.ts';
import { OPERATIONS, UNKEYED_WRITES } from './service-operations.ts';

export type { LinkPath };

export interface TransferableOptions {
  /** Include fragment and file contents. Default true (as the routes' `transferables` parameter). */
  transferables?: boolean;
}
export interface ListOptions extends TransferableOptions {
  /** Include pseudo assets. Default false. */
  pseudo?: boolean;
}

function check<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  if (value === undefined || value === null) throw invalid(`The request needs a ${what} body.`, 'missing_body');
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(describeIssues(parsed.error), 'invalid_body');
  return parsed.data;
}

/** Like `check` for bodies the contract makes optional: absent stays absent. */
function checkOptional<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(describeIssues(parsed.error), 'invalid_body');
  return parsed.data;
}

function id(value: unknown, what = 'asset'): string {
  const parsed = IdSchema.safeParse(value);
  if (!parsed.success) throw badRequest(`The ${what} id must be a non-empty string.`, 'invalid_parameter');
  return parsed.data;
}

function idList(value: unknown): string[] {
  if (!Array.isArray(value)) throw badRequest('ids must be a list of asset ids.', 'invalid_parameter');
  return value.map((v) => id(v));
}

function flag(options: Record<string, unknown> | undefined, name: string, fallback: boolean): boolean {
  const value = options?.[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw badRequest(`Option '${name}' must be true or false.`, 'invalid_parameter');
  return value;
}

const transferables = (options?: TransferableOptions) => ({ transferables: flag(options as Record<string, unknown>, 'transferables', true) });

/**
 * Every operation of the service. Inputs are checked as the routes check bodies and parameters
 * (a bad one fails with 400 or 422), so any JSON-like value may be passed.
 */
export interface Services {
  // reads
  /** GET /asset/{id} */
  getAsset(asset: string, options?: TransferableOptions): Promise<Asset>;
  /** GET /assets */
  listAssets(options?: ListOptions): Promise<Assets>;
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
  /** GET /library (Tessera's own: the list a library view shows) */
  listLibraryRows(options?: { pseudo?: boolean }): Promise<LibraryRows>;
  /** GET /library/previews?ids= (Tessera's own) */
  libraryPreviews(ids: readonly string[]): Promise<LibraryPreviews>;
  // writes
  /** POST /assets/create */
  createAsset(seed?: Seed, options?: TransferableOptions): Promise<Asset>;
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
  exportAsset(asset: string, type: string): Promise<ExportedAsset>;
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
}

export type Operation = keyof Services;

/** The operations bound to one context. */
export function createServices(ctx: ServiceContext): Services {
  return {
    // reads
    getAsset: (asset: string, options?: TransferableOptions) => getAsset(ctx, id(asset), transferables(options)),
    listAssets: (options?: ListOptions) =>
      listAssets(ctx, { ...transferables(options), pseudo: flag(options as Record<string, unknown>, 'pseudo', false) }),
    listIdentifiers: (options?: { pseudo?: boolean }) => listIdentifiers(ctx, { pseudo: flag(options, 'pseudo', false) }),
    pseudoSnapshot: () => pseudoSnapshot(ctx),
    getFormats: (asset: string, options?: TransferableOptions) => getFormats(ctx, id(asset), transferables(options)),
    getActivities: (asset: string) => getActivities(ctx, id(asset)),
    getConversations: (asset: string) => getConversations(ctx, id(asset)),
    draftSeed: (seed) => draftSeed(ctx, checkOptional(SeedSchema, seed)),
    listTags: () => listTags(ctx),
    listWebsites: () => listWebsites(ctx),
    listSummaries: () => listSummaries(ctx),
    listLibraryRows: (options?: { pseudo?: boolean }) => listLibraryRows(ctx, { pseudo: flag(options, 'pseudo', false) }),
    libraryPreviews: (ids: readonly string[]) => libraryPreviews(ctx, idList(ids)),
    // writes
    createAsset: (seed, options) =>
      createAsset(ctx, checkOptional(SeedSchema, seed), transferables(options)),
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
    exportAsset: (asset: string, type: string) => exportAsset(ctx, id(asset), parseExportType(type)),
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
  };
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

/** Any error as the ApiError the HTTP API would answer (the same mapping as the app's error handler). */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isQuotaExceeded(error)) {
    return new ApiError(
      507,
      'storage_full',
      "Storage is full: the browser refused to store more data (this site's storage quota is used up). Nothing was changed; delete assets or free disk space, then try again.",
    );
  }
  return new ApiError(500, 'internal_error', error instanceof Error ? error.message : String(error));
}
