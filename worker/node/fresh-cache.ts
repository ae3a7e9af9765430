import { AssetCache } from '../core/assets/asset-cache.ts';
import { readSeq } from '../core/feed/commit.ts';
import type { Feed } from '../core/feed/feed.ts';
import type { Asset } from '../core/model/schemas.ts';
import type { Store } from '../core/store/store.ts';

/**
 * The asset cache of an instance that shares its database with others (PostgreSQL): before each use it
 * reads the last committed seq (one primary-key read) and empties itself when the seq moved, so a read on
 * this instance right after a write on another never answers what the cache held before it, even before
 * the write's notification arrives. Its feed empties it too, as the core's cache.
 */
export class SharedAssetCache extends AssetCache {
  private seen = -1;

  constructor(
    feed: Feed,
    private readonly store: Store,
    limit?: number,
  ) {
    super(feed, limit);
  }

  override async get<T extends object = Asset>(key: string, load: () => Promise<T>, sizeOf?: (value: T) => number): Promise<T> {
    await this.fresh();
    return super.get(key, load, sizeOf);
  }

  override async getMany<T extends object = Asset>(
    keys: readonly string[],
    load: (missing: string[]) => Promise<(T | undefined)[]>,
    sizeOf?: (value: T) => number,
  ): Promise<(T | undefined)[]> {
    await this.fresh();
    return super.getMany(keys, load, sizeOf);
  }

  /** Empties the cache when the database's last seq moved since the last use. */
  private async fresh(): Promise<void> {
    const head = await this.store.read(readSeq, ['meta']);
    if (head !== this.seen) {
      this.clear();
      this.seen = head;
    }
  }
}
