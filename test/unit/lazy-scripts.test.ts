/**
 * Lazy scripts run only when their bytes are the build's (review M10): `loadLazyScript` checks the SHA-256
 * the build recorded with SubtleCrypto before the `eval`; a changed script (in the cache or on the way) is
 * refused, as a missing one would be, with a console warning, and its cached copy is dropped.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLazyScript, type LazyFiles } from '../../worker/browser/lazy-scripts.ts';

/** Where the host serves the lazy files; the build names them relative to it. */
const ASSETS = new URL('https://tessera.test/tessera-assets/');
const PATH = 'lazy/demo-0123456789.js';
const URL_OF = 'https://tessera.test/tessera-assets/lazy/demo-0123456789.js';
let n = 0;

/** A lazy script `name` that defines its exports and counts its runs in `globalThis.__lazyRuns`. */
const scriptOf = (name: string, answer: number) =>
  `globalThis.__lazyRuns = (globalThis.__lazyRuns ?? 0) + 1;\nvar __tesseraLazy_${name} = { answer: ${answer} };\n`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function build(name: string, text: string): void {
  const files: LazyFiles = { cache: 'tessera-lazy-test', scripts: { [name]: { path: PATH, sha256: sha256(text) } }, precache: [PATH] };
  vi.stubGlobal('TESSERA_LAZY', files);
}

/** The network answers `text` for the script's URL. */
function serve(text: string): string[] {
  const fetched: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(String(url));
    return new Response(text, { headers: { 'content-type': 'text/javascript' } });
  });
  return fetched;
}

const runs = () => (globalThis as { __lazyRuns?: number }).__lazyRuns ?? 0;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('loadLazyScript', () => {
  it("runs a script whose bytes have the build's SHA-256 and returns its exports, once", async () => {
    const name = `ok${++n}`;
    const text = scriptOf(name, 42);
    build(name, text);
    serve(text);
    const before = runs();
    expect(await loadLazyScript<{ answer: number }>(name, ASSETS)).toEqual({ answer: 42 });
    expect(await loadLazyScript<{ answer: number }>(name, ASSETS)).toEqual({ answer: 42 });
    expect(runs() - before).toBe(1);
  });

  it('refuses a tampered script without running it, with a console warning, as it would a missing one', async () => {
    const name = `bad${++n}`;
    build(name, scriptOf(name, 42));
    serve(scriptOf(name, 666)); // one character off
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const before = runs();
    await expect(loadLazyScript(name, ASSETS)).rejects.toThrow(new RegExp(`lazy script ${name}: .* is not the build's .*; not run`));
    expect(runs()).toBe(before);
    expect((globalThis as Record<string, unknown>)[`__tesseraLazy_${name}`]).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/is not the build's/));
    // A missing script fails the same way: the callers' fallback is the same.
    await expect(loadLazyScript('absent', ASSETS)).rejects.toThrow('lazy script absent: not part of this build');
  });

  it('drops a tampered copy from the cache, so the next load fetches the real one and runs it', async () => {
    const name = `cached${++n}`;
    const good = scriptOf(name, 7);
    build(name, good);
    let cached: string | undefined = scriptOf(name, 8);
    const deleted: string[] = [];
    vi.stubGlobal('caches', {
      open: async () => ({
        match: async () => (cached === undefined ? undefined : new Response(cached)),
        delete: async (url: string) => {
          deleted.push(url);
          cached = undefined;
          return true;
        },
      }),
    });
    const fetched = serve(good);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(loadLazyScript(name, ASSETS)).rejects.toThrow(/not the build's/);
    expect(deleted).toEqual([URL_OF]);
    expect(fetched).toEqual([]);
    expect(await loadLazyScript<{ answer: number }>(name, ASSETS)).toEqual({ answer: 7 });
    expect(fetched).toEqual([URL_OF]);
  });
});
