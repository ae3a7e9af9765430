/**
 * The embeddings endpoint the user configured, kept in the store (`meta`, record `embeddings.settings`)
 * so it survives worker restarts. The same shape, rules and record as the answer endpoint's
 * (qgpt/answer/chat-settings.ts): `{url, model, apiKey?, enabled?}`, a key only over https or to this
 * machine, never answered back.
 * Not part of a backup (a backup carries no endpoint's key, and vectors are redone from the text anyway).
 * Tessera's own API: routes/embeddings.ts (`/embeddings/settings`). Saving, clearing or a good test makes
 * the ServiceContext's embedder read the settings again and try the endpoint at once (configured.ts).
 */
import type { ServiceContext } from '../deps.ts';
import { ChatSettingsSchema, endpointSettingsRecord, type ChatSettings } from '../qgpt/answer/chat-settings.ts';
import { resetEmbedder } from './configured.ts';
import { EmbeddingEndpointError, EndpointEmbedder } from './endpoint.ts';

export const EMBEDDING_SETTINGS_ID = 'embeddings.settings';

/** What `PUT /embeddings/settings` accepts: the answer endpoint's shape. */
export const EmbeddingSettingsSchema = ChatSettingsSchema;
export type EmbeddingSettings = ChatSettings;

/** The embeddings endpoint's settings; saving or clearing them makes the embedder read them again. */
export const embeddingSettingsRecord = endpointSettingsRecord(EMBEDDING_SETTINGS_ID, (ctx) => resetEmbedder(ctx.embedder));

const TEST_TIMEOUT_MS = 10_000;

/** Asks the saved endpoint for one vector (10 s at most); says the reason only when it fails. */
export async function testEmbeddingSettings(ctx: ServiceContext): Promise<{ ok: boolean; message: string }> {
  const settings = await embeddingSettingsRecord.read(ctx.store);
  if (!settings) return { ok: false, message: 'No embeddings endpoint is set.' };
  const started = performance.now();
  try {
    const [vector] = await new EndpointEmbedder(settings, ctx.fetch, TEST_TIMEOUT_MS).embed(['def ok(): return True']);
    resetEmbedder(ctx.embedder);
    return { ok: true, message: `Connected: ${settings.model} at ${settings.url} answered a ${vector!.length}-dimension vector in ${Math.round(performance.now() - started)} ms.` };
  } catch (error) {
    if (!(error instanceof EmbeddingEndpointError)) throw error;
    return { ok: false, message: `${settings.url} did not answer: ${error.reason}` };
  }
}
