/**
 * Child records an index found (in id order) put back in the order they were recorded: by `created`, then
 * by their place in `listed` (the newest ids the parent record keeps), then by `rank`, then by id. Used
 * where a parent keeps only its newest children's ids (an asset's activities, a conversation's messages):
 * children older than that list and recorded in the same millisecond come out by `rank`, then by id.
 */
export function inRecordedOrder<R extends { id: string; created: string }>(records: R[], listed: readonly string[], rank: (r: R) => number = () => 0): R[] {
  const place = new Map(listed.map((id, i) => [id, i]));
  const at = (r: R) => place.get(r.id) ?? -1;
  return records.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : at(a) - at(b) || rank(a) - rank(b)));
}
