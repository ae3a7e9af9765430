/**
 * What this context's own commits wrote of new assets, by the seq of their change: handed to the search
 * index and the vectors, which follow writes in the background and would otherwise read every asset back
 * while an import still holds write transactions on the same collections (at 10,000 assets the vectors
 * then lagged the import by about ten seconds).
 *
 * An entry is used only for the change it was written at: if the asset's latest change in the log has
 * another seq (another tab, another instance, a later write of this one), the reader reads the store as
 * before. So an entry can never be stale, only unused; the oldest go first past a bound.
 */
import type { DocumentParts } from '../search/documents.ts';

/** At most this many assets are kept, and this many characters of their text. */
const MAX_ASSETS = 20_000;
const MAX_CHARS = 32 * 1024 * 1024;

export class WrittenAssets {
  /** In seq order: the oldest first. */
  private entries = new Map<string, { seq: number; parts: DocumentParts; chars: number }>();
  private chars = 0;

  /** `parts` is what the write stored of the asset, committed as change `seq`. Kept read-only. */
  remember(seq: number, parts: DocumentParts): void {
    const chars = textChars(parts);
    this.drop(parts.asset.id);
    if (chars > MAX_CHARS / 8) return;
    this.entries.set(parts.asset.id, { seq, parts, chars });
    this.chars += chars;
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= MAX_ASSETS && this.chars <= MAX_CHARS) break;
      this.drop(id, entry);
    }
  }

  /** The parts of `asset` as change `seq` wrote them, if this context made that change and still holds it. */
  at(asset: string, seq: number | undefined): DocumentParts | undefined {
    const entry = this.entries.get(asset);
    return entry && entry.seq === seq ? entry.parts : undefined;
  }

  /** `ids` split into the parts held for each one's latest change (`latest`, by asset) and those to read. */
  split(ids: readonly string[], latest: ReadonlyMap<string, number>): { written: DocumentParts[]; unread: string[] } {
    const written: DocumentParts[] = [];
    const unread: string[] = [];
    for (const id of ids) {
      const parts = this.at(id, latest.get(id));
      if (parts) written.push(parts);
      else unread.push(id);
    }
    return { written, unread };
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(id: string, entry = this.entries.get(id)): void {
    if (!entry) return;
    this.entries.delete(id);
    this.chars -= entry.chars;
  }
}

function textChars(parts: DocumentParts): number {
  let chars = 0;
  for (const content of parts.contents) {
    const value = content.fragment ?? content.file;
    chars += value?.string?.raw?.length ?? value?.bytes?.raw?.length ?? 0;
  }
  return chars;
}
