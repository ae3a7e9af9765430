/**
 * Two Node hosts on one PostgreSQL database (DATABASE_URL; .ci/run starts Debian's postgresql and sets
 * it, and fails when it cannot): what one instance writes, the other reads at once, and the other's
 * streams receive it within a second (NOTIFY, then the change log).
 */
import type { Seed } from '@pieces.app/pieces-os-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from '../../worker/node/pg/database.ts';
import { openSocket, sdk, startHostProcess, wsUrl, type HostProcess } from '../support/node-host.ts';
import { dropSchemas, testSchema } from '../support/pg.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';

const url = process.env.DATABASE_URL;

// CI always sets DATABASE_URL (.ci/run): there, a missing one fails this file, never a silent skip.
if (process.env.CI && !url) throw new Error('DATABASE_URL is not set: .ci/run must start PostgreSQL (scripts/postgres.sh) and export it');

describe.skipIf(!url)('two Node hosts on one PostgreSQL database', { timeout: 120_000 }, () => {
  const schema = testSchema('e2e');
  let a: HostProcess;
  let b: HostProcess;

  beforeAll(async () => {
    const args = ['--database-url', url!, '--schema', schema];
    // One first, so that the second finds the schema migrated (they would also take turns).
    a = await startHostProcess(args);
    b = await startHostProcess(args);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const db = await PostgresDatabase.open({ url: url! });
    await dropSchemas(db, [schema]);
    await db.close();
  });

  it('a create on A is read on B and reaches a stream on B within a second; an update on A is what B reads next', async () => {
    expect(a.output()).toMatch(/PostgreSQL postgres:\/\/[^ ]*:\*\*\*@/); // the password is not printed
    const onA = sdk(a.url);
    const onB = sdk(b.url);
    const stream = await openSocket(wsUrl(b.url, '/assets/stream/identifiers'));
    const assets = await openSocket(wsUrl(b.url, '/assets/stream'));
    expect(await stream.next()).toEqual({ iterable: [] });
    expect((await assets.next()).iterable).toEqual([]);

    const t0 = performance.now();
    const created = await onA.assets.assetsCreateNewAsset({ seed: fragmentSeed(PYTHON_SNIPPET) as unknown as Seed });
    const acknowledged = performance.now();
    expect(await stream.next(1000)).toEqual({ iterable: [{ asset: { id: created.id } }] });
    const streamed = performance.now();
    expect((await assets.next(1000)).iterable[0].id).toBe(created.id);
    console.log(`PostgreSQL, create on A to the identifiers frame on B: ${(streamed - t0).toFixed(1)} ms (${(streamed - acknowledged).toFixed(1)} ms after A answered)`);

    const read = await onB.asset.assetSnapshot({ asset: created.id });
    expect(read.formats.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
    expect((await onB.assets.searchAssets({ query: 'parse_args' })).iterable[0]!.identifier).toBe(created.id);

    // B has the asset in its cache now; A renames it; B's next read answers the new name at once.
    await onA.asset.assetUpdate({ asset: { ...read, name: 'renamed on A' } });
    expect((await onB.asset.assetSnapshot({ asset: created.id })).name).toBe('renamed on A');
    expect(await stream.next(1000)).toEqual({ iterable: [{ asset: { id: created.id } }] });

    // And the other way round, with a delete.
    const other = await onB.assets.assetsCreateNewAsset({ seed: fragmentSeed(GO_SNIPPET) as unknown as Seed });
    expect((await onA.assets.assetsSnapshot({ transferables: false })).iterable.map((x) => x.id).sort()).toEqual([created.id, other.id].sort());
    await onA.assets.assetsDeleteAsset({ asset: other.id });
    const frames = [await stream.next(1000), await stream.next(1000)];
    expect(frames).toEqual([{ iterable: [{ asset: { id: other.id } }] }, { iterable: [{ asset: { id: other.id }, deleted: true }] }]);
    expect((await fetch(`${b.url}/asset/${other.id}`)).status).toBe(404);
    stream.close();
    assets.close();
  });
});
