import type { ReadTx } from './store.ts';

/**
 * `tx` with its index reads shared: asking twice for the same index range gives the first answer (the
 * records are shared: read-only). For reads that build many records in one read transaction, where the
 * same range comes up again: 50 search results whose tags are the same few, each showing its tag's newest
 * 100 assets. Only for read transactions, which see no write while they run.
 */
export function sharedIndexReads(tx: ReadTx): ReadTx {
  const answers = new Map<string, Promise<unknown[]>>();
  const getAllFromIndex: ReadTx['getAllFromIndex'] = (collection, index, query, limit) => {
    const key = JSON.stringify([collection, index, query, limit ?? null]);
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = tx.getAllFromIndex(collection, index, query, limit)));
    return answer as ReturnType<typeof tx.getAllFromIndex<typeof collection>>;
  };
  return {
    get: (collection, id) => tx.get(collection, id),
    getMany: (collection, ids) => tx.getMany(collection, ids),
    getAll: (collection) => tx.getAll(collection),
    getRange: (collection, after, limit) => tx.getRange(collection, after, limit),
    count: (collection) => tx.count(collection),
    getAllFromIndex,
    getKeysFromIndex: (collection, index, query, limit) => tx.getKeysFromIndex(collection, index, query, limit),
    countFromIndex: (collection, index, query) => tx.countFromIndex(collection, index, query),
  };
}
