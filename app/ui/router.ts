import { signal } from '@preact/signals';

/**
 * Where the app is. The view lives in the hash (`#/asset/<id>`, `#/asset/<id>/edit`, `#/new`, `#/ask`
 * (`?assets=a,b` to ask about those), `#/settings`; anything else is the library) and the list's query and filters in the query string, so a
 * reload or a shared link keeps both, and the server (or the offline shell) only ever serves `/`.
 */
export type Route =
  | { view: 'library' }
  | { view: 'asset'; id: string }
  | { view: 'edit'; id: string }
  | { view: 'new' }
  | { view: 'ask'; assets?: string[] }
  | { view: 'settings' };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'asset' && parts[1]) return parts[2] === 'edit' ? { view: 'edit', id: parts[1] } : { view: 'asset', id: parts[1] };
  if (parts[0] === 'new') return { view: 'new' };
  if (parts[0] === 'ask') {
    const assets = (new URLSearchParams(search).get('assets') ?? '').split(',').filter(Boolean);
    return assets.length ? { view: 'ask', assets } : { view: 'ask' };
  }
  if (parts[0] === 'settings') return { view: 'settings' };
  return { view: 'library' };
}

export function hrefOf(route: Route): string {
  switch (route.view) {
    case 'asset':
      return `#/asset/${encodeURIComponent(route.id)}`;
    case 'edit':
      return `#/asset/${encodeURIComponent(route.id)}/edit`;
    case 'ask':
      return route.assets?.length ? `#/ask?assets=${route.assets.map(encodeURIComponent).join(',')}` : '#/ask';
    case 'library':
      return '#/';
    default:
      return `#/${route.view}`;
  }
}

export const route = signal<Route>(parseRoute(location.hash));
addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));

export function navigate(to: Route): void {
  const href = hrefOf(to);
  if (location.hash !== href) location.hash = href;
  route.value = parseRoute(href);
}
