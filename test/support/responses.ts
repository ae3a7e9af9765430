import { z } from 'zod';
import * as S from '../../worker/core/model/schemas.ts';
import { LibraryPreviewsSchema, LibraryRowsSchema } from '../../worker/core/library/schemas.ts';
import { RestoreSummarySchema } from '../../worker/core/backup/restore.ts';

/**
 * Which contract schema each operation's response must satisfy. Used by the route tests (Node) and
 * the end-to-end tests (every raw response the SDK received in Chromium), so both check the same rules.
 */
const ID = '[^/]+';
const table: [method: string, path: RegExp, schema: z.ZodType | 'text' | 'empty'][] = [
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
  ['POST', /^\/qgpt\/settings\/test$/, z.object({ ok: z.boolean(), message: z.string().min(1) })],
  ['GET', /^\/conversations$/, S.ConversationsSchema],
  ['GET', new RegExp(`^/conversation/${ID}$`), S.ConversationSchema],
  ['POST', /^\/conversation\/update$/, S.ConversationSchema],
  ['GET', /^\/library$/, LibraryRowsSchema],
  ['GET', /^\/library\/previews$/, LibraryPreviewsSchema],
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
  } else {
    if (!x.contentType?.includes('application/json')) throw new Error(`${where}: expected JSON, got ${x.contentType}`);
    const parsed = schema.safeParse(JSON.parse(x.body));
    if (!parsed.success) {
      throw new Error(`${where}: response breaks the contract: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    }
  }
}
