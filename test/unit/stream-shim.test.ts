/** Which URLs the WebSocket shim (app/client/shim.ts) takes for the API, and which it leaves alone. */
import { describe, expect, it } from 'vitest';
import { apiPathOf } from '../../app/client/shim.ts';

const here = new URL('http://localhost:4173/library');

describe('apiPathOf', () => {
  it('maps ws:/wss: URLs of this host under the base to the path below it', () => {
    expect(apiPathOf('ws://localhost:4173/api/assets/stream/identifiers', {}, here)).toBe('/assets/stream/identifiers');
    expect(apiPathOf('wss://localhost:4173/api/qgpt/stream', {}, here)).toBe('/qgpt/stream');
    expect(apiPathOf(new URL('ws://localhost:4173/api/assets/stream?x=1'), {}, here)).toBe('/assets/stream');
    // http(s) and relative URLs, which a WebSocket turns into ws(s)
    expect(apiPathOf('http://localhost:4173/api/assets/stream', {}, here)).toBe('/assets/stream');
    expect(apiPathOf('/api/assets/stream/transferables', {}, here)).toBe('/assets/stream/transferables');
    expect(apiPathOf('ws://localhost:4173/tessera/assets/stream', { base: '/tessera/' }, here)).toBe('/assets/stream');
  });

  it('leaves other hosts, other paths and other schemes to the real WebSocket', () => {
    for (const url of [
      'ws://example.com/api/assets/stream',
      'ws://localhost:9999/api/assets/stream',
      'ws://localhost:4173/apix/assets/stream',
      'ws://localhost:4173/api',
      'ftp://localhost:4173/api/assets/stream',
      'not a url at all ::',
    ]) {
      expect(apiPathOf(url, {}, here), url).toBeUndefined();
    }
  });

  it('takes URLs under an alias (the desktop port) as paths under the base', () => {
    const options = { aliases: ['ws://localhost:39300', 'http://127.0.0.1:1000/pieces/'] };
    expect(apiPathOf('ws://localhost:39300/assets/stream/identifiers', options, here)).toBe('/assets/stream/identifiers');
    expect(apiPathOf('ws://127.0.0.1:1000/pieces/qgpt/stream', options, here)).toBe('/qgpt/stream');
    expect(apiPathOf('wss://localhost:39300/assets/stream', options, here)).toBeUndefined(); // scheme differs
    expect(apiPathOf('ws://localhost:39301/assets/stream', options, here)).toBeUndefined();
  });
});
