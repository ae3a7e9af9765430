/**
 * The paths the worker answers the API under, shared by both sides: the page's `register({base, aliases})`
 * puts them on the worker's script URL (`/sw.js?base=/tessera&alias=/api`), and the worker reads them
 * there (a service worker has no other way to receive options before its first request).
 *
 * - `base`: where the API lives (default `/api`); requests under it go to the app.
 * - `alias` (repeatable): other prefixes answered as if they were the base (`/api/assets` = `/tessera/assets`
 *   with the alias `/api`), for code written against another path; or origins (`http://localhost:39300`)
 *   whose requests are answered at their root path (`http://localhost:39300/assets` = `/tessera/assets`),
 *   for code written for the desktop service.
 *
 * A base or alias is `/` followed by one or more segments of letters, digits and `-._~`, with no trailing
 * slash (`/api`, `/tessera/v1`).
 */

export const DEFAULT_BASE = '/api';
export const BASE_PARAM = 'base';
export const ALIAS_PARAM = 'alias';

export interface BasePaths {
  base: string;
  aliases: string[];
}

const PATH = /^(\/[A-Za-z0-9._~-]+)+$/;

/** The path without trailing slashes, if it is a valid base; else throws a TypeError saying why. */
export function checkBase(value: string, what = 'base'): string {
  const path = value.replace(/\/+$/, '');
  if (!PATH.test(path) || path.split('/').some((s) => s === '.' || s === '..')) {
    throw new TypeError(`tessera: the ${what} '${value}' is not a path like '/api': '/' and segments of letters, digits and -._~`);
  }
  return path;
}

/**
 * An alias: a path as `checkBase` takes it, or an absolute http(s) origin (`http://localhost:39300`; a
 * `ws:`/`wss:` URL names the same origin as `http:`/`https:`), returned as the origin. Else a TypeError.
 */
export function checkAlias(value: string): string {
  if (value.startsWith('/')) return checkBase(value, 'alias');
  let url: URL | undefined;
  try {
    url = new URL(value.replace(/^ws(s?):/, 'http$1:'));
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new TypeError(`tessera: the alias '${value}' is neither a path like '/api' nor an origin like 'http://localhost:39300'`);
  }
  return url.origin;
}

/**
 * The script URL registering a worker for these paths: `scriptUrl` as given when the base is the default
 * and there are no aliases (so an existing registration stays as it was), else with `base` and `alias`
 * parameters set.
 */
export function scriptUrlFor(scriptUrl: string, paths: BasePaths, here: string): string {
  if (paths.base === DEFAULT_BASE && paths.aliases.length === 0) return scriptUrl;
  const url = new URL(scriptUrl, here);
  url.searchParams.set(BASE_PARAM, paths.base);
  url.searchParams.delete(ALIAS_PARAM);
  for (const alias of paths.aliases) url.searchParams.append(ALIAS_PARAM, alias);
  return url.href;
}

/** The paths a worker's script URL names (the default base when it names none). Throws on a bad one. */
export function basePathsOf(scriptUrl: string): BasePaths {
  const params = new URL(scriptUrl).searchParams;
  const base = checkBase(params.get(BASE_PARAM) ?? DEFAULT_BASE);
  const aliases = params.getAll(ALIAS_PARAM).map(checkAlias).filter((alias) => alias !== base);
  return { base, aliases };
}

/**
 * The request path as the app sees it: the path itself when it is the base or under it, the path moved
 * to the base when it is under an alias, undefined when it is neither (not the API's).
 */
export function apiPath(pathname: string, paths: BasePaths): string | undefined {
  if (pathname === paths.base || pathname.startsWith(`${paths.base}/`)) return pathname;
  for (const alias of paths.aliases) {
    if (alias.startsWith('/') && (pathname === alias || pathname.startsWith(`${alias}/`))) return paths.base + pathname.slice(alias.length);
  }
  return undefined;
}

/**
 * The path under the base that a request's `url` names, for a worker at `origin`: `apiPath` of a
 * same-origin URL; the base plus the path of a URL at an alias origin; undefined for anything else.
 */
export function apiUrlPath(url: URL, paths: BasePaths, origin: string): string | undefined {
  if (url.origin === origin) return apiPath(url.pathname, paths);
  if (paths.aliases.includes(url.origin)) return url.pathname === '/' ? paths.base : paths.base + url.pathname;
  return undefined;
}
