/**
 * The client's `base` reaches the worker (review M14): `register({base, aliases})` puts them on the worker's
 * script URL, the worker reads them there and answers under them; `ready()` gives up on a worker that never
 * takes control of the page instead of waiting forever.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiPath, apiUrlPath, basePathsOf, checkAlias, checkBase, scriptUrlFor } from '../../worker/core/base-path.ts';

const here = 'https://example.test/app/';

describe('base paths on the script URL', () => {
  it('the default base leaves the script URL as given; another base or aliases become parameters the worker reads back', () => {
    expect(scriptUrlFor('/sw.js', { base: '/api', aliases: [] }, here)).toBe('/sw.js');
    const url = scriptUrlFor('/sw.js?embedding-model=x', { base: '/tessera', aliases: ['/api', '/v1/api'] }, here);
    expect(url).toBe('https://example.test/sw.js?embedding-model=x&base=%2Ftessera&alias=%2Fapi&alias=%2Fv1%2Fapi');
    expect(basePathsOf(url)).toEqual({ base: '/tessera', aliases: ['/api', '/v1/api'] });
    expect(basePathsOf('https://example.test/sw.js')).toEqual({ base: '/api', aliases: [] });
    // A base given again replaces the one on the URL.
    expect(basePathsOf(scriptUrlFor(url, { base: '/other', aliases: [] }, here))).toEqual({ base: '/other', aliases: [] });
  });

  it('a base is a path of plain segments, without a trailing slash; anything else is refused', () => {
    expect(checkBase('/tessera/')).toBe('/tessera');
    expect(checkBase('/a/b-c_d.e~f')).toBe('/a/b-c_d.e~f');
    for (const bad of ['', '/', 'api', '/a//b', '/a b', '/a/../b', '/..', '/a?b', '/a#b', '/ä']) {
      expect(() => checkBase(bad), JSON.stringify(bad)).toThrow(/not a path like '\/api'/);
    }
    expect(() => basePathsOf('https://example.test/sw.js?base=nope')).toThrow(TypeError);
    expect(() => basePathsOf('https://example.test/sw.js?alias=/a/../b')).toThrow(/alias/);
  });

  it('requests under the base are the API, under an alias are moved to the base, others are not the API', () => {
    const paths = { base: '/tessera', aliases: ['/api'] };
    expect(apiPath('/tessera', paths)).toBe('/tessera');
    expect(apiPath('/tessera/assets', paths)).toBe('/tessera/assets');
    expect(apiPath('/api/assets/create', paths)).toBe('/tessera/assets/create');
    expect(apiPath('/api', paths)).toBe('/tessera');
    for (const other of ['/', '/index.html', '/tesserax/assets', '/apis/x', '/sw.js']) expect(apiPath(other, paths), other).toBeUndefined();
    expect(apiPath('/api/assets', { base: '/tessera', aliases: [] })).toBeUndefined();
  });

  it('an alias origin (the desktop address) is answered at its root path; other origins are not the API', () => {
    expect(checkAlias('http://localhost:39300')).toBe('http://localhost:39300');
    expect(checkAlias('ws://localhost:39300/')).toBe('http://localhost:39300');
    expect(checkAlias('/api')).toBe('/api');
    for (const bad of ['localhost:39300', 'http://localhost:39300/api', 'ftp://x.test', 'http://u@x.test', 'api']) {
      expect(() => checkAlias(bad), bad).toThrow(TypeError);
    }
    const paths = { base: '/tessera/api', aliases: [checkAlias('http://localhost:39300'), '/api'] };
    const origin = 'https://app.test';
    expect(apiUrlPath(new URL('http://localhost:39300/assets?x=1'), paths, origin)).toBe('/tessera/api/assets');
    expect(apiUrlPath(new URL('http://localhost:39300/'), paths, origin)).toBe('/tessera/api');
    expect(apiUrlPath(new URL('https://app.test/api/assets'), paths, origin)).toBe('/tessera/api/assets');
    expect(apiUrlPath(new URL('https://app.test/tessera/api/assets'), paths, origin)).toBe('/tessera/api/assets');
    for (const other of ['http://localhost:39301/assets', 'https://other.test/tessera/api/assets', 'https://app.test/index.html']) {
      expect(apiUrlPath(new URL(other), paths, origin), other).toBeUndefined();
    }
    // On the script URL, as register() puts it there.
    expect(basePathsOf(scriptUrlFor('/sw.js', { base: '/tessera/api', aliases: ['http://localhost:39300'] }, here)).aliases).toEqual(['http://localhost:39300']);
  });
});

/** A service-worker container whose worker activates (or not) but never takes control of the page. */
function fakeContainer(active: boolean) {
  const registered: string[] = [];
  const claims: unknown[] = [];
  const worker = { scriptURL: 'https://example.test/sw.js', postMessage: (message: unknown) => claims.push(message) };
  const container = {
    controller: null,
    ready: active ? Promise.resolve({ active: worker }) : new Promise(() => {}),
    register: async (url: string) => {
      registered.push(url);
      return {};
    },
    addEventListener: () => {},
  };
  return { container, registered, claims };
}

describe('register() and ready() in the page', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  async function client(active: boolean) {
    vi.resetModules();
    const fake = fakeContainer(active);
    vi.stubGlobal('navigator', { serviceWorker: fake.container });
    vi.stubGlobal('location', new URL(here));
    const module = await import('../../app/client/index.ts');
    return { ...fake, module };
  }

  it('registers the worker with the base on its script URL; a bad base is refused before anything is registered', async () => {
    const { module, registered } = await client(true);
    await expect(module.register({ base: '/a b' })).rejects.toThrow(/not a path like/);
    expect(registered).toEqual([]);
    await module.register({ base: '/tessera/', aliases: ['/api'] });
    expect(registered).toEqual(['https://example.test/sw.js?base=%2Ftessera&alias=%2Fapi']);
    // The same options again: the same registration; other options: refused.
    await module.register({ base: '/tessera', aliases: ['/api'] });
    await expect(module.register({ base: '/tessera' })).rejects.toThrow(/already registered/);
  });

  for (const active of [true, false]) {
    it(`ready() gives up with a clear error when ${active ? 'the active worker never claims the page' : 'no worker ever activates'}`, async () => {
      vi.useFakeTimers();
      const { module, claims } = await client(active);
      void module.register();
      const outcome = module.ready().then(
        () => 'ready',
        (error: Error) => error.message,
      );
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await outcome).toMatch(
        active ? /did not take control of this page after 15 attempts \(active worker .* does not claim it\)/ : /did not take control of this page after 15 attempts \(no worker became active\)/,
      );
      expect(claims.length).toBe(active ? 15 : 0);
    });
  }
});
