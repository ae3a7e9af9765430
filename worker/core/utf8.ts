/**
 * Text as UTF-8 bytes, for the large bodies the service builds itself (JSON answers, backup lines; a
 * stream's frames are small and keep `TextEncoder.encode`).
 *
 * `TextEncoder.encode` allocates its result on a slow path in Chromium: a 3 MB listing took 17-23 ms to
 * encode, where `encodeInto` a buffer of the string's length took 3 ms (docs/performance.md, "The listing
 * without the asset cache"). A string of ASCII alone (most JSON of code) fits that buffer exactly; the rest
 * of another is encoded into room made for it.
 */
const encoder = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(text.length);
  const { read, written } = encoder.encodeInto(text, bytes);
  // Every unit read took at least one byte: all read means all ASCII, the buffer exactly full.
  if (read === text.length) return bytes;
  // At most 3 bytes a UTF-16 unit, so the rest fits; `encodeInto` stops at a whole code point, so the
  // rest starts at one.
  const grown = new Uint8Array(written + (text.length - read) * 3);
  grown.set(bytes.subarray(0, written));
  const rest = encoder.encodeInto(text.slice(read), grown.subarray(written));
  if (rest.read !== text.length - read) return encoder.encode(text);
  return grown.slice(0, written + rest.written);
}
