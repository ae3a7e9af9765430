/**
 * The paths the worker answers the API under, shared by both sides: the page's `register({base, aliases})`
 * puts them on the worker's script URL (`/sw.js?base=/tessera&alias=/api`), and the worker reads them
 * there (a service worker has no other way to receive options before its first request).
 *
 * - `base`: where the API lives (default `/api`); requests under it go to the app.
 * - `alias` (repeatable): other prefixes answered as if they were the base (`/api/assets` = `/tessera/assets`
 *   with the alias `/api`), for code written against another path.
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
  const aliases = params.getAll(ALIAS_PARAM).map((alias) => checkBase(alias, 'alias')).filter((alias) => alias !== base);
  return { base, aliases };
}

/**
 * The request path as the app sees it: the path itself when it is the base or under it, the path moved
 * to the base when it is under an alias, undefined when it is neither (not the API's).
 */
export function apiPath(pathname: string, paths: BasePaths): string | undefined {
  if (pathname === paths.base || pathname.startsWith(`${paths.base}/`)) return pathname;
  for (const alias of paths.aliases) {
    if (pathname === alias || pathname.startsWith(`${alias}/`)) return paths.base + pathname.slice(alias.length);
  }
  return undefined;
}
