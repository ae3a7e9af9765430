/**
 * The chat-completions endpoint the user configured for generative answers, kept in the store (`meta`,
 * record `qgpt.settings`) so it survives worker restarts. Tessera's own API: routes/qgpt-settings.ts.
 */
import * as z from 'zod';
import type { ServiceContext } from '../../deps.ts';
import { keyedWrite } from '../../idempotency.ts';
import { lazySchema } from '../../model/lazy-schema.ts';

export const SETTINGS_ID = 'qgpt.settings';

/** What `PUT /qgpt/settings` accepts (and what is stored). Unknown fields are refused. */
export const ChatSettingsSchema = lazySchema(() =>
  z.strictObject({
    /** The API base, e.g. `http://localhost:11434/v1`; requests go to `<url>/chat/completions`. */
    url: z
      .string()
      .trim()
      .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http or https URL'),
    model: z.string().trim().min(1),
    /** Sent as `Authorization: Bearer <apiKey>`; never answered back. */
    apiKey: z.string().min(1).optional(),
    /** False keeps the settings but answers extractively. Default true. */
    enabled: z.boolean().optional(),
  }).refine((s) => s.apiKey === undefined || keySafeOver(s.url), {
    path: ['url'],
    message: 'an API key is sent only over https, or over plain http to this machine (localhost, 127.0.0.0/8, [::1])',
  }),
);

/** Whether a key may travel to `url`: https, or http that never leaves the machine. */
function keySafeOver(url: string): boolean {
  // A URL that does not parse has its own issue on `url`.
  if (!URL.canParse(url)) return true;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return true;
  // The URL parser normalises IPv4 forms (127.1, 0x7f.0.0.1) to dotted decimal and keeps IPv6 brackets.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
export type ChatSettings = z.infer<typeof ChatSettingsSchema>;

/** What `GET /qgpt/settings` answers: the settings without the key, and whether there is one. */
export type PublicChatSettings =
  | { configured: false }
  | { configured: true; url: string; model: string; enabled: boolean; hasApiKey: boolean };

export async function readChatSettings(ctx: ServiceContext): Promise<ChatSettings | undefined> {
  const record = await ctx.store.read((tx) => tx.get('meta', SETTINGS_ID), ['meta']);
  const parsed = ChatSettingsSchema.safeParse(record?.value);
  return parsed.success ? parsed.data : undefined;
}

/** The settings when generative answers are on (configured and not disabled). */
export async function activeChatSettings(ctx: ServiceContext): Promise<ChatSettings | undefined> {
  const settings = await readChatSettings(ctx);
  return settings && settings.enabled !== false ? settings : undefined;
}

/** Stores the settings; answers them as GET /qgpt/settings does (the answer a keyed PUT keeps). */
export function writeChatSettings(ctx: ServiceContext, settings: ChatSettings): Promise<PublicChatSettings> {
  return keyedWrite(
    ctx,
    async (tx) => {
      await tx.put('meta', { id: SETTINGS_ID, value: settings });
      return publicSettings(settings);
    },
    ['meta'],
  );
}

/** Clears the settings; answers `{configured: false}`. */
export function clearChatSettings(ctx: ServiceContext): Promise<PublicChatSettings> {
  return keyedWrite(
    ctx,
    async (tx) => {
      await tx.delete('meta', SETTINGS_ID);
      return publicSettings(undefined);
    },
    ['meta'],
  );
}

export function publicSettings(settings: ChatSettings | undefined): PublicChatSettings {
  if (!settings) return { configured: false };
  return { configured: true, url: settings.url, model: settings.model, enabled: settings.enabled !== false, hasApiKey: settings.apiKey !== undefined };
}
