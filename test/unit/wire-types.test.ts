/**
 * scripts/wire-types.ts: the plain declarations the package's types give for zod schemas (the package
 * build checks them against `z.infer` for every wire model with tsc; here, each rule on its own).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../../worker/core/model/lazy-schema.ts';
import { declareWireTypes } from '../../scripts/wire-types.ts';

describe('declareWireTypes', () => {
  it('writes an object as an interface: optional keys where the schema is, null for nullish, loose objects open', () => {
    const Point = z.object({ x: z.number(), label: z.string().nullish(), 'kebab-key': z.boolean().optional(), extra: z.unknown(), seen: z.date() });
    const Loose = z.looseObject({ id: z.string() });
    expect(declareWireTypes(new Map<string, unknown>([['Point', Point], ['Loose', Loose]]))).toBe(
      [
        'export interface Point {',
        '  x: number;',
        '  label?: string | null | undefined;',
        '  "kebab-key"?: boolean | undefined;',
        '  extra: unknown;',
        '  seen: Date;',
        '}',
        'export interface Loose {',
        '  id: string;',
        '  [key: string]: unknown;',
        '}',
      ].join('\n'),
    );
  });

  it('names a nested schema that has a name, through lazy stand-ins and what zod derives from them', () => {
    const Kind = lazySchema(() => z.enum(['A', 'B']));
    const Item = lazySchema(() => z.object({ kind: Kind, other: Kind.nullish(), get children() { return z.array(Item).nullish(); } }));
    const Items = lazySchema(() => z.object({ iterable: z.array(Item), byId: z.record(z.string(), Item), value: z.union([z.string(), z.date()]) }));
    const Update = lazySchema(() => Item.partial().required({ kind: true }));
    const text = declareWireTypes(new Map<string, unknown>([['Kind', Kind], ['Item', Item], ['Items', Items], ['ItemUpdate', Update]]));
    expect(text).toBe(
      [
        'export type Kind = "A" | "B";',
        'export interface Item {',
        '  kind: Kind;',
        '  other?: Kind | null | undefined;',
        '  children?: Array<Item> | null | undefined;',
        '}',
        'export interface Items {',
        '  iterable: Array<Item>;',
        '  byId: Record<string, Item>;',
        '  value: string | Date;',
        '}',
        'export interface ItemUpdate {',
        '  kind: Kind;',
        '  other?: Kind | null | undefined;',
        '  children?: Array<Item> | null | undefined;',
        '}',
      ].join('\n'),
    );
  });

  it('writes a nameless nested object inline, and a literal as its value', () => {
    const Outer = z.object({ inner: z.object({ n: z.literal(3) }).nullable() });
    expect(declareWireTypes(new Map([['Outer', Outer]]))).toBe(['export interface Outer {', '  inner: {', '    n: 3;', '  } | null;', '}'].join('\n'));
  });

  it('keeps `.required()` exact where the inner type may be undefined itself', () => {
    const Unknowable = z.object({ id: z.unknown() }).partial().required({ id: true });
    expect(declareWireTypes(new Map([['Unknowable', Unknowable]]))).toBe(['export interface Unknowable {', '  id: Exclude<unknown, undefined>;', '}'].join('\n'));
  });

  it('refuses a schema it cannot type exactly, saying where', () => {
    const Moved = z.object({ when: z.string().transform((s) => new Date(s)) });
    expect(() => declareWireTypes(new Map([['Moved', Moved]]))).toThrow(/Moved\.when: no plain type for a zod pipe schema/);
  });
});
