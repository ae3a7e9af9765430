/**
 * Stored question-answering conversations: each `/qgpt/stream` exchange appends a USER message (the
 * query) and, when an answer was produced, an ASSISTANT message (the answer text the client was sent),
 * and links the conversation with the assets the answer drew on (a `links` record each, as
 * links/associate.ts links tags).
 */
import type { ServiceContext } from '../deps.ts';
import { notFound } from '../errors.ts';
import { commit } from '../feed/commit.ts';
import { keyedWrite } from '../idempotency.ts';
import { endRunning } from '../streams/running.ts';
import * as build from '../model/build.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { ConversationSchema, type Conversation, type Conversations } from '../model/schemas.ts';
import { LinkTable, addLink, assetsOf, linkedTo, removeLink, withAssets } from '../links/link-records.ts';
import type { AssetRecord, ConversationRecord, MessageRecord, WithAssets } from '../store/records.ts';
import type { ReadTx, WriteTx } from '../store/store.ts';
import { inRecordedOrder } from '../store/recorded-order.ts';

export interface StoredConversation {
  record: WithAssets<ConversationRecord>;
  messages: MessageRecord[];
}

/** A conversation with its messages in order and all its assets, or undefined when there is none with that id. */
export async function readConversation(ctx: ServiceContext, id: string): Promise<StoredConversation | undefined> {
  return ctx.store.read(async (tx) => {
    const record = await tx.get('conversations', id);
    if (!record) return undefined;
    const [[linked], messages] = await Promise.all([withAssets(tx, 'conversations', [record]), messagesOf(tx, record)]);
    return { record: linked!, messages };
  }, ['conversations', 'messages', 'links']);
}

/**
 * How many message ids a conversation record keeps, the newest: every Asset read lists its conversations
 * with these (`Conversation.messages` as references), so the record stays bounded. The full list is read
 * through the `conversation` index (`messagesOf`).
 */
export const CONVERSATION_MESSAGES_KEPT = 100;

/** Every message of the conversation, in order (a question before its answer). */
export async function messagesOf(tx: ReadTx, conversation: ConversationRecord): Promise<MessageRecord[]> {
  const messages = await tx.getAllFromIndex('messages', 'conversation', conversation.id);
  return inRecordedOrder(messages, conversation.messages, (m) => (m.role === 'USER' ? 0 : 1));
}

/** The wire Conversations an asset is linked with (all of them), each with its messages and assets. */
export async function readConversations(tx: ReadTx, asset: AssetRecord): Promise<Conversation[]> {
  const records = await withAssets(tx, 'conversations', await tx.getMany('conversations', await linkedTo(tx, asset.id, 'conversations')));
  return Promise.all(records.map(async (c) => build.conversation(c, await messagesOf(tx, c))));
}

export interface Exchange {
  conversation: string;
  query: string;
  /** The answer text the client was sent; undefined when the exchange produced no answer (relevance only). */
  answer?: string;
  /** The assets of the passages the answer drew on. */
  assets: readonly string[];
}

const NAME_LENGTH = 80;

/** A new conversation's name: the first line of its first query, cut at a word near 80 characters. */
export function conversationName(query: string): string {
  const line = query.trim().split('\n')[0]!.trim();
  if (line.length <= NAME_LENGTH) return line || 'Conversation';
  const cut = line.slice(0, NAME_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > NAME_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Stores one exchange in one transaction: creates the conversation when it does not exist (with the
 * given id), appends its messages, and links it with the answer's assets that still exist (a change
 * event for each asset newly linked, so streams, search and caches see it).
 */
export function saveExchange(ctx: ServiceContext, exchange: Exchange): Promise<ConversationRecord> {
  const now = ctx.now().toISOString();
  const message = (role: MessageRecord['role'], text: string, assets: string[]): MessageRecord => ({
    id: ctx.newId(),
    conversation: exchange.conversation,
    created: now,
    updated: now,
    role,
    text,
    assets,
  });
  return commit(ctx, async (tx, log) => {
    const assets = await tx.getMany('assets', [...new Set(exchange.assets)]);
    const used = assets.map((a) => a.id);
    const messages = [message('USER', exchange.query, [])];
    if (exchange.answer !== undefined) messages.push(message('ASSISTANT', exchange.answer, used));
    const conversation: ConversationRecord = (await tx.get('conversations', exchange.conversation)) ?? {
      id: exchange.conversation,
      name: conversationName(exchange.query),
      created: now,
      updated: now,
      messages: [],
    };
    conversation.updated = now;
    conversation.messages = [...conversation.messages, ...messages.map((m) => m.id)].slice(-CONVERSATION_MESSAGES_KEPT);
    const writes = [tx.put('conversations', conversation), ...messages.map((m) => tx.put('messages', m))];
    // One after another: each new link takes the next position (the order the conversation lists them).
    for (const asset of used) if (await addLink(tx, 'conversations', conversation.id, asset)) log.updated(asset);
    await Promise.all(writes);
    return conversation;
  }, ['assets', 'conversations', 'messages', 'links']);
}

/**
 * Before an asset is deleted: its conversations keep their messages but no longer list it (nor do their
 * messages), inside the deleting transaction.
 */
export async function unlinkConversations(tx: WriteTx, asset: AssetRecord): Promise<void> {
  for (const conversation of await linkedTo(tx, asset.id, 'conversations')) {
    await removeLink(tx, 'conversations', conversation, asset.id);
    for (const message of await tx.getAllFromIndex('messages', 'conversation', conversation)) {
      if (!message.assets.includes(asset.id)) continue;
      message.assets = message.assets.filter((id) => id !== asset.id);
      await tx.put('messages', message);
    }
  }
}

/**
 * Deletes a conversation with its messages, and unlinks it from its assets, in one transaction (a change
 * event for each asset, whose wire Asset listed it). A request still answering in it, on this instance or
 * another, is stopped first and waited for, or its end would store the exchange again under the same id. 404 for an unknown id.
 */
export async function deleteConversation(ctx: ServiceContext, id: string): Promise<void> {
  await endRunning(ctx, { scope: 'conversation', conversation: id }, 'stop');
  await commit(ctx, async (tx, log) => {
    const conversation = await tx.get('conversations', id);
    if (!conversation) throw notFound('conversation', id);
    const messages = await tx.getKeysFromIndex('messages', 'conversation', id);
    const writes = [tx.delete('conversations', id), ...messages.map((m) => tx.delete('messages', m))];
    // Each asset's wire Asset listed the conversation.
    for (const asset of await assetsOf(tx, 'conversations', id)) {
      writes.push(removeLink(tx, 'conversations', id, asset).then(() => undefined));
      log.updated(asset);
    }
    await Promise.all(writes);
  }, ['conversations', 'messages', 'links']);
}

/** `GET /conversations`: every stored conversation with its messages, the most recently updated first. */
export function listConversations(ctx: ServiceContext): Promise<Conversations> {
  return ctx.store.read(async (tx) => {
    const [records, links] = await Promise.all([tx.getAll('conversations'), LinkTable.read(tx, 'conversations')]);
    records.sort((a, b) => b.updated.localeCompare(a.updated));
    return { iterable: await Promise.all(records.map(async (c) => build.conversation(links.withAssets('conversations', c), await messagesOf(tx, c)))) };
  }, ['conversations', 'messages', 'links']);
}

/** `GET /conversation/{id}`: one conversation with its messages; 404 for an unknown id. */
export async function getConversation(ctx: ServiceContext, id: string): Promise<Conversation> {
  const found = await readConversation(ctx, id);
  if (!found) throw notFound('conversation', id);
  return build.conversation(found.record, found.messages);
}

/** An update names the conversation by id; every other field is optional but checked when present. */
export const ConversationUpdateSchema = lazySchema(() => ConversationSchema.partial().required({ id: true }));

/**
 * `POST /conversation/update`: takes the conversation's `name` (a rename); its messages and links are
 * the service's and stay as stored. 404 for an unknown id.
 */
export async function updateConversation(ctx: ServiceContext, input: { id: string; name?: string | null }): Promise<Conversation> {
  // The Conversation is made in the transaction: a keyed request keeps it as its response.
  return keyedWrite(
    ctx,
    async (tx) => {
      const record = await tx.get('conversations', input.id);
      if (!record) throw notFound('conversation', input.id);
      if (input.name != null && input.name.trim() !== '') record.name = input.name.trim().slice(0, 200);
      record.updated = ctx.now().toISOString();
      await tx.put('conversations', record);
      const [linked] = await withAssets(tx, 'conversations', [record]);
      return build.conversation(linked!, await messagesOf(tx, record));
    },
    ['conversations', 'messages', 'links'],
  );
}
