import { describe, expect, it } from 'vitest';
import { ApiError } from '../../worker/core/errors.ts';
import type { AssetFilter, AssetFilters } from '../../worker/core/model/schemas.ts';
import type { DocMeta } from '../../worker/core/search/documents.ts';
import { compileFilters, containsPhrase, type PhraseCriterion } from '../../worker/core/search/filters.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-10T00:00:00.000Z');

function meta(over: Partial<DocMeta> = {}): DocMeta {
  return {
    name: '',
    created: T0,
    updated: T0,
    specifics: ['py'],
    generic: 'CODE',
    pseudo: false,
    tagIds: [],
    tags: [],
    websiteIds: [],
    websites: [],
    personIds: [],
    persons: [],
    usage: 0,
    ...over,
  };
}

const docs: Record<string, DocMeta> = {
  py: meta({ specifics: ['py'], tags: ['cli', 'argparse'], tagIds: ['t-cli', 't-argparse'], created: T0 - 5 * DAY, updated: T0 }),
  go: meta({ specifics: ['go'], tags: ['cli'], tagIds: ['t-cli'], created: T0 - 2 * DAY, updated: T0 - 2 * DAY, persons: ['ada', 'ada@example.com'], personIds: ['p-ada'] }),
  ts: meta({ specifics: ['ts'], websites: ['https://github.com/acme/app', 'acme app'], websiteIds: ['w-acme'], created: T0, updated: T0 + DAY }),
  md: meta({ specifics: ['md'], generic: 'TEXT', created: T0 + 3 * DAY, updated: T0 + 3 * DAY }),
};

const iso = (t: number) => ({ value: new Date(t).toISOString() });

function run(filters: AssetFilter[] | AssetFilters, phrases: Record<string, string[]> = {}, casing?: boolean): string[] {
  const compiled = compileFilters(Array.isArray(filters) ? { iterable: filters } : filters, { casing });
  const found = new Map<PhraseCriterion, Set<string>>(compiled.phrases.map((p) => [p, new Set(phrases[p.value] ?? [])]));
  return Object.entries(docs)
    .filter(([id, m]) => compiled.test(m, id, found))
    .map(([id]) => id);
}

function status(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? error.status : -1;
  }
  return undefined;
}

describe('asset filters', () => {
  it('passes everything without criteria', () => {
    expect(run([])).toEqual(['py', 'go', 'ts', 'md']);
    expect(run([{}])).toEqual(['py', 'go', 'ts', 'md']);
    expect(compileFilters(undefined).empty).toBe(true);
  });

  it('matches classification, tags (text or id, any of the list), websites and persons', () => {
    expect(run([{ classification: 'go' }])).toEqual(['go']);
    expect(run([{ tags: ['CLI'] }])).toEqual(['py', 'go']);
    expect(run([{ tags: ['t-argparse', 'nope'] }])).toEqual(['py']);
    expect(run([{ websites: ['github.com'] }])).toEqual(['ts']);
    expect(run([{ websites: ['w-acme'] }])).toEqual(['ts']);
    expect(run([{ persons: ['Ada'] }, { persons: ['p-ada'] }])).toEqual(['go']);
  });

  it('ANDs the criteria of one filter and the filters of the top level', () => {
    expect(run([{ tags: ['cli'], classification: 'go' }])).toEqual(['go']);
    expect(run([{ tags: ['cli'] }, { classification: 'py' }])).toEqual(['py']);
    // The top level is AND even when it says OR (service-api.md: all filters are combined with AND).
    expect(run({ type: 'OR', iterable: [{ classification: 'go' }, { classification: 'py' }] })).toEqual([]);
  });

  it('nests operations: OR groups, AND groups, and a filter with both own criteria and a group', () => {
    const either: AssetFilter = { operations: { type: 'OR', iterable: [{ classification: 'go' }, { classification: 'md' }] } };
    expect(run([either])).toEqual(['go', 'md']);
    expect(run([either, { tags: ['cli'] }])).toEqual(['go']);
    // Own criteria OR'd with the nested filters.
    expect(run([{ classification: 'ts', operations: { type: 'OR', iterable: [{ tags: ['argparse'] }] } }])).toEqual(['py', 'ts']);
    // AND (the default type) inside OR inside AND.
    const deep: AssetFilter = {
      operations: {
        type: 'OR',
        iterable: [{ operations: { iterable: [{ tags: ['cli'] }, { classification: 'py' }] } }, { classification: 'md' }],
      },
    };
    expect(run([deep])).toEqual(['py', 'md']);
  });

  it('filters created and updated by from, to, both, and outside a range', () => {
    expect(run([{ created: { from: iso(T0) } }])).toEqual(['ts', 'md']);
    expect(run([{ created: { to: iso(T0 - 2 * DAY) } }])).toEqual(['py', 'go']);
    expect(run([{ created: { from: iso(T0 - 3 * DAY), to: iso(T0), between: true } }])).toEqual(['go', 'ts']);
    expect(run([{ created: { from: iso(T0 - 3 * DAY), to: iso(T0) } }])).toEqual(['go', 'ts']);
    expect(run([{ created: { from: iso(T0 - 3 * DAY), to: iso(T0), between: false } }])).toEqual(['py', 'md']);
    expect(run([{ updated: { from: iso(T0 + DAY) } }])).toEqual(['ts', 'md']);
  });

  it('uses the resolved phrase matches, and says which fields a phrase looks at', () => {
    expect(run([{ phrase: { value: 'open(' } }], { 'open(': ['go', 'md'] })).toEqual(['go', 'md']);
    const compiled = compileFilters({ iterable: [{ phrase: { value: 'Open', title: true } }] }, { casing: true });
    expect(compiled.phrases[0]).toMatchObject({ value: 'Open', title: true, content: false, annotation: false, caseSensitive: true });
    expect([...compiled.kinds]).toEqual(['TITLE']);
    const anyField = compileFilters({ iterable: [{ phrase: { value: 'Open', options: { annotation: 'COMMENT' } } }] });
    expect(anyField.phrases[0]).toMatchObject({ value: 'open', title: true, content: true, annotation: true, annotationType: 'COMMENT' });
  });

  it('matches phrases ignoring case unless casing is set', () => {
    const loose = compileFilters({ iterable: [{ phrase: { value: 'ReadFile' } }] }).phrases[0]!;
    const strict = compileFilters({ iterable: [{ phrase: { value: 'ReadFile' } }] }, { casing: true }).phrases[0]!;
    expect(containsPhrase('x = readfile(p)', loose)).toBe(true);
    expect(containsPhrase('x = readfile(p)', strict)).toBe(false);
    expect(containsPhrase('x = ReadFile(p)', strict)).toBe(true);
  });

  it('refuses bad filters with a 422', () => {
    expect(status(() => compileFilters({ iterable: [{ phrase: { value: '  ' } }] }))).toBe(422);
    expect(status(() => compileFilters({ iterable: [{ phrase: {} }] }))).toBe(422);
    expect(status(() => compileFilters({ iterable: [{ tags: [''] }] }))).toBe(422);
    expect(status(() => compileFilters({ iterable: [{ created: { from: iso(T0), to: iso(T0 - DAY) } }] }))).toBe(422);
    expect(status(() => compileFilters({ iterable: [{ created: { between: true } }] }))).toBe(422);
    let deep: AssetFilter = { classification: 'py' };
    for (let i = 0; i < 10; i++) deep = { operations: { iterable: [deep] } };
    expect(status(() => compileFilters({ iterable: [deep] }))).toBe(422);
  });
});
