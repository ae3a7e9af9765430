/**
 * Which service operations only read and which may write: a caller that lost its connection to the
 * worker may send a read again, never a write. Apart from services.ts so that the page-side client can
 * import it without the domain code.
 */
import type { BodyServices, Operation, StreamingServices } from './services.ts';

/**
 * Whether each operation only reads (safe to send again after a lost connection) or may write.
 * `exportAsset` records an export activity, so it counts as a write.
 */
export const OPERATIONS = {
  getAsset: 'read',
  listAssets: 'read',
  suggestedAssets: 'read',
  searchAssets: 'read',
  searchWithFilters: 'read',
  relatedAssets: 'read',
  recommendedAssets: 'read',
  streamSnapshot: 'read',
  streamChanges: 'read',
  relevance: 'read',
  question: 'read',
  reprompt: 'read',
  hints: 'read',
  personsRelated: 'read',
  chatSettings: 'read',
  testChatSettings: 'read',
  describeEmbedder: 'read',
  embed: 'read',
  embeddingProgress: 'read',
  embeddingSettings: 'read',
  testEmbeddingSettings: 'read',
  listIdentifiers: 'read',
  pseudoSnapshot: 'read',
  getFormats: 'read',
  getActivities: 'read',
  getConversations: 'read',
  draftSeed: 'read',
  listTags: 'read',
  listWebsites: 'read',
  listSummaries: 'read',
  listLibraryRows: 'read',
  libraryPreviews: 'read',
  createAsset: 'write',
  importAssets: 'write',
  updateAsset: 'write',
  reclassifyAsset: 'write',
  deleteAsset: 'write',
  incrementScores: 'write',
  associate: 'write',
  disassociate: 'write',
  exportAsset: 'write',
  createTag: 'write',
  createWebsite: 'write',
  createSummary: 'write',
  deleteConversation: 'write',
  listConversations: 'read',
  getConversation: 'read',
  updateConversation: 'write',
  listFolders: 'read',
  registerFolder: 'write',
  removeFolder: 'write',
  saveChatSettings: 'write',
  clearChatSettings: 'write',
  saveEmbeddingSettings: 'write',
  clearEmbeddingSettings: 'write',
  refreshEmbeddings: 'write',
} as const satisfies Record<Operation, 'read' | 'write'>;

/**
 * Writes the RPC path runs without an Idempotency-Key: `registerFolder` replaces the folder of its name
 * (sending it twice does no harm), and its handle is no JSON to keep; `refreshEmbeddings` only starts
 * bringing derived vectors up to date. Every other write is keyed.
 */
export const UNKEYED_WRITES: readonly Operation[] = ['registerFolder', 'refreshEmbeddings'];

/** The RPC method that runs a write once per key: `keyed(key, operation, args)` (see services.ts). */
export const KEYED_CALL = 'keyed';

/** The operations the RPC path does not offer: a stream does not cross its MessagePort (see StreamingServices). */
export const STREAMING_OPERATIONS = ['backup', 'restoreBackup', 'answerStream'] as const satisfies readonly (keyof StreamingServices)[];

/** The operations the RPC path does not offer either: JSON bodies for HTTP (see BodyServices); RPC takes the objects. */
export const BODY_OPERATIONS = ['getAssetBody', 'listAssetsBody', 'listLibraryRowsBody'] as const satisfies readonly (keyof BodyServices)[];
