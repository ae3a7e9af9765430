import type { CollectionName } from '../../worker/core/store/records.ts';
import type { Store } from '../../worker/core/store/store.ts';

/** What a watched store's read transactions asked for. */
export interface StoreReads {
  /** The collections read whole (`getAll`), in order. */
  whole: CollectionName[];
  /** The single records read (`get`, and each id of a `getMany`), as `collection/id`, in order. */
  one: string[];
}

/** `store`, noting in `reads` what its read transactions read whole and which single records they read. */
export function watchedStore(store: Store, reads: StoreReads): Store {
  const watchTx = <T extends object>(tx: T): T =>
    new Proxy(tx, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        const call = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (key === 'getAll') return (collection: CollectionName) => (reads.whole.push(collection), call(collection));
        if (key === 'get') return (collection: CollectionName, id: string) => (reads.one.push(`${collection}/${id}`), call(collection, id));
        if (key === 'getMany') {
          return (collection: CollectionName, ids: readonly string[]) => (reads.one.push(...ids.map((id) => `${collection}/${id}`)), call(collection, ids));
        }
        return call;
      },
    });
  return new Proxy(store, {
    get(target, key) {
      if (key === 'read') return (fn: (tx: object) => Promise<unknown>, scope?: readonly CollectionName[]) => target.read((tx) => fn(watchTx(tx)), scope);
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
