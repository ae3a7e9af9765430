/** A request the service must refuse, with the status and error code it must answer. */
export interface RefusedRequest {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  code?: string;
}

export const MISSING_ASSET = '00000000-0000-4000-8000-000000000000';

/**
 * Every operation named with an asset, tag, website or summary id that does not exist: a 404 each.
 * `asset` is a stored asset and `tagId` a stored tag's id, so that only the missing id is at fault.
 * Shared by the route tests (Node) and the end-to-end tests (Chromium).
 */
export function unknownIdRequests(asset: { id: string }, tagId: string): RefusedRequest[] {
  const missing = MISSING_ASSET;
  const assetPaths: [string, string, unknown?][] = [
    ['GET', `/asset/${missing}`],
    ['GET', `/assets/${missing}`],
    ['GET', '/asset/not-a-uuid'],
    ['POST', `/asset/${missing}`],
    ['GET', `/asset/${missing}/formats`],
    ['GET', `/assets/${missing}/formats`],
    ['GET', `/asset/${missing}/activities`],
    ['GET', `/asset/${missing}/conversations`],
    ['GET', `/asset/${missing}/export?export_type=MD`],
    ['POST', `/assets/${missing}/delete`],
    ['POST', `/asset/${missing}/scores/increment`, { asset: { reuse: true } }],
    ['POST', `/asset/${missing}/tags/associate/${tagId}`],
    ['POST', `/asset/${missing}/tags/disassociate/${tagId}`],
    ['POST', '/asset/update', { id: missing, name: 'x' }],
  ];
  const link = (kind: string, action: string, code: string): RefusedRequest => ({
    method: 'POST',
    path: `/asset/${asset.id}/${kind}/${action}/nope`,
    status: 404,
    code,
  });
  return [
    ...assetPaths.map(([method, path, body]) => ({ method, path, body, status: 404, code: 'asset_not_found' })),
    { method: 'POST', path: '/asset/reclassify', body: { ext: 'ts', asset: { ...asset, id: missing } }, status: 404, code: 'asset_not_found' },
    ...['associate', 'disassociate'].flatMap((action) => [
      link('tags', action, 'tag_not_found'),
      link('websites', action, 'website_not_found'),
      link('workstream_summaries', action, 'workstream_summary_not_found'),
    ]),
    { method: 'POST', path: '/tags/create', body: { text: 'new', asset: missing }, status: 404 },
  ];
}
