/**
 * Generators of hostile requests for every route of worker/core/app.ts (test/unit/hostile-input.test.ts):
 * broken JSON, wrong types, missing and extra fields, strings near and over the body limit, deep nesting,
 * invalid UUIDs and enum strings, odd Unicode (lone surrogates, RTL marks, NUL), path tricks in ids
 * (`..`, encoded slashes, broken escapes, very long ids), wrong methods and content types.
 *
 * Each route names a valid request (a body the service would take) built from the library the test
 * seeded; the generators break it in one or a few places, so most of what they send is near-valid, the
 * inputs that reach furthest into a handler. Some happen to be valid: the test then checks the answer
 * against the contract instead.
 */
import fc from 'fast-check';
import { APPLICATION, fragmentSeed } from './seeds.ts';

/** What the seeded library holds, for routes that name a stored thing (the test refreshes it after writes). */
export interface Library {
  assets: string[];
  asset: any;
  tag: string;
  website: string;
  summary: string;
  conversation: string;
  relevant: string;
  backup: string;
}

export type Slot = 'asset' | 'tag' | 'website' | 'summary' | 'conversation' | 'folder' | 'kind' | 'action';

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path below the base, with `{slot}`s for ids. */
  path: string;
  /** Query parameters the route reads, with a valid value each. */
  query?: Record<string, string>;
  /** A valid body (JSON unless a string); absent for routes that take none. */
  body?: (lib: Library) => unknown;
}

const MODEL = { id: 'extractive', version: '1', created: { value: '2026-01-01T00:00:00.000Z' }, name: 'extractive', cloud: false, type: 'SPEED', usage: 'CODE_SEARCH' };
const relevantFragment = (raw: string) => ({ seed: { type: 'SEEDED_ASSET', asset: fragmentSeed(raw).asset } });
const FLAGS = { transferables: 'true', pseudo: 'false' };

/** Every route of worker/core/app.ts (wellKnown, search, streams, assets, asset, labels, conversations, backup, embeddings, embeddings/settings, folders, library, qgpt, qgpt/settings). */
export const ROUTES: Route[] = [
  { method: 'GET', path: '/.well-known/health' },
  { method: 'GET', path: '/.well-known/version' },
  // search
  { method: 'GET', path: '/assets/search', query: { query: 'parse args', searchable_tags: 'kept', ...FLAGS } },
  { method: 'POST', path: '/assets/search', query: FLAGS, body: () => ({ query: 'parse', filters: { iterable: [{ classification: 'py', tags: { iterable: [{ text: 'kept' }] } }], type: 'AND' } }) },
  { method: 'POST', path: '/assets/related', body: (l) => ({ iterable: [{ id: l.assets[0] }, { id: '00000000-0000-4000-8000-000000000000', name: 'x', formats: { iterable: [] } }] }) },
  { method: 'GET', path: '/assets/related' },
  { method: 'POST', path: '/assets/recommended', body: (l) => ({ assets: { iterable: [{ id: l.assets[0] }] }, interactions: { iterable: [{ asset: l.assets[0], interactions: { viewed: 'true', touched: true } }] } }) },
  { method: 'GET', path: '/assets/recommended' },
  // streams over HTTP
  { method: 'GET', path: '/assets/stream', query: { since: '0' } },
  { method: 'GET', path: '/assets/stream/identifiers', query: { since: '1' } },
  { method: 'GET', path: '/assets/stream/transferables', query: { since: '2' } },
  // assets
  { method: 'POST', path: '/assets/create', query: FLAGS, body: () => fragmentSeed('def f(x):\n    return x\n', { name: 'f', tags: [{ text: 'kept' }], websites: [{ url: 'https://example.com/x', name: 'x' }] }) },
  { method: 'POST', path: '/assets/draft', body: () => fragmentSeed('SELECT 1;', undefined, { specific: 'sql' }) },
  { method: 'POST', path: '/assets/import', body: () => ({ iterable: [fragmentSeed('let a = 1;'), fragmentSeed('fn main() {}')] }) },
  { method: 'GET', path: '/assets', query: { ...FLAGS, suggested: 'false' } },
  { method: 'GET', path: '/assets/identifiers', query: { pseudo: 'true' } },
  { method: 'GET', path: '/assets/pseudo' },
  { method: 'GET', path: '/assets/{asset}', query: FLAGS },
  { method: 'GET', path: '/assets/{asset}/formats', query: FLAGS },
  { method: 'POST', path: '/assets/{asset}/delete' },
  // asset
  { method: 'POST', path: '/asset/update', query: FLAGS, body: (l) => ({ ...l.asset, name: 'renamed' }) },
  { method: 'POST', path: '/asset/reclassify', body: (l) => ({ asset: l.asset, ext: 'py' }) },
  { method: 'GET', path: '/asset/{asset}', query: FLAGS },
  { method: 'POST', path: '/asset/{asset}', body: () => ({ os: 'LINUX' }) },
  { method: 'GET', path: '/asset/{asset}/formats', query: FLAGS },
  { method: 'GET', path: '/asset/{asset}/activities' },
  { method: 'GET', path: '/asset/{asset}/conversations' },
  { method: 'GET', path: '/asset/{asset}/export', query: { export_type: 'HTML' } },
  { method: 'POST', path: '/asset/{asset}/scores/increment', body: () => ({ asset: { reuse: true, update: false } }) },
  { method: 'POST', path: '/asset/{asset}/{kind}/{action}/{tag}' },
  // labels
  { method: 'POST', path: '/tags/create', body: (l) => ({ text: 'fresh', asset: l.assets[0] }) },
  { method: 'GET', path: '/tags' },
  { method: 'POST', path: '/websites/create', body: () => ({ url: 'https://example.org/', name: 'example' }) },
  { method: 'GET', path: '/websites' },
  { method: 'POST', path: '/workstream_summaries/create', body: () => ({ name: 'week', model: MODEL }) },
  { method: 'GET', path: '/workstream_summaries' },
  // conversations
  { method: 'GET', path: '/conversations' },
  { method: 'POST', path: '/conversations/{conversation}/delete' },
  { method: 'POST', path: '/conversation/update', body: (l) => ({ id: l.conversation, name: 'renamed' }) },
  { method: 'GET', path: '/conversation/{conversation}' },
  // backup
  { method: 'GET', path: '/backup' },
  { method: 'POST', path: '/backup/restore', query: { dry_run: 'true' }, body: (l) => l.backup },
  // embeddings
  { method: 'GET', path: '/embeddings' },
  { method: 'POST', path: '/embeddings', body: () => ({ texts: ['parse arguments', 'read a file'] }) },
  { method: 'GET', path: '/embeddings/library' },
  { method: 'POST', path: '/embeddings/library' },
  // folders
  { method: 'GET', path: '/folders' },
  { method: 'DELETE', path: '/folders/{folder}' },
  // library
  { method: 'GET', path: '/library', query: { pseudo: 'false', first: '2' } },
  { method: 'GET', path: '/library/previews', query: { ids: 'IDS' } },
  // qgpt
  { method: 'POST', path: '/qgpt/stream', body: () => ({ request: 'r1', question: { query: 'how are arguments parsed?', relevant: { iterable: [relevantFragment('import argparse')] } } }) },
  { method: 'POST', path: '/qgpt/relevance', query: { limit: '5' }, body: () => ({ query: 'parse command line arguments', options: { database: true } }) },
  { method: 'POST', path: '/qgpt/question', body: (l) => ({ query: 'how are arguments parsed?', relevant: { iterable: [relevantFragment('import argparse'), { id: l.relevant }] } }) },
  { method: 'POST', path: '/qgpt/reprompt', body: () => ({ query: 'and in go?', conversation: { iterable: [{ role: 'USER', text: 'parse args in python' }] } }) },
  { method: 'POST', path: '/qgpt/hints', body: () => ({ query: 'how do I read the config file?', relevant: { iterable: [relevantFragment('def parse_config(path):\n    return load_yaml(path)\n')] }, answer: { score: 0.8, text: 'Call parse_config(path).' } }) },
  { method: 'POST', path: '/qgpt/persons/related', query: FLAGS, body: (l) => ({ asset: { id: l.assets[0] } }) },
  // qgpt/settings (the endpoint is never reached: the test api's fetch refuses every request)
  { method: 'GET', path: '/qgpt/settings' },
  { method: 'PUT', path: '/qgpt/settings', body: () => ({ url: 'http://localhost:9/v1', model: 'tiny', apiKey: 'k', enabled: true }) },
  { method: 'DELETE', path: '/qgpt/settings' },
  { method: 'POST', path: '/qgpt/settings/test' },
  // embeddings/settings (likewise never reached: relevance falls back to the built-in embedder)
  { method: 'GET', path: '/embeddings/settings' },
  { method: 'PUT', path: '/embeddings/settings', body: () => ({ url: 'http://localhost:9/v1', model: 'tiny-embed', apiKey: 'k', enabled: true }) },
  { method: 'DELETE', path: '/embeddings/settings' },
  { method: 'POST', path: '/embeddings/settings/test' },
];

// ---------------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------------

/** Strings that have broken parsers, stores and renderers before. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\u202eevil\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '\ufeff',
  '\u2028\u2029',
  '😀'.repeat(3),
  'e\u0301\u0301\u0301',
  '../../etc/passwd',
  '%2F..%2F',
  '<script>alert(1)</script>',
  '${x}{{x}}',
  'null',
  'NaN',
  '__proto__',
  'constructor',
  'toString',
  'PY',
  'py ',
  'SEEDED_ASSET ',
  'javascript:alert(1)',
  '\r\n\t',
];

export const oddString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** A value nested `depth` levels deep, as arrays or objects. */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A JSON value of the wrong kind for almost any field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 1, 0.5, [], {}, [[]], { '': null }, '', '0'),
  fc.integer(),
  oddString,
  fc.array(fc.constantFrom(1, 'a', null), { maxLength: 3 }),
  fc.dictionary(oddString, fc.constantFrom(1, 'a', null), { maxKeys: 3 }),
);

// ---------------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------------

type Json = unknown;

/** Every path to a value inside `value` (object keys and array indexes), the root included. */
function pathsOf(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function clone<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

function getAt(value: Json, path: (string | number)[]): Json {
  return path.reduce<Json>((v, k) => (v as Record<string | number, Json>)?.[k], value);
}

/** One edit of a JSON value: replace, drop or add at a path. */
type Edit = { op: 'set'; at: number; value: Json } | { op: 'drop'; at: number } | { op: 'add'; at: number; key: string; value: Json } | { op: 'string'; at: number; value: string };

function applyEdit(root: Json, edit: Edit): Json {
  const paths = pathsOf(root);
  const path = paths[edit.at % paths.length]!;
  if (path.length === 0) {
    if (edit.op === 'set') return edit.value;
    if (edit.op === 'add' && root && typeof root === 'object' && !Array.isArray(root)) return { ...(root as object), [edit.key]: edit.value };
    return edit.op === 'string' ? edit.value : root;
  }
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1]!;
  const current = parent[key];
  switch (edit.op) {
    case 'set':
      parent[key] = edit.value;
      break;
    case 'string':
      // An enum, id or text replaced by another string: invalid enum strings and odd Unicode where strings go.
      if (typeof current === 'string') parent[key] = edit.value;
      else parent[key] = edit.value;
      break;
    case 'drop':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      break;
    case 'add':
      if (current && typeof current === 'object' && !Array.isArray(current)) (current as Record<string, Json>)[edit.key] = edit.value;
      else parent[`${String(key)}${edit.key}`] = edit.value;
      break;
  }
  return root;
}

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: wrongValue }),
  fc.record({ op: fc.constant('string' as const), at: fc.nat(), value: oddString }),
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: fc.constantFrom('extra', '__proto__', 'constructor', 'id', ''), value: wrongValue }),
);

/**
 * A generated body, with what it is so that a failure names it. A body around the body limit is kept short:
 * `fill` says where its long run goes (see {@link bodyText}), so it crosses to a browser page in a few bytes
 * and is made there.
 */
export interface HostileBody {
  kind: string;
  text?: string;
  /** `unit` repeated `count` times goes into `text` at offset `at`. */
  fill?: { at: number; unit: string; count: number };
}

/** The body as sent: `text` with its `fill` run put in. */
export function bodyText(body: HostileBody | undefined): string | undefined {
  if (body?.text === undefined || !body.fill) return body?.text;
  const { at, unit, count } = body.fill;
  return body.text.slice(0, at) + unit.repeat(count) + body.text.slice(at);
}

/**
 * Hostile bodies for a route: none, broken JSON, the valid body with edits, any JSON, deep nesting, or
 * a string that takes the body under or over `limit` bytes.
 */
export function hostileBody(route: Route, lib: () => Library, limit: number): fc.Arbitrary<HostileBody> {
  const valid = () => {
    const body = route.body?.(lib());
    return typeof body === 'string' ? body : JSON.stringify(body ?? {});
  };
  const validJson = () => (route.body ? route.body(lib()) : {});
  const options: fc.WeightedArbitrary<HostileBody>[] = [
    { weight: 1, arbitrary: fc.constant({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{}', '0', '"x"', 'true').map((text) => ({ kind: 'small', text })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.nat().map((n) => ({ cut: n })),
          fc.constantFrom('{"asset": ', '{', '[1,]', "{'a': 1}", '{"a":1}}', '\ufeff{}', 'NaN', '{"a":undefined}', '{"a":1,}', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u00"}'),
        )
        .map((x) => {
          if (typeof x === 'string') return { kind: 'broken json', text: x };
          const text = valid();
          return { kind: 'truncated json', text: text.slice(0, x.cut % Math.max(1, text.length)) };
        }),
    },
    {
      weight: 6,
      arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => {
        let body = clone(validJson());
        if (typeof body === 'string') {
          // NDJSON (a backup): edit one line's record.
          const lines = body.split('\n');
          const i = (edits[0]!.at >>> 3) % lines.length;
          let line: Json;
          try {
            line = JSON.parse(lines[i]!);
          } catch {
            line = lines[i];
          }
          for (const e of edits) line = applyEdit(line, e);
          lines[i] = JSON.stringify(line);
          return { kind: `ndjson line ${i} edited ${JSON.stringify(edits).slice(0, 200)}`, text: lines.join('\n') };
        }
        for (const e of edits) body = applyEdit(body, e);
        return { kind: `edited ${JSON.stringify(edits).slice(0, 300)}`, text: JSON.stringify(body) };
      }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ kind: 'any json', text: JSON.stringify(v) })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ depth: fc.constantFrom(64, 1_000, 5_000, 100_000), kind: fc.constantFrom('array' as const, 'object' as const), wrap: fc.boolean() })
        .map(({ depth, kind, wrap }) => {
          const deep = nested(depth, kind);
          // Wrapped: the deep value sits in a string field of the valid body, past the schema's first checks.
          if (!wrap) return { kind: `nested ${kind} ${depth}`, text: deep };
          const body = clone(validJson()) as Json;
          const paths = pathsOf(body).filter((p) => p.length > 0);
          if (paths.length === 0 || typeof body !== 'object' || body === null) return { kind: `nested ${kind} ${depth}`, text: deep };
          const path = paths[depth % paths.length]!;
          const marker = '"__DEEP__"';
          (getAt(body, path.slice(0, -1)) as Record<string | number, Json>)[path[path.length - 1]!] = '__DEEP__';
          return { kind: `nested ${kind} ${depth} at ${path.join('.')}`, text: JSON.stringify(body).replace(marker, deep) };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ delta: fc.integer({ min: -64, max: 64 }), char: fc.constantFrom('x', 'é', '😀', '\u0000', '\ud800'), at: fc.nat() }).map(({ delta, char, at }) => {
        // A string field grown so the body lands `delta` bytes around the limit.
        const body = clone(validJson()) as Json;
        const strings = pathsOf(body).filter((p) => p.length > 0 && typeof getAt(body, p) === 'string');
        const base = JSON.stringify(body ?? {});
        const unit = new TextEncoder().encode(JSON.stringify(char).slice(1, -1)).byteLength;
        const room = Math.max(0, Math.floor((limit + delta - base.length) / unit));
        const fill = (at: number) => ({ at, unit: JSON.stringify(char).slice(1, -1), count: room });
        if (strings.length === 0 || typeof body !== 'object' || body === null) return { kind: `huge string ${delta}`, text: '""', fill: fill(1) };
        const path = strings[at % strings.length]!;
        (getAt(body, path.slice(0, -1)) as Record<string | number, Json>)[path[path.length - 1]!] = '__HUGE__';
        const text = JSON.stringify(body).replace('"__HUGE__"', '""');
        return { kind: `huge string at ${path.join('.')} (${delta} around the limit)`, text, fill: fill(JSON.stringify(body).indexOf('"__HUGE__"') + 1) };
      }),
    },
  ];
  return fc.oneof(...options);
}

/** encodeURIComponent, except that a lone surrogate becomes its WTF-8 bytes (%ED%A0%80) instead of a throw. */
export function encodeLoose(s: string): string {
  let out = '';
  for (const ch of s) {
    const cu = ch.charCodeAt(0);
    if (ch.length === 1 && cu >= 0xd800 && cu <= 0xdfff) {
      out += [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Paths and requests
// ---------------------------------------------------------------------------------------------------

/** Ids that name nothing or try to step out of their segment; raw (inserted as they are) or to be encoded. */
export const PATH_TRICKS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F%2E%2E',
  '%2F',
  'a%2Fb',
  '..%2F..%2Fbackup',
  '%5C..%5C',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%E2%80%AE',
  '%',
  '%zz',
  '%C0%AF',
  '%FF',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '00000000-0000-4000-8000-000000000000',
  'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  ' ',
  '%20',
  '+',
  ';',
  '~',
  '*',
];

export interface HostileRequest {
  method: string;
  /** Path and query below the base, as sent. */
  target: string;
  body?: HostileBody;
  contentType?: string;
}

/** An id for a `{slot}`: a stored one (an index into the library, resolved when sent) or a hostile one. */
type IdChoice = { stored: number } | { raw: string } | { encoded: string };

const hostileId: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 3, arbitrary: fc.nat().map((stored) => ({ stored })) },
  { weight: 4, arbitrary: fc.constantFrom(...PATH_TRICKS).map((raw) => ({ raw })) },
  { weight: 2, arbitrary: oddString.filter((s) => s !== '').map((encoded) => ({ encoded })) },
  { weight: 1, arbitrary: fc.constantFrom(300, 3_000, 20_000).map((n) => ({ raw: 'a'.repeat(n) })) },
  { weight: 1, arbitrary: fc.uuid().map((raw) => ({ raw })) },
);

const slotValues: Partial<Record<Slot, string[]>> = {
  kind: ['tags', 'websites', 'workstream_summaries'],
  action: ['associate', 'disassociate'],
};

function storedFor(slot: Slot, lib: Library, n: number): string {
  switch (slot) {
    case 'asset':
      return lib.assets[n % Math.max(1, lib.assets.length)] ?? '00000000-0000-4000-8000-000000000000';
    case 'tag':
      return [lib.tag, lib.website, lib.summary][n % 3]!;
    case 'conversation':
      return lib.conversation;
    case 'folder':
      return 'docs';
    default:
      return slotValues[slot]![n % slotValues[slot]!.length]!;
  }
}

function resolveId(slot: Slot, choice: IdChoice, lib: Library): string {
  if ('stored' in choice) return encodeURIComponent(storedFor(slot, lib, choice.stored));
  if ('raw' in choice) return choice.raw;
  return encodeLoose(choice.encoded);
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'application/x-ndjson',
  '*/*; q=<>',
);

/** Query strings: the route's own with one value broken, extra and repeated parameters, broken escapes. */
function hostileQuery(route: Route): fc.Arbitrary<string> {
  const own = Object.entries(route.query ?? {});
  const value = fc.oneof(fc.constantFrom('', 'maybe', '2', '-1', '0', '1e3', '999999999999', 'TRUE', 'true,false', '%', '%zz', '%00', 'HTML ', 'md', 'MD', '__proto__', 'constructor'), oddString.map(encodeLoose));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(own.map(([k, v]) => `${k}=${v}`).join('&')) },
    {
      weight: 3,
      arbitrary: fc.record({ which: fc.nat(), value }).map(({ which, value }) =>
        own.map(([k, v], i) => `${k}=${i === which % Math.max(1, own.length) ? value : v}`).join('&'),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('transferables=true&transferables=false', 'a=1&a=2&b', '&&&', '=x', 'query', 'since', 'ids=,,,', 'limit=100000', '%', '?') },
  );
}

/** The hostile requests of one route: its own method mostly, wrong ones too, with hostile ids, query, body and content type. */
export function hostileRequest(route: Route, lib: () => Library, limit: number): fc.Arbitrary<{ build: () => HostileRequest; label: string }> {
  const slots = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as Slot);
  const idFor = (slot: Slot): fc.Arbitrary<IdChoice> =>
    slotValues[slot] ? fc.oneof({ weight: 4, arbitrary: fc.nat().map((stored) => ({ stored }) as IdChoice) }, { weight: 2, arbitrary: hostileId }) : hostileId;
  const methods = fc.oneof(
    { weight: 8, arbitrary: fc.constant(route.method as string) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  );
  return fc
    .record({
      method: methods,
      ids: fc.tuple(...slots.map(idFor)),
      query: hostileQuery(route),
      body: hostileBody(route, lib, limit),
      contentType: contentTypes,
    })
    .map(({ method, ids, query, body, contentType }) => {
      const label = JSON.stringify({ method, ids, query: query.slice(0, 200), body: body.kind.slice(0, 300), contentType });
      const build = (): HostileRequest => {
        const library = lib();
        let path = route.path;
        slots.forEach((slot, i) => {
          path = path.replace(`{${slot}}`, resolveId(slot, ids[i]!, library));
        });
        const q = query.replace('IDS', library.assets.slice(0, 2).join(','));
        const sendsBody = method !== 'GET' && body.kind !== 'none';
        return {
          method,
          target: q ? `${path}?${q}` : path,
          ...(sendsBody ? { body } : {}),
          ...(contentType && sendsBody ? { contentType } : {}),
        };
      };
      // fast-check prints the label, not the function, in a counterexample.
      return { build, label, [fc.toStringMethod]: () => label };
    });
}

export { APPLICATION };
