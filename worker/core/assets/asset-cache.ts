import type { Feed } from '../feed/feed.ts';
import type { Asset } from '../model/schemas.ts';

/** What the cache holds at most, in (estimated) bytes: a few large assets, or many small ones. */
export const ASSET_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Wire Assets built by recent single-asset reads and searches (`getMany`), so that reading the same asset
 * again costs no IndexedDB round trips; and the serialised body of a listing (`listAssetsBody`), the same until the
 * next change. Derived data only: it starts empty after every worker start, and it is
 * emptied whenever any change is published (by this worker's commits or another context's), which
 * every write that changes what an Asset shows does. Emptying it whole, rather than per asset, also
 * covers what one asset shows of another (a tag's list of assets). Entries are shared: read-only.
 *
 * Bounded by bytes, not by count: an asset's content may be 16 MiB. Each entry's size is estimated
 * (`estimateBytes`); the least recently used go first, and an asset larger than the bound is not kept.
 */
export class AssetCache {
  /** In use order: the least recently used first. */
  private entries = new Map<string, { value: object; bytes: number }>();
  private bytes = 0;
  /** Bumped by every clear, so a read that raced a write never stores what it read before it. */
  private generation = 0;

  constructor(
    feed: Feed,
    private readonly limitBytes = ASSET_CACHE_BYTES,
  ) {
    feed.subscribe(() => this.clear());
  }

  /** The estimated bytes the cache holds. */
  get size(): number {
    return this.bytes;
  }

  /**
   * What `load` answers for `key`, kept until the next change. `sizeOf` estimates what a value holds
   * (default `estimateBytes`); a key names one kind of value, so the cast back is safe.
   */
  get<T extends object = Asset>(key: string, load: () => Promise<T>, sizeOf: (value: T) => number = estimateBytes): Promise<T> {
    return this.kept(key, load, sizeOf);
  }

  /**
   * What `load` answers as of the change-log seq `seq`, which the caller's transaction is at: kept as `get`
   * keeps values, but without a check that the cache is fresh (a shared cache's `get` makes one, in a
   * transaction of its own, which would wait behind the caller's), since what a seq shows never changes.
   */
  getAtSeq<T extends object>(key: string, seq: number, load: () => Promise<T>, sizeOf: (value: T) => number): Promise<T> {
    return this.kept(`${key} at ${seq}`, load, sizeOf);
  }

  /**
   * `get` for several keys: the values kept, and the others from one call of `load` with the keys not kept,
   * which answers a value or undefined (nothing to keep) for each, in order.
   */
  async getMany<T extends object = Asset>(
    keys: readonly string[],
    load: (missing: string[]) => Promise<(T | undefined)[]>,
    sizeOf: (value: T) => number = estimateBytes,
  ): Promise<(T | undefined)[]> {
    const found = keys.map((key) => this.hit(key) as T | undefined);
    const missing = keys.filter((_, i) => found[i] === undefined);
    if (missing.length === 0) return found;
    const generation = this.generation;
    const loaded = await load(missing);
    const byKey = new Map(missing.map((key, i) => [key, loaded[i]]));
    if (generation === this.generation) for (const [key, value] of byKey) if (value) this.keep(key, value, sizeOf(value));
    return keys.map((key, i) => found[i] ?? byKey.get(key));
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.generation++;
  }

  protected async kept<T extends object>(key: string, load: () => Promise<T>, sizeOf: (value: T) => number): Promise<T> {
    const hit = this.hit(key);
    if (hit) return hit as T;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.keep(key, value, sizeOf(value));
    return value;
  }

  /** The value kept for `key`, now the most recently used; undefined when none is. */
  private hit(key: string): object | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  private keep(key: string, value: object, bytes: number): void {
    if (bytes > this.limitBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    for (const [oldest, entry] of this.entries) {
      if (this.bytes + bytes <= this.limitBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
  }
}

/**
 * About how many bytes a wire object holds: 2 per string character, 8 per number, a little per key and
 * object; an object reached twice (an Asset shares its content between formats and preview) counts once.
 * A number array (bytes as `raw`) counts 8 per element without visiting them.
 */
export function estimateBytes(value: unknown): number {
  const seen = new Set<object>();
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') bytes += 16 + 2 * item.length;
    else if (typeof item === 'number' || typeof item === 'boolean') bytes += 8;
    else if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) continue;
      seen.add(item);
      if (ArrayBuffer.isView(item)) bytes += item.byteLength;
      else if (Array.isArray(item)) {
        bytes += 16;
        if (item.length > 0 && typeof item[0] === 'number') bytes += 8 * item.length;
        else for (const element of item) stack.push(element);
      } else {
        bytes += 32;
        for (const [key, element] of Object.entries(item)) {
          bytes += 16 + 2 * key.length;
          stack.push(element);
        }
      }
    }
  }
  return bytes;
}
