import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/test-api.ts';
import { GO_SNIPPET, PYTHON_SNIPPET, fragmentSeed } from '../support/seeds.ts';
import { watchedStore, type StoreReads } from '../support/watched-store.ts';

const JS_SNIPPET = `export async function fetchUserProfile(userId) {
  // Load the profile of one user from the account service.
  const response = await fetch(\`/api/users/\${userId}\`);
  return response.json();
}
`;
const SQL_SNIPPET = `SELECT customer_id, SUM(total) AS revenue
FROM invoices
GROUP BY customer_id
ORDER BY revenue DESC;
`;
const NOTE = 'Release checklist: bump the version, write the changelog, tag the commit and announce it.';

let api: TestApi;
let ids: Record<'py' | 'go' | 'js' | 'sql' | 'note', string>;

const create = async (seed: unknown) => (await api.create(seed)).id as string;

beforeEach(async () => {
  // A clock that moves a second per reading: "newest first" never meets two assets made in the same millisecond.
  let clock = Date.parse('2026-01-01T00:00:00Z');
  api = await createTestApi({ now: () => new Date((clock += 1000)) });
  ids = {
    py: await create(
      fragmentSeed(PYTHON_SNIPPET, {
        tags: [{ text: 'cli' }, { text: 'argparse' }],
        websites: [{ url: 'https://docs.python.org/3/library/argparse.html', name: 'argparse docs' }],
        annotations: [{ type: 'DESCRIPTION', text: 'Reads command line flags for the deploy tool.' }],
      }),
    ),
    go: await create(fragmentSeed(GO_SNIPPET, { tags: [{ text: 'cli' }], persons: [{ type: { basic: { name: 'Ada', email: 'ada@example.com' } } }] })),
    js: await create(fragmentSeed(JS_SNIPPET, { name: 'Load a user profile', websites: [{ url: 'https://github.com/acme/accounts', name: 'acme accounts' }] })),
    sql: await create(fragmentSeed(SQL_SNIPPET, undefined, { specific: 'sql' })),
    note: await create(fragmentSeed(NOTE, { name: 'Release checklist', tags: [{ text: 'process' }] }, { generic: 'TEXT', specific: 'txt' })),
  };
});

async function search(query: string) {
  const reply = await api.get(`/assets/search?${query}`);
  expect(reply.status).toBe(200);
  return reply.json() as { iterable: { identifier: string; match: string; exact: boolean; score: number; asset: any }[]; exact: number; suggested: number };
}

const found = (result: Awaited<ReturnType<typeof search>>) => result.iterable.map((r) => r.identifier);

describe('GET /assets/search', () => {
  it('finds by words of the content, name, annotations, tags and websites, and says which matched', async () => {
    const byContent = await search('query=revenue');
    expect(found(byContent)).toEqual([ids.sql]);
    expect(byContent.iterable[0]).toMatchObject({ match: 'CONTENT', exact: true, identifier: ids.sql });
    expect(byContent.iterable[0]!.asset.id).toBe(ids.sql);
    expect((await search('query=checklist')).iterable[0]).toMatchObject({ identifier: ids.note, match: 'MULTIPLE' });
    expect((await search('query=deploy')).iterable[0]).toMatchObject({ identifier: ids.py, match: 'ANNOTATION' });
    expect((await search('query=process')).iterable[0]).toMatchObject({ identifier: ids.note, match: 'TAGS' });
    expect((await search('query=acme')).iterable[0]).toMatchObject({ identifier: ids.js, match: 'WEBSITES' });
    expect((await search(`query=${encodeURIComponent('user profile')}`)).iterable[0]!.identifier).toBe(ids.js);
  });

  it('matches camelCase and snake_case identifiers by their parts and in either spelling', async () => {
    expect(found(await search('query=fetchUserProfile'))[0]).toBe(ids.js);
    expect(found(await search('query=fetch_user_profile'))[0]).toBe(ids.js);
    expect(found(await search('query=parseArgs'))[0]).toBe(ids.py);
    expect(found(await search('query=customer'))).toEqual([ids.sql]);
  });

  it('is fuzzy: typos and unfinished words find their asset, as suggestions rather than exact matches', async () => {
    const typo = await search('query=reveune');
    expect(typo.iterable[0]).toMatchObject({ identifier: ids.sql, match: 'FUZZY', exact: false });
    expect(typo).toMatchObject({ exact: 0, suggested: typo.iterable.length });
    expect(found(await search('query=argpa'))[0]).toBe(ids.py);
    expect(found(await search(`query=${encodeURIComponent('chnagelog relase')}`))[0]).toBe(ids.note);
    const mixed = await search(`query=${encodeURIComponent('revenue customr')}`);
    expect(mixed.iterable[0]).toMatchObject({ identifier: ids.sql, exact: false, match: 'CONTENT' });
  });

  it('searches tags with searchable_tags, and both together intersect', async () => {
    const cli = await search('searchable_tags=cli');
    expect(found(cli).sort()).toEqual([ids.py, ids.go].sort());
    expect(cli.iterable.every((r) => r.match === 'TAGS' && r.exact)).toBe(true);
    expect(found(await search('searchable_tags=argparse,cli'))[0]).toBe(ids.py);
    expect(found(await search('searchable_tags=nothing'))).toEqual([]);
    expect(found(await search('query=println&searchable_tags=cli'))).toEqual([ids.go]);
    expect(found(await search('query=revenue&searchable_tags=cli'))).toEqual([]);
  });

  it('answers the documented 500, with a JSON error body, without query and tags', async () => {
    for (const path of ['/assets/search', '/assets/search?query=', '/assets/search?searchable_tags=%20,']) {
      const reply = await api.get(path);
      expect(reply.status).toBe(500);
      expect(reply.json().error).toMatchObject({ status: 500, code: 'query_required' });
    }
  });

  it('leaves content out with transferables=false, and refuses a bad flag', async () => {
    const light = await search('query=revenue&transferables=false');
    expect(light.iterable[0]!.asset.formats.iterable[0].fragment?.string).toBeUndefined();
    const full = await search('query=revenue');
    expect(full.iterable[0]!.asset.formats.iterable[0].fragment.string.raw).toBe(SQL_SNIPPET);
    expect((await api.get('/assets/search?query=x&transferables=maybe')).status).toBe(400);
  });

  it('answers the hits alone with assets=false: the same results in the same order, no asset read', async () => {
    const withAssets = await search('query=cli');
    const hits = await search('query=cli&assets=false');
    expect(hits.iterable.length).toBeGreaterThan(1);
    expect(hits.iterable).toEqual(withAssets.iterable.map(({ asset: _asset, ...hit }) => hit));
    expect(hits.iterable.every((hit) => !('asset' in hit))).toBe(true);
    expect({ exact: hits.exact, suggested: hits.suggested }).toEqual({ exact: withAssets.exact, suggested: withAssets.suggested });
    const reply = await api.get('/assets/search?query=cli&assets=false');
    expect(reply.headers.get('server-timing')).toMatch(/assets;dur=0\.\d+/);
    expect((await api.post(`/assets/${ids.go}/delete`)).status).toBe(200);
    expect(found(await search('query=cli&assets=false'))).not.toContain(ids.go);
    expect((await api.get('/assets/search?query=x&assets=maybe')).status).toBe(400);
  });

  it('finds pseudo assets only with pseudo=true', async () => {
    const seed = fragmentSeed('hidden pseudo snippet zanzibar');
    const pseudo = await create({ asset: { ...seed.asset, pseudo: true } });
    expect(found(await search('query=zanzibar'))).toEqual([]);
    const shown = await search('query=zanzibar&pseudo=true');
    expect(shown.iterable[0]).toMatchObject({ identifier: pseudo, pseudo: true });
  });

  it('reads an asset that a search or a read answered since the last change from the asset cache, not the store', async () => {
    const reads: StoreReads = { whole: [], one: [] };
    const watched = await createTestApi({ store: watchedStore(api.store, reads) });
    const search = async (query: string) => (await watched.get(`/assets/search?query=${query}&transferables=false`)).json().iterable.map((r: any) => r.asset.name);
    const assetReads = () => reads.one.filter((r) => r.startsWith('assets/')).length;
    expect(await search('argparse')).toHaveLength(1);
    expect(assetReads()).toBe(1);
    expect(await search('argparse')).toHaveLength(1);
    expect((await watched.get(`/asset/${ids.go}?transferables=false`)).status).toBe(200);
    expect(await search('cli')).toHaveLength(2);
    // The python asset from the searches, the go asset from the read: nothing read again.
    expect(assetReads()).toBe(2);
    // After a change everything is read again, and shows it.
    const asset = (await watched.get(`/asset/${ids.py}`)).json() as Record<string, unknown>;
    expect((await watched.post('/asset/update', { ...asset, name: 'renamed' })).status).toBe(200);
    expect(await search('nothingmatchesthis')).toEqual([]); // the index catches up (reading the renamed asset)
    const before = assetReads();
    expect(await search('argparse')).toEqual(['renamed']);
    expect(assetReads()).toBe(before + 1);
  });

  it('follows every write: create, update, rename, reclassify, links, delete', async () => {
    const asset = (await api.get(`/asset/${ids.sql}`)).json();
    asset.formats.iterable[0].fragment.string.raw = 'SELECT margin FROM quarterly_results;';
    expect((await api.post('/asset/update', asset)).status).toBe(200);
    expect(found(await search('query=revenue'))).toEqual([]);
    expect(found(await search('query=margin'))).toEqual([ids.sql]);

    expect((await api.post('/asset/update', { id: ids.go, name: 'Greeter in Go' })).status).toBe(200);
    expect((await search('query=greeter')).iterable[0]).toMatchObject({ identifier: ids.go, match: 'TITLE' });

    const tag = (await api.post('/tags/create', { text: 'finance' })).json();
    expect((await api.post(`/asset/${ids.sql}/tags/associate/${tag.id}`)).status).toBe(204);
    expect(found(await search('searchable_tags=finance'))).toEqual([ids.sql]);
    expect((await api.post(`/asset/${ids.sql}/tags/disassociate/${tag.id}`)).status).toBe(204);
    expect(found(await search('searchable_tags=finance'))).toEqual([]);

    const reclassified = await api.post('/asset/reclassify', { ext: 'go', asset: (await api.get(`/asset/${ids.sql}`)).json() });
    expect(reclassified.status).toBe(200);
    const go = (await api.post('/assets/search', { filters: { iterable: [{ classification: 'go' }] } })).json();
    expect(go.results.iterable.map((r: any) => r.identifier).sort()).toEqual([ids.go, ids.sql].sort());

    expect((await api.post(`/assets/${ids.sql}/delete`)).status).toBe(200);
    expect(found(await search('query=margin'))).toEqual([]);
    const fresh = await create(fragmentSeed('def quarterly_margin(): return 0.42'));
    expect(found(await search('query=margin'))).toEqual([fresh]);
  });
});

describe('POST /assets/search', () => {
  async function post(body: unknown, query = '') {
    const reply = await api.post(`/assets/search${query}`, body);
    expect(reply.status).toBe(200);
    const results = reply.json().results;
    return results.iterable.map((r: any) => r.identifier) as string[];
  }

  it('runs the query within the search space and the filters', async () => {
    expect(await post({ query: 'cli' })).toContain(ids.py);
    expect(await post({ query: 'println', space: { identifers: { iterable: [{ id: ids.py }] } } })).toEqual([]);
    expect(await post({ query: 'println', space: { identifers: { iterable: [{ id: ids.go }] } } })).toEqual([ids.go]);
    expect(await post({ query: 'print', filters: { iterable: [{ classification: 'py' }] } })).toEqual([]);
  });

  it('lists what passes the filters, newest first, when there is no query', async () => {
    expect(await post({ filters: { iterable: [{ tags: ['cli'] }] } })).toEqual([ids.go, ids.py]);
    expect(await post({})).toEqual([ids.note, ids.sql, ids.js, ids.go, ids.py]);
    expect(await post({ filters: { iterable: [{ persons: ['ada@example.com'] }] } })).toEqual([ids.go]);
    expect(await post({ filters: { iterable: [{ websites: ['github.com/acme'] }] } })).toEqual([ids.js]);
    const either = { operations: { type: 'OR', iterable: [{ classification: 'sql' }, { tags: ['process'] }] } };
    expect(await post({ filters: { iterable: [either] } })).toEqual([ids.note, ids.sql]);
    const reply = (await api.post('/assets/search', { filters: { iterable: [{ tags: ['cli'] }] } })).json();
    expect(reply.results).toMatchObject({ exact: 2, suggested: 0 });
    expect(reply.results.iterable[0]).toMatchObject({ match: 'TAGS', exact: true });
  });

  it('matches phrases in the title, content or annotations, case-sensitive with casing', async () => {
    expect(await post({ filters: { iterable: [{ phrase: { value: 'group by customer_id' } }] } })).toEqual([ids.sql]);
    expect(await post({ filters: { iterable: [{ phrase: { value: 'group by customer_id' } }] }, casing: true })).toEqual([]);
    expect(await post({ filters: { iterable: [{ phrase: { value: 'GROUP BY', content: true } }] }, casing: true })).toEqual([ids.sql]);
    expect(await post({ filters: { iterable: [{ phrase: { value: 'deploy tool', annotation: true } }] } })).toEqual([ids.py]);
    expect(await post({ filters: { iterable: [{ phrase: { value: 'deploy tool', content: true } }] } })).toEqual([]);
    expect(await post({ filters: { iterable: [{ phrase: { value: 'deploy', options: { annotation: 'COMMENT' } } }] } })).toEqual([]);
    expect(await post({ filters: { iterable: [{ phrase: { value: 'user profile', title: true } }] } })).toEqual([ids.js]);
  });

  it('filters by created and updated time', async () => {
    const created = (await api.get(`/asset/${ids.sql}`)).json().created.value;
    const after = await post({ filters: { iterable: [{ created: { from: { value: created } } }] } });
    expect(after).toContain(ids.sql);
    expect(after).not.toContain(ids.py);
    expect(await post({ filters: { iterable: [{ created: { to: { value: '2000-01-01T00:00:00.000Z' } } }] } })).toEqual([]);
    const all = { from: { value: '2000-01-01T00:00:00.000Z' }, to: { value: '2999-01-01T00:00:00.000Z' } };
    expect((await post({ filters: { iterable: [{ updated: { ...all, between: true } }] } })).length).toBe(5);
    expect(await post({ filters: { iterable: [{ updated: { ...all, between: false } }] } })).toEqual([]);
  });

  it('refuses bad filters with 400 or 422, never 500, and changes nothing', async () => {
    const bad: [unknown, number][] = [
      ['{"filters":', 400],
      [{ filters: { iterable: [{ classification: 'not-a-language' }] } }, 422],
      [{ filters: { iterable: [{ phrase: { value: '' } }] } }, 422],
      [{ filters: { iterable: [{ created: { from: { value: 'yesterday' } } }] } }, 422],
      [{ filters: { iterable: [{ created: { from: { value: '2026-02-01T00:00:00Z' }, to: { value: '2026-01-01T00:00:00Z' } } }] } }, 422],
      [{ filters: { iterable: [{ operations: { type: 'OR' } }] } }, 422],
      [{ filters: {} }, 422],
      [{ space: { identifers: { iterable: [{}] } } }, 422],
      [{ query: 42 }, 422],
    ];
    for (const [body, status] of bad) {
      const reply = await api.post('/assets/search', body);
      expect(reply.status, JSON.stringify(body)).toBe(status);
    }
    expect((await api.post('/assets/search?pseudo=sometimes', {})).status).toBe(400);
  });
});

describe('related, recommended and suggested assets', () => {
  it('relates assets by shared tags, websites and words; never answers the inputs', async () => {
    const cliTool = await create(
      fragmentSeed('import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--dry-run")\n', { tags: [{ text: 'cli' }] }),
    );
    const reply = await api.post('/assets/related', { iterable: [{ id: ids.py }] });
    expect(reply.status).toBe(200);
    const related = reply.json().iterable.map((a: any) => a.id);
    expect(related[0]).toBe(cliTool);
    expect(related).toContain(ids.go);
    expect(related).not.toContain(ids.py);
    expect(related).not.toContain(ids.note);
  });

  it('accepts full assets as sent by a client, even ones the library does not hold', async () => {
    const full = (await api.get(`/asset/${ids.sql}`)).json();
    const reply = await api.post('/assets/related', { iterable: [full] });
    expect(reply.status).toBe(200);
    const stranger = { id: '00000000-0000-4000-8000-000000000000', name: 'customers by revenue', formats: { iterable: [] } };
    const related = (await api.post('/assets/related', { iterable: [stranger] })).json().iterable.map((a: any) => a.id);
    expect(related[0]).toBe(ids.sql);
  });

  it('recommends like what was interacted with, the stronger interaction weighing more', async () => {
    const body = (first: 'touched' | 'scrolled') => ({
      assets: { iterable: [{ id: ids.sql }, { id: ids.py }] },
      interactions: {
        iterable: [
          { asset: ids.sql, interactions: { viewed: 'true', [first]: true } },
          { asset: ids.py, interactions: { viewed: 'true' } },
        ],
      },
    });
    const revenueReport = await create(fragmentSeed('SELECT region, SUM(total) AS revenue FROM invoices GROUP BY region;', undefined, { specific: 'sql' }));
    const cliTool = await create(fragmentSeed('import argparse\nparser = argparse.ArgumentParser()\n', { tags: [{ text: 'cli' }, { text: 'argparse' }] }));
    const reply = await api.post('/assets/recommended', body('touched'));
    expect(reply.status).toBe(200);
    const recommended = reply.json().iterable.map((a: any) => a.id);
    expect(recommended.slice(0, 2)).toEqual([revenueReport, cliTool]);
    expect(recommended).not.toContain(ids.sql);
    expect(recommended).not.toContain(ids.py);
    const weighted = (await api.post('/assets/recommended', { ...body('scrolled'), interactions: { iterable: [body('scrolled').interactions.iterable[0], { asset: ids.py, interactions: { viewed: 'x', touched: true, scrolled: true } }] } })).json();
    expect(weighted.iterable[0].id).toBe(cliTool);
  });

  it('takes recent activity as the input when GET has no body, and lists suggestions with suggested=true', async () => {
    for (const path of ['/assets/recommended', '/assets/related']) {
      const reply = await api.get(path);
      expect(reply.status).toBe(200);
      expect(reply.json().iterable.length).toBeGreaterThan(0);
    }
    const suggested = await api.get('/assets?suggested=true&transferables=false');
    expect(suggested.status).toBe(200);
    const list = suggested.json();
    expect(list.iterable.length).toBeGreaterThan(0);
    expect(list.iterable[0].formats.iterable[0].fragment?.string).toBeUndefined();
    expect(new Set(list.iterable.map((a: any) => a.id)).size).toBe(list.iterable.length);
  });

  it('refuses a malformed or mistyped body', async () => {
    expect((await api.post('/assets/related', '{')).status).toBe(400);
    expect((await api.post('/assets/related', { iterable: [{ name: 'no id' }] })).status).toBe(422);
    expect((await api.post('/assets/recommended', { assets: { iterable: [] } })).status).toBe(422);
  });
});


describe('paging the listings (review M12)', () => {
  const BULK = 130;
  beforeEach(async () => {
    const seeds = Array.from({ length: BULK }, (_, i) => fragmentSeed(`value_${i} = ${i}\n`, { name: `bulk ${i}`, tags: [{ text: 'bulk' }] }));
    expect((await api.post('/assets/import', { iterable: seeds })).status).toBe(200);
  });

  async function page(method: 'GET' | 'POST', query: string) {
    const reply =
      method === 'GET'
        ? await api.get(`/assets/search?searchable_tags=bulk&transferables=false${query}`)
        : await api.post(`/assets/search?transferables=false${query}`, { filters: { iterable: [{ tags: ['bulk'] }] } });
    expect(reply.status, reply.text).toBe(200);
    const results = method === 'GET' ? reply.json() : reply.json().results;
    return { ids: results.iterable.map((r: { identifier: string }) => r.identifier) as string[], total: Number(reply.headers.get('tessera-total')), results };
  }

  for (const method of ['GET', 'POST'] as const) {
    it(`${method}: a tag or filter listing answers 100 by default, the total in tessera-total; limit and offset walk the rest`, async () => {
      const all = await page(method, '&limit=1000');
      expect(all.ids).toHaveLength(BULK);
      expect(new Set(all.ids).size).toBe(BULK);
      expect(all.total).toBe(BULK);

      const first = await page(method, '');
      expect(first.ids).toEqual(all.ids.slice(0, 100));
      expect(first.total).toBe(BULK);
      expect(first.results).toMatchObject({ exact: 100, suggested: 0 });
      expect((await page(method, '&offset=100')).ids).toEqual(all.ids.slice(100));
      expect((await page(method, '&limit=7&offset=20')).ids).toEqual(all.ids.slice(20, 27));
      expect((await page(method, '&offset=500')).ids).toEqual([]);
      // Pages of 40 put together are the whole listing, in order.
      const walked: string[] = [];
      for (let offset = 0; offset < BULK; offset += 40) walked.push(...(await page(method, `&limit=40&offset=${offset}`)).ids);
      expect(walked).toEqual(all.ids);
    });
  }

  it('a ranked query is paged the same way within its best 50', async () => {
    const all = await search('query=value&limit=1000&transferables=false');
    expect(all.iterable).toHaveLength(50);
    expect(found(await search('query=value&limit=10&offset=10&transferables=false'))).toEqual(found(all).slice(10, 20));
  });

  it('refuses a bad limit or offset with a 400', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=ten', 'offset=-1', 'offset=1.5', 'offset=99999999']) {
      const get = await api.get(`/assets/search?searchable_tags=bulk&${query}`);
      expect([get.status, get.json().error.code], query).toEqual([400, 'invalid_parameter']);
      const post = await api.post(`/assets/search?${query}`, {});
      expect(post.status, query).toBe(400);
    }
  });
});
