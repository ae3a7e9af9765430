/**
 * The chat-completions endpoint the user configured for generative answers, kept in the store (`meta`,
 * record `qgpt.settings`) so it survives worker restarts; its shape and rules, which the embeddings
 * endpoint's settings share (embed/endpoint-settings.ts). Tessera's own API: routes/qgpt-settings.ts.
 */
import * as z from 'zod';
import type { ServiceContext } from '../../deps.ts';
import { keyedWrite } from '../../idempotency.ts';
import { lazySchema } from '../../model/lazy-schema.ts';
import type { Store } from '../../store/store.ts';

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

/**
 * An endpoint's settings kept in one `meta` record (the answer endpoint's here, the embeddings
 * endpoint's in embed/endpoint-settings.ts), and the one way to use them.
 */
export interface EndpointSettingsRecord {
  /** The settings; undefined when none are saved (or what is saved no longer parses). */
  read(store: Store): Promise<ChatSettings | undefined>;
  /** The settings when they are in use: saved and not disabled. */
  active(store: Store): Promise<ChatSettings | undefined>;
  /** Stores the settings (a keyed write); answers them as GET does, without the key. */
  write(ctx: ServiceContext, settings: ChatSettings): Promise<PublicChatSettings>;
  /** Clears the settings (a keyed write); answers `{configured: false}`. */
  clear(ctx: ServiceContext): Promise<PublicChatSettings>;
}

/** The record `id` of `meta`; `changed` runs after each write or clear, whether it succeeded or not. */
export function endpointSettingsRecord(id: string, changed: (ctx: ServiceContext) => void = () => {}): EndpointSettingsRecord {
  const read = async (store: Store) => {
    const record = await store.read((tx) => tx.get('meta', id), ['meta']);
    const parsed = ChatSettingsSchema.safeParse(record?.value);
    return parsed.success ? parsed.data : undefined;
  };
  const save = (ctx: ServiceContext, value: ChatSettings | undefined) =>
    keyedWrite(
      ctx,
      async (tx) => {
        await (value ? tx.put('meta', { id, value }) : tx.delete('meta', id));
        return publicSettings(value);
      },
      ['meta'],
    ).finally(() => changed(ctx));
  return {
    read,
    active: async (store) => {
      const settings = await read(store);
      return settings && settings.enabled !== false ? settings : undefined;
    },
    write: save,
    clear: (ctx) => save(ctx, undefined),
  };
}

/** The answer endpoint's settings: generative answers are on while they are active. */
export const chatSettingsRecord = endpointSettingsRecord(SETTINGS_ID);

export function publicSettings(settings: ChatSettings | undefined): PublicChatSettings {
  if (!settings) return { configured: false };
  return { configured: true, url: settings.url, model: settings.model, enabled: settings.enabled !== false, hasApiKey: settings.apiKey !== undefined };
}
