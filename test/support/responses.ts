import { z } from 'zod';
import * as S from '../../worker/core/model/schemas.ts';
import { LibraryPreviewsSchema, LibraryRowsSchema } from '../../worker/core/library/schemas.ts';
import { RestoreSummarySchema } from '../../worker/core/backup/restore.ts';

/** Tessera's own routes' answers (their shapes are documented in the routes' comments). */
function StreamReplySchema_() {
  const frame = z.union([S.StreamedIdentifiersSchema, S.AssetsSchema]);
  const change = z.object({ seq: z.number().int().nonnegative(), asset: z.string().min(1), kind: z.enum(['created', 'updated', 'deleted']), value: S.AssetSchema.optional() });
  return z.union([
    z.object({ seq: z.number().int().nonnegative(), changes: z.array(change) }).strict(),
    z.object({ seq: z.number().int().nonnegative(), snapshot: frame }).strict(),
    frame,
  ]);
}
const StreamReplySchema = StreamReplySchema_();
const EmbedderInfoSchema = z.object({
  id: z.string().min(1),
  dimensions: z.number().int().nonnegative(),
  kind: z.enum(['hashing', 'code-vectors', 'transformers', 'endpoint', 'custom']),
  status: z.enum(['ready', 'available', 'loading', 'failed']),
  reason: z.string().optional(),
  error: z.string().optional(),
  endpoint: z
    .object({ url: z.string().min(1), model: z.string().min(1), status: z.enum(['active', 'failed']), error: z.string().min(1).optional(), retryAt: z.iso.datetime().optional() })
    .strict()
    .optional(),
});
const EmbeddingProgressSchema = z.object({
  embedder: z.string(),
  embedded: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  snippets: z.number().int().nonnegative(),
  running: z.boolean(),
});
const PublicSettingsSchema = z.union([
  z.object({ configured: z.literal(false) }).strict(),
  z.object({ configured: z.literal(true), url: z.string().min(1), model: z.string().min(1), enabled: z.boolean(), hasApiKey: z.boolean() }).strict(),
]);

/**
 * Which contract schema each operation's response must satisfy. Used by the route tests (Node) and
 * the end-to-end tests (every raw response the SDK received in Chromium), so both check the same rules.
 */
const ID = '[^/]+';
const table: [method: string, path: RegExp, schema: z.ZodType | 'text' | 'empty' | 'ndjson'][] = [
  ['POST', /^\/assets\/create$/, S.AssetSchema],
  ['POST', /^\/assets\/draft$/, S.SeedSchema],
  ['POST', /^\/assets\/import$/, S.FlattenedAssetsSchema],
  ['GET', /^\/assets$/, S.AssetsSchema],
  ['GET', /^\/assets\/identifiers$/, S.FlattenedAssetsSchema],
  ['GET', /^\/assets\/pseudo$/, S.PseudoAssetsSchema],
  ['GET', /^\/assets\/search$/, S.SearchedAssetsSchema],
  ['POST', /^\/assets\/search$/, S.AssetsSearchWithFiltersOutputSchema],
  ['GET', /^\/assets\/(related|recommended)$/, S.AssetsSchema],
  ['POST', /^\/assets\/(related|recommended)$/, S.AssetsSchema],
  ['GET', /^\/assets\/stream(\/identifiers|\/transferables)?$/, StreamReplySchema],
  ['GET', new RegExp(`^/assets/${ID}/formats$`), S.FormatsSchema],
  ['POST', new RegExp(`^/assets/${ID}/delete$`), 'text'],
  ['GET', new RegExp(`^/assets/${ID}$`), S.AssetSchema],
  ['POST', /^\/asset\/update$/, S.AssetSchema],
  ['POST', /^\/asset\/reclassify$/, S.AssetSchema],
  ['GET', new RegExp(`^/asset/${ID}/formats$`), S.FormatsSchema],
  ['GET', new RegExp(`^/asset/${ID}/activities$`), S.ActivitiesSchema],
  ['GET', new RegExp(`^/asset/${ID}/conversations$`), S.ConversationsSchema],
  ['GET', new RegExp(`^/asset/${ID}/export$`), S.ExportedAssetSchema],
  ['POST', new RegExp(`^/asset/${ID}/scores/increment$`), 'empty'],
  ['POST', new RegExp(`^/asset/${ID}/(tags|websites|workstream_summaries)/(associate|disassociate)/${ID}$`), 'empty'],
  ['GET', new RegExp(`^/asset/${ID}$`), S.AssetSchema],
  ['POST', new RegExp(`^/asset/${ID}$`), S.AssetSchema],
  ['POST', /^\/tags\/create$/, S.TagSchema],
  ['GET', /^\/tags$/, S.TagsSchema],
  ['POST', /^\/websites\/create$/, S.WebsiteSchema],
  ['GET', /^\/websites$/, S.WebsitesSchema],
  ['POST', /^\/workstream_summaries\/create$/, S.WorkstreamSummarySchema],
  ['GET', /^\/workstream_summaries$/, S.WorkstreamSummariesSchema],
  ['POST', new RegExp(`^/conversations/${ID}/delete$`), 'empty'],
  ['GET', /^\/backup$/, 'text'],
  ['POST', /^\/backup\/restore$/, RestoreSummarySchema],
  ['GET', /^\/\.well-known\/(health|version)$/, 'text'],
  ['HEAD', /^\/\.well-known\/health$/, 'empty'],
  ['POST', /^\/qgpt\/relevance$/, S.QGPTRelevanceOutputSchema],
  ['POST', /^\/qgpt\/(question|hints)$/, S.QGPTQuestionOutputSchema],
  ['POST', /^\/qgpt\/reprompt$/, S.QGPTRepromptOutputSchema],
  ['POST', /^\/qgpt\/persons\/related$/, S.QGPTPersonsRelatedOutputSchema],
  // Tessera's own routes
  ['POST', /^\/(qgpt|embeddings)\/settings\/test$/, z.object({ ok: z.boolean(), message: z.string().min(1) })],
  ['GET', /^\/conversations$/, S.ConversationsSchema],
  ['GET', new RegExp(`^/conversation/${ID}$`), S.ConversationSchema],
  ['POST', /^\/conversation\/update$/, S.ConversationSchema],
  ['GET', /^\/library$/, LibraryRowsSchema],
  ['GET', /^\/library\/previews$/, LibraryPreviewsSchema],
  ['POST', /^\/qgpt\/stream$/, 'ndjson'],
  ['GET', /^\/embeddings$/, EmbedderInfoSchema],
  ['POST', /^\/embeddings$/, z.object({ embedder: z.string().min(1), dimensions: z.number().int().positive(), vectors: z.array(z.array(z.number())) })],
  ['GET', /^\/embeddings\/library$/, EmbeddingProgressSchema],
  ['POST', /^\/embeddings\/library$/, EmbeddingProgressSchema],
  ['GET', /^\/folders$/, z.object({ iterable: z.array(z.object({ name: z.string().min(1), path: z.string().min(1), created: z.string(), permission: z.enum(['granted', 'prompt', 'denied']).optional() })) })],
  ['DELETE', new RegExp(`^/folders/${ID}$`), 'empty'],
  ['GET', /^\/(qgpt|embeddings)\/settings$/, PublicSettingsSchema],
  ['PUT', /^\/(qgpt|embeddings)\/settings$/, PublicSettingsSchema],
  ['DELETE', /^\/(qgpt|embeddings)\/settings$/, PublicSettingsSchema],
];

export const ErrorBodySchema = z.object({
  error: z.object({ status: z.number().int(), code: z.string().min(1), message: z.string().min(1) }),
});

export interface Exchange {
  method: string;
  /** The path below the API base, e.g. `/assets/create`. */
  path: string;
  status: number;
  contentType: string | null;
  body: string;
}

/** Throws unless the response fits the contract: its schema on success, the error body otherwise. */
export function checkResponse(x: Exchange): void {
  const where = `${x.method} ${x.path} -> ${x.status}`;
  if (x.status >= 400) {
    if (!x.contentType?.includes('application/json')) throw new Error(`${where}: error without a JSON body`);
    const parsed = ErrorBodySchema.safeParse(JSON.parse(x.body));
    if (!parsed.success) throw new Error(`${where}: bad error body ${x.body}`);
    if (parsed.data.error.status !== x.status) throw new Error(`${where}: error.status ${parsed.data.error.status}`);
    return;
  }
  const entry = table.find(([method, path]) => method === x.method && path.test(x.path));
  if (!entry) throw new Error(`${where}: no response schema known for this operation`);
  const schema = entry[2];
  if (schema === 'empty') {
    if (x.body !== '') throw new Error(`${where}: expected an empty body, got ${x.body.slice(0, 80)}`);
  } else if (schema === 'text') {
    if (x.body === '') throw new Error(`${where}: expected text`);
  } else if (schema === 'ndjson') {
    // /qgpt/stream: one QGPTStreamOutput per line; a refused frame is a FAILED frame with a 4xx statusCode.
    const lines = x.body.split('\n').filter((line) => line !== '');
    if (lines.length === 0) throw new Error(`${where}: expected at least one frame`);
    for (const line of lines) {
      const parsed = S.QGPTStreamOutputSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${where}: frame breaks the contract: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
      const code = parsed.data.statusCode;
      if (parsed.data.status === 'FAILED' && code !== undefined && code !== null && code >= 500) {
        throw new Error(`${where}: a FAILED frame with statusCode ${code}: ${line.slice(0, 200)}`);
      }
    }
  } else {
    if (!x.contentType?.includes('application/json')) throw new Error(`${where}: expected JSON, got ${x.contentType}`);
    const parsed = schema.safeParse(JSON.parse(x.body));
    if (!parsed.success) {
      throw new Error(`${where}: response breaks the contract: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    }
  }
}
