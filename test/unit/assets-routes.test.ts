import { beforeEach, describe, expect, it } from 'vitest';
import { ASSET_ACTIVITIES_KEPT } from '../../worker/core/assets/activity.ts';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { APPLICATION, GO_SNIPPET, PNG_BYTES, PYTHON_SNIPPET, fileSeed, fragmentSeed } from '../support/seeds.ts';

let api: TestApi;
beforeEach(async () => {
  api = await createTestApi();
});

const create = (seed: unknown, query = '') => api.create(seed, query);

describe('POST /assets/create', () => {
  it('stores a code fragment, detects its language and suggests a name', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    const format = asset.formats.iterable[0];
    expect(format.classification).toMatchObject({ generic: 'CODE', specific: 'py' });
    expect(format.fragment.string.raw).toBe(PYTHON_SNIPPET);
    expect(format.asset.id).toBe(asset.id);
    expect(asset.original).toMatchObject({ id: format.id, reference: { asset: asset.id } });
    expect(asset.original.reference.fragment.string.raw).toBe(PYTHON_SNIPPET);
    expect(asset.preview.base.id).toBe(format.id);
    expect(asset.name).toMatch(/parse_args/);
    expect(format.bytes.value).toBe(new TextEncoder().encode(PYTHON_SNIPPET).length);
    expect(api.events).toEqual([{ seq: 1, asset: asset.id, kind: 'created' }]);
  });

  it('keeps a classification and name the seed gives', async () => {
    const seed = fragmentSeed('SELECT 1;', { name: 'one' }, { generic: 'CODE', specific: 'sql' });
    const asset = await create(seed);
    expect(asset.name).toBe('one');
    expect(asset.formats.iterable[0].classification).toMatchObject({ generic: 'CODE', specific: 'sql' });
  });

  it('classifies a file by its name and keeps it a file', async () => {
    const asset = await create(fileSeed({ string: { raw: GO_SNIPPET }, metadata: { name: 'main.go' } }));
    const format = asset.formats.iterable[0];
    expect(format.classification).toMatchObject({ generic: 'CODE', specific: 'go' });
    expect(format.file.string.raw).toBe(GO_SNIPPET);
    expect(format.fragment).toBeUndefined();
  });

  it('reads UTF-8 bytes as text and detects the language', async () => {
    const bytes = [...new TextEncoder().encode(PYTHON_SNIPPET)];
    const asset = await create({ asset: { application: APPLICATION, format: { fragment: { bytes: { raw: bytes } } } } });
    expect(asset.formats.iterable[0].classification.specific).toBe('py');
    expect(asset.formats.iterable[0].fragment.bytes.raw).toEqual(bytes);
  });

  it('keeps an image an image, and leaves its bytes out when transferables=false', async () => {
    const asset = await create(fileSeed({ bytes: { raw: PNG_BYTES } }));
    const format = asset.formats.iterable[0];
    expect(format.classification).toMatchObject({ generic: 'IMAGE', specific: 'png' });
    expect(format.file.bytes.raw).toEqual(PNG_BYTES);
    const light = (await api.get(`/asset/${asset.id}?transferables=false`)).json();
    expect(light.formats.iterable[0].file?.bytes).toBeUndefined();
    expect(light.original.reference.file?.bytes).toBeUndefined();
  });

  it('creates tags, websites, persons and annotations from metadata, linked on both sides', async () => {
    const asset = await create(
      fragmentSeed(PYTHON_SNIPPET, {
        tags: [{ text: 'cli' }, { text: 'argparse' }],
        websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse docs' }],
        persons: [{ type: { basic: { name: 'Ada', email: 'ada@example.com' } } }],
        annotations: [{ type: 'DESCRIPTION', text: 'Parses CLI flags.' }],
      }),
    );
    expect(asset.tags.iterable.map((t: any) => t.text)).toEqual(['cli', 'argparse']);
    expect(Object.keys(asset.tags.indices)).toEqual(asset.tags.iterable.map((t: any) => t.id));
    expect(asset.websites.iterable[0]).toMatchObject({ name: 'argparse docs' });
    expect(asset.persons.iterable[0].type.basic.name).toBe('Ada');
    expect(asset.annotations.iterable[0]).toMatchObject({ type: 'DESCRIPTION', text: 'Parses CLI flags.' });
    const tags = (await api.get('/tags')).json();
    expect(tags.iterable.map((t: any) => t.assets.iterable.map((a: any) => a.id))).toEqual([[asset.id], [asset.id]]);
    const websites = (await api.get('/websites')).json();
    expect(websites.iterable[0].assets.indices).toEqual({ [asset.id]: 0 });
  });

  it('reuses an existing tag with the same text', async () => {
    const a = await create(fragmentSeed('a = 1', { tags: [{ text: 'Demo' }] }));
    const b = await create(fragmentSeed('b = 2', { tags: [{ text: 'demo' }] }));
    expect(a.tags.iterable[0].id).toBe(b.tags.iterable[0].id);
    const tags = (await api.get('/tags')).json();
    expect(tags.iterable).toHaveLength(1);
    expect(tags.iterable[0].assets.iterable.map((x: any) => x.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe('POST /assets/draft', () => {
  it('fills in classification and name and stores nothing', async () => {
    const reply = await api.post('/assets/draft', fragmentSeed(GO_SNIPPET));
    const draft = reply.json();
    expect(draft.asset.format.classification).toMatchObject({ generic: 'CODE', specific: 'go' });
    expect(draft.asset.metadata.name).toBeTruthy();
    expect(draft.asset.format.fragment.string.raw).toBe(GO_SNIPPET);
    expect((await api.get('/assets')).json().iterable).toEqual([]);
    expect(api.events).toEqual([]);
  });

  it('returns an image seed unchanged', async () => {
    const seed = fileSeed({ bytes: { raw: PNG_BYTES } });
    expect((await api.post('/assets/draft', seed)).json()).toEqual(seed);
  });
});

describe('listing and snapshots', () => {
  it('lists newest first, leaves content out with transferables=false, and hides pseudo assets', async () => {
    const first = await create(fragmentSeed(PYTHON_SNIPPET));
    const second = await create(fragmentSeed(GO_SNIPPET));
    const pseudoSeed = fragmentSeed('echo hidden');
    (pseudoSeed.asset as any).pseudo = true;
    const pseudo = await create(pseudoSeed);

    const all = (await api.get('/assets')).json();
    expect(all.iterable.map((a: any) => a.id)).toEqual([second.id, first.id]);
    expect(all.iterable[0].formats.iterable[0].fragment.string.raw).toBe(GO_SNIPPET);

    const light = (await api.get('/assets?transferables=false')).json();
    for (const asset of light.iterable) {
      expect(asset.formats.iterable[0].fragment?.string).toBeUndefined();
      expect(asset.original.reference.fragment?.string).toBeUndefined();
    }
    const withPseudo = (await api.get('/assets?pseudo=true')).json();
    expect(withPseudo.iterable.map((a: any) => a.id)).toContain(pseudo.id);

    expect((await api.get('/assets/identifiers')).json().iterable.map((r: any) => r.id)).toEqual([second.id, first.id]);
    expect((await api.get('/assets/identifiers?pseudo=true')).json().iterable).toHaveLength(3);
    expect((await api.get('/assets/pseudo')).json().identifiers.iterable).toEqual([{ id: pseudo.id }]);
  });

  it('serves one asset on /assets/{id}, /asset/{id} (GET and POST) and its formats on both paths', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    const plural = (await api.get(`/assets/${asset.id}`)).json();
    const singular = (await api.get(`/asset/${asset.id}`)).json();
    const posted = (await api.post(`/asset/${asset.id}`, { os: 'linux', share: 'none' })).json();
    expect(plural).toEqual(asset);
    expect(singular).toEqual(asset);
    expect(posted).toEqual(asset);
    const formats = (await api.get(`/assets/${asset.id}/formats`)).json();
    expect(formats).toEqual((await api.get(`/asset/${asset.id}/formats`)).json());
    expect(formats.iterable[0].fragment.string.raw).toBe(PYTHON_SNIPPET);
    expect((await api.get(`/asset/${asset.id}/formats?transferables=false`)).json().iterable[0].fragment?.string).toBeUndefined();
  });

  it('answers a cached body whole each time it is asked for, with its length declared', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    await create(fragmentSeed('é'.repeat(5000)));
    for (const path of ['/assets', '/assets?transferables=false', `/asset/${asset.id}`, `/assets/${asset.id}`, '/library', '/library?first=1']) {
      const replies = [await api.get(path), await api.get(path)];
      for (const reply of replies) {
        expect(reply.status, path).toBe(200);
        expect(Number(reply.headers.get('content-length')), path).toBe(new TextEncoder().encode(reply.text).byteLength);
      }
      expect(replies[1]!.text, path).toBe(replies[0]!.text);
      expect(() => JSON.parse(replies[1]!.text), path).not.toThrow();
    }
  });
});

describe('changing an asset', () => {
  it('updates name, content and annotations in one go and records activities', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET, { annotations: [{ type: 'COMMENT', text: 'old' }] }));
    const format = asset.formats.iterable[0];
    const edited = {
      ...asset,
      name: 'Renamed',
      formats: { iterable: [{ ...format, fragment: { string: { raw: 'print("hi")' } } }] },
      annotations: { iterable: [{ ...asset.annotations.iterable[0], text: 'new' }] },
    };
    const updated = (await api.post('/asset/update', edited)).json();
    expect(updated.name).toBe('Renamed');
    expect(updated.formats.iterable[0].fragment.string.raw).toBe('print("hi")');
    expect(updated.formats.iterable[0].bytes.value).toBe(11);
    expect(updated.annotations.iterable.map((a: any) => a.text)).toEqual(['new']);
    expect(new Date(updated.updated.value) >= new Date(asset.updated.value)).toBe(true);
    const again = (await api.get(`/asset/${asset.id}`)).json();
    expect(again).toEqual(updated);
    expect(api.events.map((e) => e.kind)).toEqual(['created', 'updated']);
  });

  it('reclassifies the code formats to another language', async () => {
    const asset = await create(fragmentSeed('const x = 1;'));
    const out = (await api.post('/asset/reclassify', { ext: 'ts', asset })).json();
    expect(out.formats.iterable[0].classification).toMatchObject({ generic: 'CODE', specific: 'ts' });
    expect((await api.get(`/asset/${asset.id}`)).json().formats.iterable[0].classification.specific).toBe('ts');
  });

  it('deletes an asset, answers its id and unlinks it everywhere', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET, { tags: [{ text: 'gone' }] }));
    const reply = await api.post(`/assets/${asset.id}/delete`);
    expect(reply.text).toBe(asset.id);
    expect((await api.get(`/asset/${asset.id}`)).status).toBe(404);
    expect((await api.get('/tags')).json().iterable[0].assets.iterable).toEqual([]);
    expect(api.events.at(-1)).toMatchObject({ asset: asset.id, kind: 'deleted' });
    expect(await api.store.read((tx) => tx.getAll('formats'))).toEqual([]);
    expect(await api.store.read((tx) => tx.getAll('contents'))).toEqual([]);
    expect(await api.store.read((tx) => tx.getAll('activities'))).toEqual([]);
  });

  it('increments each score counter a SeededScore flags', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    expect((await api.post(`/asset/${asset.id}/scores/increment`, { asset: { reuse: true, searched: true } })).status).toBe(204);
    await api.post(`/asset/${asset.id}/scores/increment`, { asset: { reuse: true } });
    const score = (await api.get(`/asset/${asset.id}`)).json().score;
    expect(score).toMatchObject({ reuse: 2, searched: 1, manual: 0, automatic: 0 });
    expect(api.events.map((e) => e.kind)).toEqual(['created', 'updated', 'updated']);
  });
});

describe('associations', () => {
  const kinds = [
    { path: 'tags', list: '/tags', create: ['/tags/create', { text: 'linked' }], field: 'tags' },
    { path: 'websites', list: '/websites', create: ['/websites/create', { url: 'https://example.com/', name: 'Example' }], field: 'websites' },
    {
      path: 'workstream_summaries',
      list: '/workstream_summaries',
      create: [
        '/workstream_summaries/create',
        {
          name: 'Monday',
          model: {
            id: 'm', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false,
            type: 'SPEED', usage: 'CODE_SEARCH',
          },
        },
      ],
      field: 'summaries',
    },
  ] as const;

  for (const kind of kinds) {
    it(`associates and disassociates ${kind.path}, keeping both sides consistent`, async () => {
      const asset = await create(fragmentSeed(PYTHON_SNIPPET));
      const other = (await api.post(kind.create[0], kind.create[1])).json();
      expect((await api.post(`/asset/${asset.id}/${kind.path}/associate/${other.id}`)).status).toBe(204);
      const linked = (await api.get(`/asset/${asset.id}`)).json();
      expect(linked[kind.field].iterable.map((x: any) => x.id)).toEqual([other.id]);
      expect(linked[kind.field].indices).toEqual({ [other.id]: 0 });
      const listed = (await api.get(kind.list)).json().iterable.find((x: any) => x.id === other.id);
      expect(listed.assets.iterable).toEqual([{ id: asset.id }]);

      await api.post(`/asset/${asset.id}/${kind.path}/disassociate/${other.id}`);
      expect((await api.get(`/asset/${asset.id}`)).json()[kind.field].iterable).toEqual([]);
      expect((await api.get(kind.list)).json().iterable.find((x: any) => x.id === other.id).assets.iterable).toEqual([]);
      expect(api.events.map((e) => e.kind)).toEqual(['created', 'updated', 'updated']);
    });
  }

  it('links a tag to the asset a SeededTag names', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    const tag = (await api.post('/tags/create', { text: 'direct', asset: asset.id })).json();
    expect(tag.assets.iterable).toEqual([{ id: asset.id }]);
    expect((await api.get(`/asset/${asset.id}`)).json().tags.iterable[0].id).toBe(tag.id);
  });
});

describe('activities, conversations and export', () => {
  it('records an activity for create, update, reclassify, association change and export', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    const tag = (await api.post('/tags/create', { text: 't' })).json();
    await api.post('/asset/update', { id: asset.id, name: 'x' });
    await api.post('/asset/reclassify', { ext: 'py3', asset });
    await api.post(`/asset/${asset.id}/tags/associate/${tag.id}`);
    await api.get(`/asset/${asset.id}/export?export_type=MD`);
    const activities = (await api.get(`/asset/${asset.id}/activities`)).json().iterable;
    const pairs = activities.map((a: any) => Object.keys(a.event.asset.identifier_description_pair)[0]);
    expect(pairs).toEqual([
      'asset_created',
      'asset_name_updated',
      'asset_updated',
      'asset_format_specific_classification_updated',
      'asset_tag_added',
      'asset_format_downloaded',
    ]);
    expect(activities.every((a: any) => a.asset.id === asset.id)).toBe(true);
  });

  it(`keeps the asset record bounded: the flattened Asset lists its newest ${ASSET_ACTIVITIES_KEPT} activities, /activities every one, and a delete removes them all`, async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    const renames = ASSET_ACTIVITIES_KEPT + 5;
    for (let i = 0; i < renames; i++) expect((await api.post('/asset/update', { id: asset.id, name: `name ${i}` })).status).toBe(200);
    const all = (await api.get(`/asset/${asset.id}/activities`)).json().iterable;
    // Created, then each rename: asset_name_updated and asset_updated.
    expect(all.length).toBe(1 + 2 * renames);
    expect(Object.keys(all[0].event.asset.identifier_description_pair)).toEqual(['asset_created']);
    // The flattened Asset a format names carries the asset record's list.
    const format = (await api.get(`/asset/${asset.id}`)).json().formats.iterable[0];
    const listed = format.asset.activities.iterable.map((a: { id: string }) => a.id);
    expect(listed).toEqual(all.slice(-ASSET_ACTIVITIES_KEPT).map((a: { id: string }) => a.id));
    expect((await api.post(`/assets/${asset.id}/delete`)).status).toBe(200);
    expect(await api.store.read((tx) => tx.count('activities'))).toBe(0);
  });

  it('has no conversations yet', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    expect((await api.get(`/asset/${asset.id}/conversations`)).json().iterable).toEqual([]);
  });

  it('exports Markdown with a fenced block labelled with the language', async () => {
    const asset = await create(
      fragmentSeed(PYTHON_SNIPPET, { name: 'Args', tags: [{ text: 'cli' }], annotations: [{ type: 'DESCRIPTION', text: 'Parses flags.' }] }),
    );
    const exported = (await api.get(`/asset/${asset.id}/export?export_type=MD`)).json();
    expect(exported).toMatchObject({ name: 'Args', description: 'Parses flags.' });
    const md = exported.raw.string.raw;
    expect(md).toMatch(/^# Args\n/);
    expect(md).toContain('Parses flags.');
    expect(md).toContain('`cli`');
    expect(md).toContain('```python\n' + PYTHON_SNIPPET + '\n```');
  });

  it('exports a complete, escaped HTML document', async () => {
    const code = 'if (a < b && c > d) { return "<script>"; }';
    const asset = await create(fragmentSeed(code, { name: '<Compare>' }, { generic: 'CODE', specific: 'js' }));
    const html = (await api.get(`/asset/${asset.id}/export?export_type=HTML`)).json().raw.string.raw;
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<title>&lt;Compare&gt;</title>');
    expect(html).toContain('<code class="language-javascript">if (a &lt; b &amp;&amp; c &gt; d) { return &quot;&lt;script&gt;&quot;; }</code>');
    expect(html).not.toContain('<script>');
    expect(html.trim()).toMatch(/<\/html>$/);
  });

  describe('export of hostile metadata', () => {
    const hostile = {
      name: 'Evil`](javascript:alert(1)) <img src=x onerror=alert(1)> # *bold*',
      tags: [{ text: 'a`b' }, { text: '`' }, { text: '<script>alert(1)</script>' }],
      websites: [
        { url: 'javascript:alert(document.cookie)', name: 'click me' },
        { url: 'data:text/html,<script>alert(1)</script>', name: 'data' },
        { url: 'https://example.com/a b?q=<x>&y=)', name: 'good] (x' },
        { url: 'mailto:someone@example.com', name: 'mail' },
      ],
      annotations: [{ type: 'DESCRIPTION', text: '<script>alert(1)</script>\n# not a heading\n- not a list\n1. not a list\n[x](javascript:alert(1)) &lt;b&gt; & co' }],
    };
    const exportOf = async (type: 'MD' | 'HTML') => {
      const asset = await create(fragmentSeed(PYTHON_SNIPPET, hostile));
      return (await api.get(`/asset/${asset.id}/export?export_type=${type}`)).json().raw.string.raw as string;
    };

    it('HTML links only http, https and mailto URLs, escapes the rest as text, and forbids scripts by its CSP', async () => {
      const html = await exportOf('HTML');
      const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
      expect(hrefs).toEqual(['https://example.com/a%20b?q=%3Cx%3E&amp;y=)', 'mailto:someone@example.com']);
      expect(html).toContain('click me (javascript:alert(document.cookie))');
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:">`);
      expect(html).not.toMatch(/<script|<img|onerror=alert\(1\)>/);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('Markdown escapes the name, description, tags and links it inserts, and links only safe URLs', async () => {
      const md = await exportOf('MD');
      const [heading, about, tags, links] = md.split('\n\n');
      expect(heading).toBe('# Evil\\`\\](javascript:alert(1)) \\<img src=x onerror=alert(1)\\> \\# \\*bold\\*');
      // Every character of the description that Markdown would read as HTML, a heading, a list or a link is escaped.
      expect(about).toBe('\\<script\\>alert(1)\\</script\\>\n\\# not a heading\n\\- not a list\n1\\. not a list\n\\[x\\](javascript:alert(1)) \\&lt;b\\&gt; & co');
      // Code spans show their text verbatim (no HTML inside), fenced past the backticks they hold.
      expect(tags).toBe('Tags: ``a`b``, `` ` ``, `<script>alert(1)</script>`');
      expect(links!.split('\n')).toEqual([
        '- click me (javascript:alert(document.cookie))',
        '- data (data:text/html,\\<script\\>alert(1)\\</script\\>)',
        '- [good\\] (x](<https://example.com/a%20b?q=%3Cx%3E&y=)>)',
        '- [mail](<mailto:someone@example.com>)',
      ]);
    });
  });

  it('exports an svg image as image/svg+xml', async () => {
    const svg = [...new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')];
    const asset = await create({ asset: { ...fragmentSeed('').asset, format: { file: { bytes: { raw: svg } }, classification: { generic: 'IMAGE', specific: 'svg' } } } });
    const html = (await api.get(`/asset/${asset.id}/export?export_type=HTML`)).json().raw.string.raw;
    expect(html).toContain('<img src="data:image/svg+xml;base64,');
  });

  it('refuses an unknown or missing export type with 400', async () => {
    const asset = await create(fragmentSeed(PYTHON_SNIPPET));
    for (const query of ['?export_type=PDF', '?export_type=UNKNOWN', '']) {
      const reply = await api.get(`/asset/${asset.id}/export${query}`);
      expect(reply.status).toBe(400);
      expect(reply.json().error.code).toBe('invalid_export_type');
    }
  });
});

describe('/.well-known', () => {
  it('answers health on GET and HEAD, and the API version', async () => {
    const health = await api.get('/.well-known/health');
    expect(health.text).toMatch(/^ok/);
    const head = await api.call('HEAD', '/.well-known/health');
    expect(head.status).toBe(200);
    expect((await api.get('/.well-known/version')).text).toMatch(/^12\.\d+\.\d+$/);
  });
});
