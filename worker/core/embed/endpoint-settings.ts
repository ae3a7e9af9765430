/**
 * The embeddings endpoint the user configured, kept in the store (`meta`, record `embeddings.settings`)
 * so it survives worker restarts. The same shape and rules as the answer endpoint's (qgpt/settings.ts):
 * `{url, model, apiKey?, enabled?}`, a key only over https or to this machine, never answered back.
 * Not part of a backup (a backup carries no endpoint's key, and vectors are redone from the text anyway).
 * Tessera's own API: routes/embeddings.ts (`/embeddings/settings`). Saving, clearing or a good test makes
 * the Context's embedder read the settings again and try the endpoint at once (configured.ts).
 */
import type { ServiceContext } from '../deps.ts';
import { keyedWrite } from '../idempotency.ts';
import { ChatSettingsSchema, publicSettings, type ChatSettings, type PublicChatSettings } from '../qgpt/answer/chat-settings.ts';
import type { Store } from '../store/store.ts';
import { resetEmbedder } from './configured.ts';
import { EmbeddingEndpointError, EndpointEmbedder, type EndpointSettings } from './endpoint.ts';

export const EMBEDDING_SETTINGS_ID = 'embeddings.settings';

/** What `PUT /embeddings/settings` accepts: the answer endpoint's shape. */
export const EmbeddingSettingsSchema = ChatSettingsSchema;
export type EmbeddingSettings = ChatSettings;

export async function readEmbeddingSettings(store: Store): Promise<EmbeddingSettings | undefined> {
  const record = await store.read((tx) => tx.get('meta', EMBEDDING_SETTINGS_ID), ['meta']);
  const parsed = EmbeddingSettingsSchema.safeParse(record?.value);
  return parsed.success ? parsed.data : undefined;
}

/** The endpoint to embed with: configured and not disabled. */
export async function activeEmbeddingSettings(store: Store): Promise<EndpointSettings | undefined> {
  const settings = await readEmbeddingSettings(store);
  if (!settings || settings.enabled === false) return undefined;
  return { url: settings.url, model: settings.model, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) };
}

/** Stores the settings; answers them as GET does (without the key). */
export function writeEmbeddingSettings(ctx: ServiceContext, settings: EmbeddingSettings): Promise<PublicChatSettings> {
  return keyedWrite(
    ctx,
    async (tx) => {
      await tx.put('meta', { id: EMBEDDING_SETTINGS_ID, value: settings });
      return publicSettings(settings);
    },
    ['meta'],
  ).finally(() => resetEmbedder(ctx.embedder));
}

/** Clears the settings (the built-in embedder answers again); answers `{configured: false}`. */
export function clearEmbeddingSettings(ctx: ServiceContext): Promise<PublicChatSettings> {
  return keyedWrite(
    ctx,
    async (tx) => {
      await tx.delete('meta', EMBEDDING_SETTINGS_ID);
      return publicSettings(undefined);
    },
    ['meta'],
  ).finally(() => resetEmbedder(ctx.embedder));
}

const TEST_TIMEOUT_MS = 10_000;

/** Asks the saved endpoint for one vector (10 s at most); says the reason only when it fails. */
export async function testEmbeddingSettings(ctx: ServiceContext): Promise<{ ok: boolean; message: string }> {
  const settings = await readEmbeddingSettings(ctx.store);
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
