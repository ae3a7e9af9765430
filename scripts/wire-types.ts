/**
 * Plain TypeScript declarations of zod-typed names, generated from the schemas themselves at build time
 * (scripts/package-types.ts): the package's declarations then name `Asset`, `Seed`, … without importing
 * zod, which a host project does not have. Each name `X` gets what `z.infer<typeof XSchema>` gives: an
 * object schema an interface (a key optional when its schema is, a loose object's index signature), an
 * enum the union of its values, `.nullish()` `T | null | undefined`, `.required()` without `undefined`; a nested schema that has a name of
 * its own is written by that name, so recursive models stay finite. A kind of schema not listed here
 * fails the build rather than be typed loosely; the package build checks the result against
 * `z.infer` with tsc.
 */

/** The run-time part of a zod 4 schema this reads (`schema._zod.def`, `schema._zod.optout`). */
interface ZodLike {
  _zod: { def: ZodDef; optout?: string };
}
interface ZodDef {
  type: string;
  shape?: Record<string, ZodLike>;
  catchall?: ZodLike;
  innerType?: ZodLike;
  element?: ZodLike;
  keyType?: ZodLike;
  valueType?: ZodLike;
  options?: ZodLike[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}

const PLAIN: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  bigint: 'bigint',
  unknown: 'unknown',
  any: 'any',
  null: 'null',
  undefined: 'undefined',
  void: 'void',
  never: 'never',
  date: 'Date',
};

/** Deeper than this, a schema refers to itself without a name of its own. */
const MAX_DEPTH = 40;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether what `schema` gives may be `undefined` (so `| undefined` adds nothing, and `.required()` must remove it). */
function canBeUndefined(schema: ZodLike | undefined): boolean {
  if (!schema) return false;
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'undefined':
    case 'unknown':
    case 'any':
    case 'void':
      return true;
    case 'nullable':
      return canBeUndefined(def.innerType);
    case 'union':
      return (def.options ?? []).some(canBeUndefined);
    case 'literal':
      return (def.values ?? []).includes(undefined);
    default:
      return false;
  }
}

/**
 * Declarations (`export interface X {…}` / `export type X = …;`) for each `[X, XSchema]` of `named`, in
 * that order. Throws on a schema kind it cannot type exactly.
 */
export function declareWireTypes(named: ReadonlyMap<string, unknown>): string {
  // By `_zod`, which a lazy schema's stand-in (worker/core/model/lazy-schema.ts) shares with the schema it
  // builds: zod's methods (`.nullish()`) wrap the built schema, fields name the stand-in.
  const nameOf = new Map<unknown, string>();
  for (const [name, schema] of named) if (!nameOf.has((schema as ZodLike)._zod)) nameOf.set((schema as ZodLike)._zod, name);

  /** The type of `schema`, found at `where` (`Asset.formats`, for errors); `own` is the name being declared. */
  const typeOf = (schema: ZodLike, where: string[], own?: string): string => {
    const name = nameOf.get(schema._zod);
    if (name !== undefined && name !== own) return name;
    const at = () => where.join('.');
    if (where.length > MAX_DEPTH) throw new Error(`wire types: ${at()} nests deeper than ${MAX_DEPTH} (a recursive schema without a name?)`);
    const def = schema._zod.def;
    const inner = (s: ZodLike | undefined, step = '') => {
      if (!s) throw new Error(`wire types: ${at()}: a ${def.type} schema without its inner schema`);
      return typeOf(s, step ? [...where, step] : where);
    };
    if (def.type in PLAIN) return PLAIN[def.type]!;
    switch (def.type) {
      case 'object':
        return objectBody(def, where);
      case 'optional':
        return canBeUndefined(def.innerType) ? inner(def.innerType) : `${inner(def.innerType)} | undefined`;
      case 'nullable':
        return `${inner(def.innerType)} | null`;
      case 'nonoptional': {
        let required = def.innerType;
        while (required?._zod.def.type === 'optional') required = required._zod.def.innerType;
        return canBeUndefined(required) ? `Exclude<${inner(required)}, undefined>` : inner(required);
      }
      case 'array':
        return `Array<${inner(def.element, '[]')}>`;
      case 'record':
        return `Record<${inner(def.keyType, '[key]')}, ${inner(def.valueType, '[value]')}>`;
      case 'union':
        return (def.options ?? []).map((option, i) => inner(option, `|${i}`)).join(' | ');
      case 'enum':
        return Object.values(def.entries ?? {}).map((value) => JSON.stringify(value)).join(' | ');
      case 'literal':
        return (def.values ?? []).map((value) => JSON.stringify(value)).join(' | ');
      default:
        throw new Error(`wire types: ${at()}: no plain type for a zod ${def.type} schema`);
    }
  };

  const objectBody = (def: ZodDef, where: string[]): string => {
    const indent = '  '.repeat(where.length - 1);
    const lines = Object.entries(def.shape ?? {}).map(([key, field]) => {
      const optional = field._zod.optout === 'optional' ? '?' : '';
      return `${indent}  ${IDENTIFIER.test(key) ? key : JSON.stringify(key)}${optional}: ${typeOf(field, [...where, key])};`;
    });
    // A loose object's catchall is `unknown`; a strict one's `never` adds nothing.
    if (def.catchall && def.catchall._zod.def.type !== 'never') lines.push(`${indent}  [key: string]: ${typeOf(def.catchall, [...where, '[key]'])};`);
    return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
  };

  return [...named]
    .map(([name, schema]) => {
      const s = schema as ZodLike;
      return s._zod.def.type === 'object' ? `export interface ${name} ${objectBody(s._zod.def, [name])}` : `export type ${name} = ${typeOf(s, [name], name)};`;
    })
    .join('\n');
}
