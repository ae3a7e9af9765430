/**
 * Text as UTF-8 bytes, for the bodies the service builds itself (JSON answers, backup lines).
 *
 * `TextEncoder.encode` allocates its result on a slow path in Chromium: a 3 MB listing took 17-23 ms to
 * encode, where `encodeInto` a buffer of the string's length took 3 ms (docs/performance.md, "Reads
 * without the asset cache"). A string of ASCII alone (most JSON of code) fits that buffer exactly; the
 * rest of another is encoded into room grown for it.
 */
const encoder = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  let bytes = new Uint8Array(text.length);
  let { read, written } = encoder.encodeInto(text, bytes);
  while (read < text.length) {
    // At most 3 bytes a UTF-16 unit; `encodeInto` stops at a whole code point, so the rest starts at one.
    const grown = new Uint8Array(written + (text.length - read) * 3);
    grown.set(bytes.subarray(0, written));
    const more = encoder.encodeInto(text.slice(read), grown.subarray(written));
    read += more.read;
    written += more.written;
    bytes = grown;
  }
  return written === bytes.length ? bytes : bytes.slice(0, written);
}
