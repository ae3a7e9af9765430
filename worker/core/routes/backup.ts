import { Hono } from 'hono/quick';
import type { ServiceContext } from '../deps.ts';
import { createServices } from '../services.ts';
import { bodyChunks, queryFlag } from './http.ts';
import { json, keyed } from './idempotent.ts';

/**
 * `/backup`: Tessera's own API (not part of the desktop API) to take the whole library out and back in
 * (format: backup/format.ts).
 *
 * - GET `/backup` -> the backup file, NDJSON, streamed as it is read from the store, as an attachment
 *   named `tessera-backup-YYYY-MM-DD.ndjson`. A failure midway ends the stream without its trailer, so
 *   the file is refused on restore rather than restored in part.
 * - POST `/backup/restore` with the file as the body (streamed; up to `maxRestoreBytes`, default 512 MiB,
 *   else 413) -> RestoreSummary `{applied, backup: {version, created}, stores: {<store>: {added, replaced,
 *   kept, removed, skipped}}, relinked}`. `?dry_run=true` answers the same without storing anything (for a
 *   summary before applying). A file of an unknown format or a newer version, or a damaged one (truncated,
 *   bad checksum, a line that is not JSON or not a record), is a 400 and nothing changes.
 */
export function backupRoutes(ctx: ServiceContext) {
  const app = new Hono();
  const services = createServices(ctx);
  app.get('/', () => {
    const { filename, stream } = services.backup();
    return new Response(stream, {
      headers: {
        'content-type': 'application/x-ndjson',
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'no-store',
      },
    });
  });
  app.post(
    '/restore',
    keyed(ctx, json, async (c, services) => {
      const dryRun = queryFlag(c, 'dry_run', false);
      return services.restoreBackup(bodyChunks(c.req.raw, ctx.maxRestoreBytes), { dryRun });
    }),
  );
  return app;
}
