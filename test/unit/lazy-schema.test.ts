import { describe, it, expect } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../../worker/core/model/lazy-schema.ts';
import { opt } from '../../worker/core/model/schemas/primitives.ts';

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

  it('is not built by parsing a schema that holds it, when the input gives no value for it', () => {
    // Zod's default memoizer walked the whole graph on a first parse (for cycle support), building every lazy
    // schema in it: the model's config (primitives.ts) leaves that out.
    let builds = 0;
    const Child = lazySchema(() => (builds++, z.object({ x: z.number() })));
    const Parent = lazySchema(() => z.object({ name: z.string(), children: opt(z.array(Child)) }));
    expect(Parent.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(builds).toBe(0);
    expect(Parent.parse({ name: 'a', children: [{ x: 1 }] })).toEqual({ name: 'a', children: [{ x: 1 }] });
    expect(builds).toBe(1);
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
