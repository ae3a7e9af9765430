import { describe, it, expect } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../../worker/core/model/lazy-schema.ts';

describe('lazySchema', () => {
  it('builds the schema on first use, once', () => {
    let builds = 0;
    const Point = lazySchema(() => {
      builds += 1;
      return z.object({ x: z.number(), y: z.number().nullish() });
    });
    expect(builds).toBe(0);
    expect(Point.parse({ x: 1, extra: true })).toEqual({ x: 1 });
    expect(Point.safeParse({ x: 'no' }).success).toBe(false);
    expect(Object.keys(Point.shape)).toEqual(['x', 'y']);
    expect(builds).toBe(1);
  });

  it('behaves as the schema inside other schemas and derived schemas', () => {
    const Tag = lazySchema(() => z.enum(['A', 'B']));
    const Item = lazySchema(() => z.object({ id: z.string(), tag: Tag, tags: z.array(Tag).nullish() }));
    const Items = z.object({ iterable: z.array(Item) });
    expect(Items.parse({ iterable: [{ id: '1', tag: 'A', tags: ['B'] }] })).toEqual({
      iterable: [{ id: '1', tag: 'A', tags: ['B'] }],
    });
    const issues = Items.safeParse({ iterable: [{ id: '1', tag: 'C' }] }).error?.issues ?? [];
    expect(issues.map((issue) => issue.path)).toEqual([['iterable', 0, 'tag']]);
    const Update = lazySchema(() => Item.partial().required({ id: true }));
    expect(Update.parse({ id: '2' })).toEqual({ id: '2' });
    expect(Update.safeParse({ tag: 'A' }).success).toBe(false);
    expect(Item instanceof z.ZodObject).toBe(true);
    expect(Object.getPrototypeOf(Tag)).toBe(Object.getPrototypeOf(z.enum(['A'])));
  });

  it('names a schema read while it is being built instead of overflowing the stack', () => {
    const Loop: z.ZodObject = lazySchema(() => z.object({ next: Loop.optional() }));
    expect(() => Loop.parse({})).toThrow(/while it is being built/);
  });

  it('supports a recursive field written as a getter', () => {
    type NodeShape = {
      value: z.ZodNumber;
      readonly children: z.ZodOptional<z.ZodArray<z.ZodObject<NodeShape>>>;
    };
    const Tree: z.ZodObject<NodeShape> = lazySchema(() =>
      z.object({
        value: z.number(),
        get children() {
          return z.array(Tree).optional();
        },
      }),
    );
    expect(Tree.parse({ value: 1, children: [{ value: 2 }] })).toEqual({ value: 1, children: [{ value: 2 }] });
    expect(Tree.safeParse({ value: 1, children: [{ value: 'x' }] }).success).toBe(false);
  });
});
