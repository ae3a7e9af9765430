import type { ServiceContext } from '../deps.ts';
import { badRequest } from '../errors.ts';
import type { LibraryPreviews } from './schemas.ts';

/** The most ids one previews call may name (a list shows a screenful at a time). */
export const MAX_PREVIEW_IDS = 100;
/** A preview is at most this many lines and characters of the original format's text. */
const PREVIEW_LINES = 4;
const PREVIEW_CHARS = 320;


/**
 * `GET /library/previews?ids=`: the first lines of each named asset, for the rows a list shows (unknown
 * ids and non-text formats are left out). Reads the
 * original format's content only, and cuts it before it leaves the worker.
 */
export async function libraryPreviews(ctx: ServiceContext, ids: readonly string[]): Promise<LibraryPreviews> {
  if (ids.length > MAX_PREVIEW_IDS) throw badRequest(`At most ${MAX_PREVIEW_IDS} ids per call; got ${ids.length}.`, 'invalid_parameter');
  const unique = [...new Set(ids)];
  const previews: Record<string, string> = {};
  await ctx.store.read(async (tx) => {
    const assets = await Promise.all(unique.map((id) => tx.get('assets', id)));
    const found = assets.filter((a) => a !== undefined);
    const contents = await tx.getMany('contents', found.map((a) => a.original));
    const byFormat = new Map(contents.map((c) => [c.id, c]));
    for (const asset of found) {
      const content = byFormat.get(asset.original);
      const text = (content?.fragment ?? content?.file)?.string?.raw;
      if (text !== undefined && text !== null) previews[asset.id] = firstLines(text);
    }
  }, ['assets', 'contents']);
  return { previews };
}

function firstLines(text: string): string {
  const lines = text.replace(/^\s*\n/, '').split('\n', PREVIEW_LINES).join('\n');
  return lines.length > PREVIEW_CHARS ? `${lines.slice(0, PREVIEW_CHARS - 1)}…` : lines;
}
