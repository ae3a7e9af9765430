/**
 * Every implemented asset operation, driven in Chromium through the official SDK
 * (`@pieces.app/pieces-os-client`) against the service worker. Every raw response the SDK received
 * is checked against the contract after each test (contract-check.ts).
 *
 * Each test gets a fresh browser context, so a fresh, empty IndexedDB.
 *
 * Not through the SDK: nothing. Every path used here has an SDK operation (tags, websites and
 * workstream summaries are created with `TagsApi.tagsCreateNewTag`, `WebsitesApi.websitesCreateNewWebsite`
 * and `WorkstreamSummariesApi.workstreamSummariesCreateNewWorkstreamSummary`, listed with their
 * `*Snapshot` ops). The tag-side `TagApi` ops (`/tag/{tag}/...`) are paths the service does not serve.
 */
import type { Page } from '@playwright/test';
import type { Seed } from '@pieces.app/pieces-os-client';
import { checkExchanges, useSdkPage, type RecordedExchange } from './contract-check.ts';
import { expect, test } from './fixtures.ts';
import { GO_SNIPPET, PNG_BYTES, PYTHON_SNIPPET, fileSeed, fragmentSeed } from '../support/seeds.ts';

let page: Page;
useSdkPage(test, (p) => (page = p));

/** Creates an asset through the SDK and returns what the SDK parsed. */
function create(seed: unknown, transferables?: boolean) {
  return page.evaluate(
    ({ seed, transferables }) =>
      window.apis.assets.assetsCreateNewAsset({ seed: seed as Seed, ...(transferables === undefined ? {} : { transferables }) }),
    { seed: seed as object, transferables },
  );
}

/** The exchanges recorded so far (drained and contract-checked). */
const exchanges = () => checkExchanges(page);
const lastOf = (xs: RecordedExchange[], method: string, path: RegExp) => xs.filter((x) => x.method === method && path.test(x.path)).at(-1)!;

test('creates assets from a fragment string, fragment bytes, a named file and image bytes', async () => {
  const fromString = await create(fragmentSeed(PYTHON_SNIPPET));
  const format = fromString.formats.iterable[0]!;
  expect(format.classification).toMatchObject({ generic: 'CODE', specific: 'py' });
  expect(format.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
  expect(format.bytes).toMatchObject({ value: new TextEncoder().encode(PYTHON_SNIPPET).length });
  expect(format.asset.id).toBe(fromString.id);
  expect(fromString.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(fromString.original.id).toBe(format.id);
  expect(fromString.original.reference?.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
  expect(fromString.preview.base.id).toBe(format.id);
  expect(fromString.name).toMatch(/parse_args/);
  expect(fromString.created.value).toBeInstanceOf(Date);
  expect(Number.isNaN(fromString.created.value.getTime())).toBe(false);

  const bytes = [...new TextEncoder().encode(PYTHON_SNIPPET)];
  const fromBytes = await create({ asset: { ...fragmentSeed('').asset, format: { fragment: { bytes: { raw: bytes } } } } });
  expect(fromBytes.formats.iterable[0]!.classification).toMatchObject({ generic: 'CODE', specific: 'py' });
  expect(fromBytes.formats.iterable[0]!.fragment?.bytes?.raw).toEqual(bytes);

  const fromFile = await create(fileSeed({ string: { raw: GO_SNIPPET }, metadata: { name: 'main.go' } }));
  const fileFormat = fromFile.formats.iterable[0]!;
  expect(fileFormat.classification).toMatchObject({ generic: 'CODE', specific: 'go' });
  expect(fileFormat.file?.string?.raw).toBe(GO_SNIPPET);
  expect(fileFormat.fragment).toBeUndefined();

  const image = await create(fileSeed({ bytes: { raw: PNG_BYTES } }));
  const imageFormat = image.formats.iterable[0]!;
  expect(imageFormat.classification).toMatchObject({ generic: 'IMAGE', specific: 'png' });
  expect(imageFormat.file?.bytes?.raw).toEqual(PNG_BYTES);
  expect(imageFormat.bytes.value).toBe(PNG_BYTES.length);

  // transferables=false on create leaves the content out of the answer, not out of the store
  const light = await create(fragmentSeed(GO_SNIPPET), false);
  expect(light.formats.iterable[0]!.classification.specific).toBe('go');
  expect(light.formats.iterable[0]!.fragment?.string).toBeUndefined();
  const stored = await page.evaluate((asset) => window.apis.asset.assetSnapshot({ asset }), light.id);
  expect(stored.formats.iterable[0]!.fragment?.string?.raw).toBe(GO_SNIPPET);

  const sent = (await exchanges()).filter((x) => x.path === '/assets/create');
  expect(sent.map((x) => x.status)).toEqual([200, 200, 200, 200, 200]);
  expect(sent.at(-1)!.query).toBe('?transferables=false');
});

test('creates tags, websites, persons and annotations from metadata, linked on both sides', async () => {
  const asset = await create(
    fragmentSeed(PYTHON_SNIPPET, {
      name: 'Parse args',
      tags: [{ text: 'cli' }, { text: 'argparse' }],
      websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse docs' }],
      persons: [{ type: { basic: { name: 'Ada', email: 'ada@example.com' } } }],
      annotations: [{ type: 'DESCRIPTION', text: 'Parses CLI flags.' }],
    }),
  );
  expect(asset.name).toBe('Parse args');
  expect(asset.tags?.iterable.map((t) => t.text)).toEqual(['cli', 'argparse']);
  expect(asset.websites?.iterable.map((w) => [w.name, w.url])).toEqual([['argparse docs', 'https://docs.python.org/3/library/argparse.html']]);
  expect(asset.persons?.iterable[0]?.type.basic).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
  expect(asset.annotations?.iterable.map((a) => [a.type, a.text])).toEqual([['DESCRIPTION', 'Parses CLI flags.']]);

  const { tags, websites } = await page.evaluate(async () => ({
    tags: await window.apis.tags.tagsSnapshot(),
    websites: await window.apis.websites.websitesSnapshot(),
  }));
  expect(tags.iterable.map((t) => t.text).sort()).toEqual(['argparse', 'cli']);
  for (const tag of tags.iterable) expect(tag.assets?.iterable?.map((a) => a.id)).toEqual([asset.id]);
  expect(tags.iterable.map((t) => t.id).sort()).toEqual(asset.tags!.iterable.map((t) => t.id).sort());
  expect(websites.iterable).toHaveLength(1);
  expect(websites.iterable[0]!.assets?.iterable?.map((a) => a.id)).toEqual([asset.id]);

  // a second asset with the same tag text reuses the tag
  const second = await create(fragmentSeed(GO_SNIPPET, { tags: [{ text: 'CLI' }] }));
  expect(second.tags?.iterable[0]?.id).toBe(asset.tags!.iterable.find((t) => t.text === 'cli')!.id);
  const cli = (await page.evaluate(() => window.apis.tags.tagsSnapshot())).iterable.find((t) => t.text === 'cli')!;
  expect(cli.assets?.iterable?.map((a) => a.id).sort()).toEqual([asset.id, second.id].sort());
});

test('a draft fills in classification and name and stores nothing; an image seed comes back unchanged', async () => {
  const draft = await page.evaluate((seed) => window.apis.assets.assetsDraft({ seed: seed as Seed }), fragmentSeed(GO_SNIPPET) as object);
  expect(draft.asset?.format.classification).toMatchObject({ generic: 'CODE', specific: 'go' });
  expect(draft.asset?.format.fragment?.string?.raw).toBe(GO_SNIPPET);
  expect(draft.asset?.metadata?.name).toBeTruthy();

  const imageSeed = fileSeed({ bytes: { raw: PNG_BYTES } });
  const image = await page.evaluate((seed) => window.apis.assets.assetsDraft({ seed: seed as Seed }), imageSeed as object);
  expect(image.asset?.format.file?.bytes?.raw).toEqual(PNG_BYTES);
  const sent = lastOf(await exchanges(), 'POST', /^\/assets\/draft$/);
  expect(JSON.parse(sent.body)).toEqual(JSON.parse(sent.requestBody!)); // what the SDK sent, byte for byte as JSON
  expect(JSON.parse(sent.body)).toEqual(imageSeed);

  const after = await page.evaluate(async () => ({
    assets: await window.apis.assets.assetsSnapshot(),
    ids: await window.apis.assets.assetsIdentifiersSnapshot({ pseudo: true }),
    tags: await window.apis.tags.tagsSnapshot(),
  }));
  expect(after.assets.iterable).toEqual([]);
  expect(after.ids.iterable ?? []).toEqual([]);
  expect(after.tags.iterable).toEqual([]);
});

test('lists assets newest first, with and without transferables and pseudo assets; identifier and pseudo snapshots', async () => {
  const first = await create(fragmentSeed(PYTHON_SNIPPET));
  const second = await create(fragmentSeed(GO_SNIPPET));
  const pseudoSeed = fragmentSeed('echo hidden') as { asset: Record<string, unknown> };
  pseudoSeed.asset.pseudo = true;
  const pseudo = await create(pseudoSeed);
  expect(pseudo.pseudo).toBe(true);

  const r = await page.evaluate(async () => {
    const { assets } = window.apis;
    return {
      all: await assets.assetsSnapshot(),
      heavy: await assets.assetsSnapshot({ transferables: true }),
      light: await assets.assetsSnapshot({ transferables: false }),
      withPseudo: await assets.assetsSnapshot({ pseudo: true }),
      ids: await assets.assetsIdentifiersSnapshot(),
      idsNoPseudo: await assets.assetsIdentifiersSnapshot({ pseudo: false }),
      idsWithPseudo: await assets.assetsIdentifiersSnapshot({ pseudo: true }),
      pseudo: await assets.assetsPseudoSnapshot(),
    };
  });
  expect(r.all.iterable.map((a) => a.id)).toEqual([second.id, first.id]);
  expect(r.all.indices).toEqual({ [second.id]: 0, [first.id]: 1 });
  expect(r.all.iterable[0]!.formats.iterable[0]!.fragment?.string?.raw).toBe(GO_SNIPPET);
  expect(r.heavy).toEqual(r.all);
  expect(r.light.iterable.map((a) => a.id)).toEqual([second.id, first.id]);
  for (const asset of r.light.iterable) {
    expect(asset.formats.iterable[0]!.fragment?.string).toBeUndefined();
    expect(asset.original.reference?.fragment?.string).toBeUndefined();
    expect(asset.formats.iterable[0]!.classification.generic).toBe('CODE');
  }
  expect(r.withPseudo.iterable.map((a) => a.id)).toEqual([pseudo.id, second.id, first.id]);
  expect(r.ids.iterable?.map((a) => a.id)).toEqual([second.id, first.id]);
  expect(r.idsNoPseudo).toEqual(r.ids);
  expect(r.idsWithPseudo.iterable?.map((a) => a.id)).toEqual([pseudo.id, second.id, first.id]);
  expect(r.pseudo.identifiers?.iterable?.map((a) => a.id)).toEqual([pseudo.id]);

  const queries = (await exchanges()).filter((x) => x.method === 'GET').map((x) => `${x.path}${x.query}`);
  expect(queries).toEqual([
    '/assets',
    '/assets?transferables=true',
    '/assets?transferables=false',
    '/assets?pseudo=true',
    '/assets/identifiers',
    '/assets/identifiers?pseudo=false',
    '/assets/identifiers?pseudo=true',
    '/assets/pseudo',
  ]);
});

test('serves one asset on /assets/{id} and /asset/{id} (GET and POST) and its formats on both paths', async () => {
  const asset = await create(fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'one' }] }));
  const r = await page.evaluate(async (id) => {
    const { assets, asset } = window.apis;
    return {
      plural: await assets.assetsSpecificAssetSnapshot({ asset: id }),
      singular: await asset.assetSnapshot({ asset: id }),
      posted: await asset.assetSnapshotPost({ asset: id, seededAccessor: { os: 'linux', share: 'none', user: { id: 'local-user' } } }),
      postedLight: await asset.assetSnapshotPost({ asset: id, transferables: false }),
      singularLight: await asset.assetSnapshot({ asset: id, transferables: false }),
      pluralLight: await assets.assetsSpecificAssetSnapshot({ asset: id, transferables: false }),
      formatsPlural: await assets.assetsSpecificAssetFormatsSnapshot({ asset: id }),
      formatsSingular: await asset.assetFormats({ asset: id }),
      formatsLight: await asset.assetFormats({ asset: id, transferables: false }),
      formatsPluralLight: await assets.assetsSpecificAssetFormatsSnapshot({ asset: id, transferables: false }),
    };
  }, asset.id);
  expect(r.plural).toEqual(asset);
  expect(r.singular).toEqual(asset);
  expect(r.posted).toEqual(asset);
  for (const light of [r.postedLight, r.singularLight, r.pluralLight]) {
    expect(light.id).toBe(asset.id);
    expect(light.name).toBe(asset.name);
    expect(light.tags?.iterable.map((t) => t.text)).toEqual(['one']);
    expect(light.formats.iterable[0]!.fragment?.string).toBeUndefined();
    expect(light.original.reference?.fragment?.string).toBeUndefined();
  }
  expect(r.formatsPlural).toEqual(r.formatsSingular);
  expect(r.formatsPlural.iterable).toEqual(asset.formats.iterable);
  expect(r.formatsPlural.iterable[0]!.fragment?.string?.raw).toBe(PYTHON_SNIPPET);
  expect(r.formatsLight).toEqual(r.formatsPluralLight);
  expect(r.formatsLight.iterable[0]!.id).toBe(asset.formats.iterable[0]!.id);
  expect(r.formatsLight.iterable[0]!.fragment?.string).toBeUndefined();

  const posted = (await exchanges()).filter((x) => x.method === 'POST' && x.path === `/asset/${asset.id}`);
  expect(posted.map((x) => x.requestBody && JSON.parse(x.requestBody))).toEqual([
    { os: 'linux', share: 'none', user: { id: 'local-user' } },
    undefined,
  ]);
});

test('updates name, content and annotations from the asset the SDK returned, reclassifies, scores and deletes', async () => {
  const created = await create(
    fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'doomed' }], annotations: [{ type: 'COMMENT', text: 'old' }] }),
  );

  // the round trip: the SDK's own object (FromJSON) edited and sent back (ToJSON) to our parser
  const updated = await page.evaluate(async (id) => {
    const asset = await window.apis.asset.assetSnapshot({ asset: id });
    asset.name = 'Renamed';
    asset.formats.iterable[0]!.fragment = { string: { raw: 'print("hi")' } };
    asset.annotations!.iterable[0]!.text = 'new';
    return window.apis.asset.assetUpdate({ asset });
  }, created.id);
  expect(updated.id).toBe(created.id);
  expect(updated.name).toBe('Renamed');
  expect(updated.formats.iterable[0]!.fragment?.string?.raw).toBe('print("hi")');
  expect(updated.formats.iterable[0]!.bytes.value).toBe(11);
  expect(updated.formats.iterable[0]!.classification.specific).toBe('py');
  expect(updated.annotations?.iterable.map((a) => [a.id, a.type, a.text])).toEqual([[created.annotations!.iterable[0]!.id, 'COMMENT', 'new']]);
  expect(updated.tags?.iterable.map((t) => t.text)).toEqual(['doomed']);
  expect(updated.created.value).toEqual(created.created.value);
  expect(updated.updated.value.getTime()).toBeGreaterThanOrEqual(created.updated.value.getTime());
  const sentUpdate = lastOf(await exchanges(), 'POST', /^\/asset\/update$/);
  expect(JSON.parse(sentUpdate.requestBody!)).toMatchObject({ id: created.id, name: 'Renamed' });

  const again = await page.evaluate((asset) => window.apis.asset.assetSnapshot({ asset }), created.id);
  expect(again).toEqual(updated);

  const reclassified = await page.evaluate(
    (asset) => window.apis.asset.assetReclassify({ assetReclassification: { ext: 'ts', asset } }),
    again,
  );
  expect(reclassified.formats.iterable[0]!.classification).toMatchObject({ generic: 'CODE', specific: 'ts' });
  expect(reclassified.formats.iterable[0]!.fragment?.string?.raw).toBe('print("hi")');

  const score = await page.evaluate(async (asset) => {
    const api = window.apis.asset;
    await api.assetScoresIncrement({ asset, seededScoreIncrement: { asset: { reuse: true, searched: true } } });
    await api.assetScoresIncrement({ asset, seededScoreIncrement: { asset: { reuse: true } } });
    return (await api.assetSnapshot({ asset })).score;
  }, created.id);
  expect(score).toMatchObject({ manual: 0, automatic: 0, reuse: 2, searched: 1 });
  expect((await page.evaluate((asset) => window.apis.asset.assetSnapshot({ asset }), created.id)).formats.iterable[0]!.classification.specific).toBe('ts');

  const deleted = await page.evaluate(async (asset) => {
    const { assets, asset: single, tags } = window.apis;
    const answer = await assets.assetsDeleteAsset({ asset });
    const status = await single.assetSnapshot({ asset }).then(
      () => 200,
      (error: { response?: Response }) => error.response?.status,
    );
    return { answer, status, ids: await assets.assetsIdentifiersSnapshot(), tags: await tags.tagsSnapshot() };
  }, created.id);
  expect(deleted.answer).toBe(created.id);
  expect(deleted.status).toBe(404);
  expect(deleted.ids.iterable ?? []).toEqual([]);
  expect(deleted.tags.iterable.map((t) => [t.text, t.assets?.iterable ?? []])).toEqual([['doomed', []]]);

  const xs = await exchanges();
  const del = lastOf(xs, 'POST', /\/delete$/);
  expect(del).toMatchObject({ status: 200, body: created.id });
  expect(lastOf(xs, 'GET', new RegExp(`^/asset/${created.id}$`))).toMatchObject({ status: 404 });
  expect(xs.filter((x) => x.path.endsWith('/scores/increment')).map((x) => [x.status, x.body])).toEqual([[204, ''], [204, '']]);
});

test('associates and disassociates a tag, a website and a workstream summary, both sides in step', async () => {
  const asset = await create(fragmentSeed(PYTHON_SNIPPET));
  const r = await page.evaluate(async (id) => {
    const { asset, tags, websites, summaries } = window.apis;
    const tag = await tags.tagsCreateNewTag({ seededTag: { text: 'linked' } });
    const website = await websites.websitesCreateNewWebsite({ seededWebsite: { url: 'https://example.com/', name: 'Example' } });
    const summary = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
      seededWorkstreamSummary: {
        name: 'Monday',
        model: {
          id: 'extractive',
          version: '1',
          created: { value: new Date('2026-01-01T00:00:00.000Z') },
          name: 'extractive',
          cloud: false,
          type: 'SPEED',
          usage: 'CODE_SEARCH',
        },
      },
    });
    const sides = async () => ({
      asset: await asset.assetSnapshot({ asset: id }),
      tag: (await tags.tagsSnapshot()).iterable.find((t) => t.id === tag.id),
      website: (await websites.websitesSnapshot()).iterable.find((w) => w.id === website.id),
      summary: (await summaries.workstreamSummariesSnapshot()).iterable.find((s) => s.id === summary.id),
    });
    const before = await sides();
    await asset.assetAssociateTag({ asset: id, tag: tag.id });
    await asset.assetAssociateWebsite({ asset: id, website: website.id });
    await asset.assetAssociateWorkstreamSummary({ asset: id, workstreamSummary: summary.id });
    const linked = await sides();
    await asset.assetDisassociateTag({ asset: id, tag: tag.id });
    await asset.assetDisassociateWebsite({ asset: id, website: website.id });
    await asset.assetDisassociateWorkstreamSummary({ asset: id, workstreamSummary: summary.id });
    const unlinked = await sides();
    const activities = (await asset.assetSpecificAssetActivities({ asset: id })).iterable.map((a) =>
      Object.entries(a.event.asset?.identifierDescriptionPair ?? {})
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k)
        .join(),
    );
    return { tag, website, summary, before, linked, unlinked, activities };
  }, asset.id);

  expect(r.tag).toMatchObject({ text: 'linked' });
  expect(r.website).toMatchObject({ url: 'https://example.com/', name: 'Example' });
  expect(r.summary).toMatchObject({ name: 'Monday' });
  expect(r.summary.model.id).toBe('extractive');
  for (const side of [r.before, r.unlinked]) {
    expect(side.asset.tags?.iterable ?? []).toEqual([]);
    expect(side.asset.websites?.iterable ?? []).toEqual([]);
    expect(side.asset.summaries?.iterable ?? []).toEqual([]);
    expect(side.tag!.assets?.iterable ?? []).toEqual([]);
    expect(side.website!.assets?.iterable ?? []).toEqual([]);
    expect(side.summary!.assets?.iterable ?? []).toEqual([]);
  }
  const linked = r.linked;
  expect(linked.asset.tags?.iterable.map((t) => [t.id, t.text])).toEqual([[r.tag.id, 'linked']]);
  expect(linked.asset.tags?.indices).toEqual({ [r.tag.id]: 0 });
  expect(linked.asset.websites?.iterable.map((w) => [w.id, w.url])).toEqual([[r.website.id, 'https://example.com/']]);
  expect(linked.asset.summaries?.iterable.map((s) => [s.id, s.name])).toEqual([[r.summary.id, 'Monday']]);
  expect(linked.tag!.assets?.iterable).toEqual([{ id: asset.id }]);
  expect(linked.website!.assets?.iterable).toEqual([{ id: asset.id }]);
  expect(linked.summary!.assets?.iterable).toEqual([{ id: asset.id }]);

  // one activity per change of a link (a summary link has no event of its own: asset_updated)
  expect(r.activities).toEqual([
    'assetCreated',
    'assetTagAdded',
    'assetLinkAdded',
    'assetUpdated',
    'assetTagDeleted',
    'assetLinkDeleted',
    'assetUpdated',
  ]);

  const changes = (await exchanges()).filter((x) => /associate/.test(x.path));
  expect(changes.map((x) => `${x.status} ${x.path.replace(asset.id, 'A').replace(/[^/]+$/, 'X')}`)).toEqual([
    '204 /asset/A/tags/associate/X',
    '204 /asset/A/websites/associate/X',
    '204 /asset/A/workstream_summaries/associate/X',
    '204 /asset/A/tags/disassociate/X',
    '204 /asset/A/websites/disassociate/X',
    '204 /asset/A/workstream_summaries/disassociate/X',
  ]);
  expect(changes.every((x) => x.body === '')).toBe(true);
});

test('records one activity per change and export; has no conversations; exports Markdown and HTML', async () => {
  const asset = await create(
    fragmentSeed(PYTHON_SNIPPET, {
      name: 'Args <parser>',
      tags: [{ text: 'cli' }],
      websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse docs' }],
      annotations: [{ type: 'DESCRIPTION', text: 'Parses "flags" & options.' }],
    }),
  );
  const r = await page.evaluate(async (id) => {
    const { asset, tags } = window.apis;
    const tag = await tags.tagsCreateNewTag({ seededTag: { text: 'extra' } });
    const current = await asset.assetSnapshot({ asset: id });
    current.name = 'Args';
    await asset.assetUpdate({ asset: current });
    await asset.assetReclassify({ assetReclassification: { ext: 'py', asset: current } });
    await asset.assetAssociateTag({ asset: id, tag: tag.id });
    await asset.assetDisassociateTag({ asset: id, tag: tag.id });
    const md = await asset.assetSpecificAssetExport({ asset: id, exportType: 'MD' });
    const html = await asset.assetSpecificAssetExport({ asset: id, exportType: 'HTML' });
    const activities = await asset.assetSpecificAssetActivities({ asset: id });
    const conversations = await asset.assetSpecificAssetConversations({ asset: id });
    return {
      md,
      html,
      conversations,
      activities: activities.iterable.map((a) => ({
        id: a.id,
        asset: a.asset?.id,
        mechanism: a.mechanism,
        pair: Object.entries(a.event.asset?.identifierDescriptionPair ?? {})
          .filter(([, v]) => v !== undefined)
          .map(([k]) => k),
        created: a.created.value.toISOString(),
      })),
    };
  }, asset.id);

  expect(r.activities.map((a) => a.pair)).toEqual([
    ['assetCreated'],
    ['assetNameUpdated'],
    ['assetUpdated'],
    ['assetFormatSpecificClassificationUpdated'],
    ['assetTagAdded'],
    ['assetTagDeleted'],
    ['assetFormatDownloaded'],
    ['assetFormatDownloaded'],
  ]);
  expect(r.activities.every((a) => a.asset === asset.id)).toBe(true);
  expect(new Set(r.activities.map((a) => a.id)).size).toBe(r.activities.length);
  expect([...r.activities.map((a) => a.created)].sort()).toEqual(r.activities.map((a) => a.created));

  expect(r.conversations.iterable).toEqual([]);

  expect(r.md).toMatchObject({ name: 'Args', description: 'Parses "flags" & options.' });
  expect(r.md.created.value).toEqual(asset.created.value);
  const md = r.md.raw.string!.raw!;
  expect(md).toMatch(/^# Args\n/);
  expect(md).toContain('Parses "flags" & options.');
  expect(md).toContain('`cli`');
  expect(md).toContain('[argparse docs](<https://docs.python.org/3/library/argparse.html>)');
  expect(md).toContain('```python\n' + PYTHON_SNIPPET + '\n```');

  expect(r.html).toMatchObject({ name: 'Args', description: 'Parses "flags" & options.' });
  const html = r.html.raw.string!.raw!;
  expect(html).toMatch(/^<!DOCTYPE html>/);
  expect(html).toContain('<title>Args</title>');
  expect(html).toContain('<p class="description">Parses &quot;flags&quot; &amp; options.</p>');
  expect(html).toContain('<li>cli</li>');
  expect(html).toContain('<a href="https://docs.python.org/3/library/argparse.html">argparse docs</a>');
  expect(html).toContain('<code class="language-python">def parse_args(argv):');
  expect(html.trim()).toMatch(/<\/html>$/);

  const sent = (await exchanges()).filter((x) => x.path.endsWith('/export')).map((x) => x.query);
  expect(sent).toEqual(['?export_type=MD', '?export_type=HTML']);
});

test('/.well-known health and version through WellKnownApi', async () => {
  const r = await page.evaluate(async () => ({
    health: await window.apis.wellKnown.getWellKnownHealth(),
    version: await window.apis.wellKnown.getWellKnownVersion(),
  }));
  expect(r.health).toMatch(/^ok/);
  expect(r.version).toMatch(/^12\.\d+\.\d+$/);
  const xs = await exchanges();
  expect(xs.map((x) => [x.path, x.status, x.contentType?.split(';')[0]])).toEqual([
    ['/.well-known/health', 200, 'text/plain'],
    ['/.well-known/version', 200, 'text/plain'],
  ]);
});
