import { describe, it, expect } from 'vitest';
import {
  AssetFilterSchema,
  AssetSchema,
  AssetSearchSpaceSchema,
  CLASSIFICATION_SPECIFIC_VALUES,
  ClassificationSpecificEnumSchema,
  GroupedTimestampSchema,
  IsoDateSchema,
  QGPTStreamEnumSchema,
  QGPTStreamOutputSchema,
  isClassificationSpecific,
} from '../../worker/core/model/schemas.ts';
import type { Asset, AssetFilter, FlattenedAsset, Format } from '../../worker/core/model/schemas.ts';

const ASSET_ID = '3f2c0a4e-9b1d-4c6e-8f7a-1b2c3d4e5f60';
const FORMAT_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const NOW = { value: '2025-01-02T03:04:05.678Z', readable: 'just now' };

const application = {
  id: 'app-1',
  name: 'OS_SERVER',
  version: '1.0.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
} as const;

const flattenedAsset: FlattenedAsset = {
  id: ASSET_ID,
  creator: 'user-1',
  created: NOW,
  updated: NOW,
  formats: { iterable: [{ id: FORMAT_ID }] },
  preview: { base: FORMAT_ID },
  original: FORMAT_ID,
  mechanism: 'MANUAL',
};

const format: Format = {
  id: FORMAT_ID,
  creator: 'user-1',
  classification: { generic: 'CODE', specific: 'py' },
  role: 'BOTH',
  application,
  asset: flattenedAsset,
  bytes: { value: 12, readable: '12 B' },
  created: NOW,
  updated: NOW,
  fragment: { string: { raw: 'print("hi")' } },
};

function minimalAsset(): Asset {
  return {
    id: ASSET_ID,
    creator: 'user-1',
    created: NOW,
    updated: NOW,
    formats: { iterable: [format] },
    preview: { base: { id: FORMAT_ID } },
    original: { id: FORMAT_ID },
    mechanism: 'MANUAL',
  };
}

describe('AssetSchema', () => {
  it('accepts a minimal asset whose format carries a full FlattenedAsset', () => {
    const parsed = AssetSchema.parse(minimalAsset());
    expect(parsed.formats.iterable[0]?.asset.original).toBe(FORMAT_ID);
    expect(parsed.formats.iterable[0]?.classification.specific).toBe('py');
  });

  it('rejects a missing required field', () => {
    const { creator: _creator, ...rest } = minimalAsset();
    const result = AssetSchema.safeParse(rest);
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((i) => i.path.join('.') === 'creator')).toBe(true);
  });

  it('rejects a non-string id', () => {
    expect(AssetSchema.safeParse({ ...minimalAsset(), id: 5 }).success).toBe(false);
  });

  it('rejects a non-UUID asset id', () => {
    expect(AssetSchema.safeParse({ ...minimalAsset(), id: 'not-a-uuid' }).success).toBe(false);
  });

  it('rejects a collection without its required iterable', () => {
    expect(AssetSchema.safeParse({ ...minimalAsset(), formats: {} }).success).toBe(false);
    expect(AssetSchema.safeParse({ ...minimalAsset(), tags: {} }).success).toBe(false);
  });

  it('rejects a FlattenedAsset nested in a format when it misses required fields', () => {
    const bad = minimalAsset();
    const { mechanism: _m, ...partial } = flattenedAsset;
    bad.formats.iterable[0] = { ...format, asset: partial as FlattenedAsset };
    expect(AssetSchema.safeParse(bad).success).toBe(false);
  });

  it('accepts null for an optional field', () => {
    const parsed = AssetSchema.parse({ ...minimalAsset(), name: null, tags: null, favorited: null });
    expect(parsed.name).toBeNull();
  });

  it('rejects an invalid enum string', () => {
    expect(AssetSchema.safeParse({ ...minimalAsset(), mechanism: 'manual' }).success).toBe(false);
  });

  it('strips unknown keys', () => {
    const parsed = AssetSchema.parse({ ...minimalAsset(), bogus: 1 });
    expect('bogus' in parsed).toBe(false);
  });
});

describe('timestamps', () => {
  it('accepts ISO strings and Date instances, rejects garbage', () => {
    expect(GroupedTimestampSchema.safeParse({ value: '2025-01-02T03:04:05Z' }).success).toBe(true);
    expect(GroupedTimestampSchema.safeParse({ value: '2025-01-02T03:04:05.123456+02:00' }).success).toBe(true);
    expect(GroupedTimestampSchema.safeParse({ value: new Date() }).success).toBe(true);
    expect(GroupedTimestampSchema.safeParse({ value: new Date('nope') }).success).toBe(false);
    expect(GroupedTimestampSchema.safeParse({ value: 'yesterday' }).success).toBe(false);
    expect(IsoDateSchema.safeParse('2025-13-02T03:04:05Z').success).toBe(false);
    expect(GroupedTimestampSchema.safeParse({ readable: 'now' }).success).toBe(false);
  });
});

describe('ClassificationSpecificEnum', () => {
  it('has all 505 case-sensitive values', () => {
    expect(CLASSIFICATION_SPECIFIC_VALUES).toHaveLength(505);
    expect(ClassificationSpecificEnumSchema.options).toHaveLength(505);
    expect(new Set(CLASSIFICATION_SPECIFIC_VALUES).size).toBe(505);
    for (const v of ['py', 'Cargo.lock', '.zshrc', 'hljs-1c', 'UNKNOWN', 'cara']) {
      expect(ClassificationSpecificEnumSchema.safeParse(v).success).toBe(true);
      expect(isClassificationSpecific(v)).toBe(true);
    }
    expect(ClassificationSpecificEnumSchema.safeParse('PY').success).toBe(false);
    expect(isClassificationSpecific('PY')).toBe(false);
    expect(isClassificationSpecific(5)).toBe(false);
  });
});

describe('QGPT stream', () => {
  it('uses the hyphenated IN-PROGRESS status', () => {
    expect(QGPTStreamEnumSchema.safeParse('IN-PROGRESS').success).toBe(true);
    expect(QGPTStreamEnumSchema.safeParse('IN_PROGRESS').success).toBe(false);
  });

  it('requires conversation on every output frame', () => {
    const frame = { status: 'IN-PROGRESS', question: { answers: { iterable: [{ score: 0, text: 'Hel' }] } } };
    expect(QGPTStreamOutputSchema.safeParse(frame).success).toBe(false);
    expect(QGPTStreamOutputSchema.safeParse({ ...frame, conversation: 'c-1', statusCode: null }).success).toBe(true);
  });
});

describe('search', () => {
  it('AssetSearchSpace requires the misspelled identifers key', () => {
    expect(AssetSearchSpaceSchema.safeParse({ identifers: { iterable: [{ id: ASSET_ID }] } }).success).toBe(true);
    expect(AssetSearchSpaceSchema.safeParse({ identifiers: { iterable: [{ id: ASSET_ID }] } }).success).toBe(false);
  });

  it('AssetFilter recurses through operations', () => {
    const filter: AssetFilter = {
      classification: 'ts',
      operations: { type: 'OR', iterable: [{ phrase: { value: 'x' } }, { operations: { iterable: [{ tags: ['a'] }] } }] },
    };
    expect(AssetFilterSchema.parse(filter).operations?.iterable).toHaveLength(2);
    const bad = { operations: { iterable: [{ operations: { iterable: [{ classification: 'PY' }] } }] } };
    expect(AssetFilterSchema.safeParse(bad).success).toBe(false);
  });
});
