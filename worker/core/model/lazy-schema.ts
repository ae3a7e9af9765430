/**
 * A schema built on first use. The worker's start evaluates every module before it can answer, and building
 * the ~150 wire models (and their ~1,400 field schemas) took most of that; a request that parses no body
 * needs none of them. The returned stand-in builds the schema the first time any property of it is read
 * (`.safeParse`, `._zod`, `.shape`, …) and forwards everything to it, so it types and behaves as the schema.
 *
 * Methods read through the stand-in are zod's own and run with the stand-in as `this`, which forwards
 * every read to the built schema; a schema derived from it (`opt(X)`) may hold the stand-in, to the same effect.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  let building = false;
  const built = (): T => {
    if (schema) return schema;
    if (building) {
      throw new Error('lazySchema: schema read while it is being built (write the recursive field as a getter)');
    }
    building = true;
    try {
      schema = build();
    } finally {
      building = false;
    }
    return schema;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(built(), key),
    set: (_, key, value) => Reflect.set(built(), key, value),
    has: (_, key) => Reflect.has(built(), key),
    ownKeys: () => Reflect.ownKeys(built()),
    // The target is an empty object, so a property may only be reported as configurable.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(built(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(built(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(built(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(built()),
  });
}
