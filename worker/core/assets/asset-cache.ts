import type { Feed } from '../feed/feed.ts';
import type { Asset } from '../model/schemas.ts';

/**
 * Wire Assets built by recent single-asset reads, so that reading the same asset again costs no
 * IndexedDB round trips. Derived data only: it starts empty after every worker start, and it is
 * emptied whenever any change is published (by this worker's commits or another context's), which
 * every write that changes what an Asset shows does. Emptying it whole, rather than per asset, also
 * covers what one asset shows of another (a tag's list of assets). Entries are shared: read-only.
 */
export class AssetCache {
  private entries = new Map<string, Asset>();
  /** Bumped by every clear, so a read that raced a write never stores what it read before it. */
  private generation = 0;

  constructor(
    feed: Feed,
    private readonly limit = 1000,
  ) {
    feed.subscribe(() => this.clear());
  }

  async get(key: string, load: () => Promise<Asset>): Promise<Asset> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const generation = this.generation;
    const asset = await load();
    if (generation === this.generation) {
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(key, asset);
    }
    return asset;
  }

  clear(): void {
    this.entries.clear();
    this.generation++;
  }
}
