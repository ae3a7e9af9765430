/**
 * Records as JSON text, as faithful as IndexedDB's structured clone for what records hold: typed arrays
 * (snippet vectors, the search index's postings), ArrayBuffer, Date, Map, Set, BigInt, `undefined` (kept as
 * a property, as structured clone keeps it), -0, NaN and ±Infinity. Such a value is written as an object
 * `{"$t": <type>, "v": <value>}`; a plain object that has its own `$t` key is wrapped as `{"$t": "o", "v": …}`
 * so that it never reads back as something else. Key order is kept (the column is `json`, not `jsonb`).
 */

const TAG = '$t';

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

const TYPED: Record<string, new (buffer: ArrayBuffer) => TypedArray> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

function base64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
}

function bytes(text: string): ArrayBuffer {
  const buffer = Buffer.from(text, 'base64');
  // A fresh, aligned buffer of exactly that length (Buffer's pool is shared and may be unaligned).
  const copy = new ArrayBuffer(buffer.byteLength);
  new Uint8Array(copy).set(buffer);
  return copy;
}

function tagged(type: string, value: unknown) {
  return { [TAG]: type, v: value };
}

/** The name of a typed array's kind (a Buffer is stored as the Uint8Array it is, as structured clone does). */
function typedName(view: ArrayBufferView): string {
  if (view instanceof DataView) return 'DataView';
  for (const [name, Typed] of Object.entries(TYPED)) if (view instanceof Typed) return name;
  throw new TypeError(`records: cannot store a ${view.constructor.name}`);
}

/** Objects made by the escape below: their own `$t` is the one being escaped, not a new one. */
const escaped = new WeakSet<object>();

/** JSON.stringify's replacer: `this` is the holder, so the raw value (before `toJSON`) is `this[key]`. */
function replacer(this: unknown, key: string, json: unknown): unknown {
  const value = (this as Record<string, unknown>)[key];
  switch (typeof value) {
    case 'undefined':
      return tagged('u', 0);
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return tagged('n', Object.is(value, -0) ? '-0' : String(value));
    case 'bigint':
      return tagged('b', value.toString());
    case 'object': {
      if (value === null) return null;
      if (ArrayBuffer.isView(value)) return tagged(typedName(value), base64(value));
      if (value instanceof ArrayBuffer) return tagged('ArrayBuffer', base64(new Uint8Array(value)));
      if (value instanceof Date) return tagged('Date', value.getTime());
      if (value instanceof Map) return tagged('Map', [...value]);
      if (value instanceof Set) return tagged('Set', [...value]);
      if (json === value && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, TAG) && !escaped.has(value)) {
        const copy = { ...value };
        escaped.add(copy);
        return tagged('o', copy);
      }
      return json;
    }
    case 'function':
    case 'symbol':
      // Structured clone refuses these; JSON would drop them silently.
      throw new TypeError(`records: cannot store a ${typeof value} (at '${key}')`);
    default:
      return json;
  }
}

/** The JSON text of a record. */
export function encodeRecord(record: unknown): string {
  return JSON.stringify(record, replacer);
}

/** The record a text from `encodeRecord` holds (a new object each time). */
export function decodeRecord<T>(text: string): T {
  const value = JSON.parse(text) as unknown;
  // Most records hold no tagged value: skip the walk.
  return (text.includes('"$t"') ? revive(value) : value) as T;
}

function revive(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  const type = object[TAG];
  if (typeof type === 'string' && 'v' in object && Object.keys(object).length === 2) return untag(type, object.v);
  for (const key of Object.keys(object)) object[key] = revive(object[key]);
  return object;
}

function untag(type: string, v: unknown): unknown {
  switch (type) {
    case 'u':
      return undefined;
    case 'n':
      return Number(v);
    case 'b':
      return BigInt(v as string);
    case 'ArrayBuffer':
      return bytes(v as string);
    case 'DataView':
      return new DataView(bytes(v as string));
    case 'Date':
      return new Date(v as number);
    case 'Map':
      return new Map((v as [unknown, unknown][]).map(([k, x]) => [revive(k), revive(x)]));
    case 'Set':
      return new Set((v as unknown[]).map(revive));
    case 'o': {
      const object = v as Record<string, unknown>;
      for (const key of Object.keys(object)) object[key] = revive(object[key]);
      return object;
    }
    default: {
      const Typed = TYPED[type];
      if (!Typed) throw new TypeError(`records: unknown stored type '${type}'`);
      return new Typed(bytes(v as string));
    }
  }
}
