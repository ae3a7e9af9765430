/**
 * The live-stream transport between a page and the worker, shared by both sides (the page-side client
 * in app/client imports it). A service worker cannot accept a WebSocket, so a socket for a stream path
 * is made of:
 *
 * - change events `{seq, asset, kind}` the worker posts on the BroadcastChannel `tessera-changes` after
 *   each commit (worker/browser/broadcast-feed.ts), which the page listens to;
 * - `GET <base><stream path>`: the snapshot frame (exactly the socket's first frame), with the seq it
 *   reflects in the `tessera-seq` header; snapshot and seq are read in one read transaction;
 * - `GET <base><stream path>?since=<seq>`: a {@link StreamCatchUp}: the changes after `seq` from the
 *   durable change log (with the changed assets on the asset streams), or a fresh snapshot when the log
 *   no longer reaches back (or `seq` is ahead of the store, which was then reset);
 * - `POST <base>/qgpt/stream` with one input frame: the output frames as NDJSON, one per line. The
 *   page's socket sends its id in the `tessera-socket` header and each frame only once the worker has
 *   answered the previous one's headers (by then that frame is registered), so frames keep their order as
 *   on a WebSocket, and `{reset: true}` ends only that socket's requests.
 *
 * Pages talk to the worker only by fetch (which starts a stopped worker); listening on the channel is
 * fine, posting on it is not (a stopped worker would miss it).
 */
import type { Asset, Assets, StreamedIdentifiers } from '../model/schemas.ts';

/** The response header carrying the seq a snapshot reflects. */
export const SEQ_HEADER = 'tessera-seq';
/** The query parameter asking for the changes after a seq. */
export const SINCE_PARAM = 'since';
/** Where a worker announces, when it starts, the last committed seq (a page that missed events catches up). */
export const HEAD_CHANNEL = 'tessera-stream-head';

export type StreamKind = 'identifiers' | 'assets' | 'transferables';

/** The stream paths under the base and what each one carries. */
export const STREAM_PATHS: Readonly<Record<string, StreamKind>> = {
  '/assets/stream/identifiers': 'identifiers',
  '/assets/stream': 'assets',
  '/assets/stream/transferables': 'transferables',
};

export const QGPT_STREAM_PATH = '/qgpt/stream';
/**
 * The request header naming the `/qgpt/stream` socket a POST comes from: a `{reset: true}` ends the
 * requests of that socket only. POSTs without it (a plain HTTP client) share one unnamed socket.
 */
export const SOCKET_HEADER = 'tessera-socket';
export const HEALTH_STREAM_PATH = '/.well-known/stream/health';

export type StreamFrame = StreamedIdentifiers | Assets;

/** One committed change as a catch-up reply carries it: `value` is the asset as it is now (asset streams). */
export interface StreamChange {
  seq: number;
  asset: string;
  kind: 'created' | 'updated' | 'deleted';
  /** Asset streams, created/updated: the asset as read with the reply; absent when it no longer exists. */
  value?: Asset;
}

/** The reply to `?since=`: the changes after it up to `seq`, or a fresh snapshot at `seq`. */
export type StreamCatchUp = { seq: number; changes: StreamChange[] } | { seq: number; snapshot: StreamFrame };

/** What the worker announces on {@link HEAD_CHANNEL} when it starts. */
export interface HeadMessage {
  type: 'head';
  seq: number;
}
