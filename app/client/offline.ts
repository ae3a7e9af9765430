/**
 * `keepOffline()`: what the worker keeps in Cache Storage so that the app works offline after its first
 * visit (the lazy scripts and the language model's files, and with Tessera's own worker the app shell) is
 * copied once the worker is active, not at install, where a first visit's page waited for it
 * (worker/browser/install.ts). A page that must work offline next asks for that copy, which also keeps the
 * worker alive until it is done; the app asks once it has mounted.
 */
import { KEEP_OFFLINE, KEPT_OFFLINE } from '../../worker/browser/protocol.ts';
import { whenControlled } from './defaults.ts';

/** Resolves once the worker kept its files offline, with those it could not keep (none: all load offline). */
export async function keepOffline(): Promise<string[]> {
  await whenControlled();
  const worker = navigator.serviceWorker.controller;
  if (!worker) throw new Error('tessera: no worker controls this page');
  const channel = new MessageChannel();
  const reply = new Promise<{ type?: unknown; missing?: unknown; error?: string }>((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
  });
  worker.postMessage({ type: KEEP_OFFLINE }, [channel.port2]);
  const { type, missing, error } = await reply;
  channel.port1.close();
  if (type !== KEPT_OFFLINE || error !== undefined || !Array.isArray(missing)) {
    throw new Error(`tessera: the worker could not keep its files offline (${error ?? 'unexpected reply'})`);
  }
  return missing as string[];
}
