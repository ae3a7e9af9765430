/**
 * The message names the page and Tessera's service worker share, in one place (the page-side client in
 * app/client imports them; nothing here runs): the BroadcastChannel of change events, the RPC handshake
 * over a MessagePort, and the claim a page asks for when it is not controlled.
 */

/** The BroadcastChannel the worker publishes committed change events on (streams/protocol.ts ChangeEvent). */
export const CHANGE_CHANNEL = 'tessera-changes';

/** Page -> worker (`controller.postMessage`, with a MessagePort): serve the RPC on this port. */
export const RPC_CONNECT = 'tessera:rpc';
/** Worker -> page, on the port: listening; names the Web Lock the worker holds while it lives. */
export const RPC_READY = 'tessera:rpc-ready';
/** Page -> worker: calls are under way, stay alive. */
export const RPC_KEEPALIVE = 'tessera:keepalive';
/** Worker -> page, on the port: a call arrived (sent before any work starts). */
export const RPC_ACK = 'tessera:rpc-ack';

/** Page -> worker: claim me (a hard reload leaves the page uncontrolled); answered with CLAIMED. */
export const CLAIM = 'tessera:claim';
export const CLAIMED = 'tessera:claimed';
