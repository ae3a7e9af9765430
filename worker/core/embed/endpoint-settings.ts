/**
 * The embeddings endpoint the user configured, kept in the store (`meta`, record `embeddings.settings`)
 * so it survives worker restarts. The same shape and rules as the answer endpoint's (qgpt/settings.ts):
 * `{url, model, apiKey?, enabled?}`, a key only over https or to this machine, never answered back.
 * Not part of a backup (a backup carries no endpoint's key, and vectors are redone from the text anyway).
 * Tessera's own API: routes/embeddings.ts (`/embeddings/settings`).
 */
import type { Context } from '../deps.ts';
import { keyedWrite } from '../idempotency.ts';
import { ChatSettingsSchema, publicSettings, type ChatSettings, type PublicChatSettings } from '../qgpt/settings.ts';
import type { Store } from '../store/store.ts';
import type { EndpointSettings } from './endpoint.ts';

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
export function writeEmbeddingSettings(ctx: Context, settings: EmbeddingSettings): Promise<PublicChatSettings> {
  return keyedWrite(
    ctx,
    async (tx) => {
      await tx.put('meta', { id: EMBEDDING_SETTINGS_ID, value: settings });
      return publicSettings(settings);
    },
    ['meta'],
  );
}

/** Clears the settings (the built-in embedder answers again); answers `{configured: false}`. */
export function clearEmbeddingSettings(ctx: Context): Promise<PublicChatSettings> {
  return keyedWrite(
    ctx,
    async (tx) => {
      await tx.delete('meta', EMBEDDING_SETTINGS_ID);
      return publicSettings(undefined);
    },
    ['meta'],
  );
}
