/**
 * The sizes of the build the bench serves, raw and gzipped: `/sw.js` (compiled at every worker start, so
 * every 100 KB costs start time), each lazy script (`/lazy/<name>-<hash>.js`, loaded on first use), and
 * what the page loads before anything else: the scripts and styles index.html links and, when the entry
 * imports it, the UI chunk (`assets/app-<hash>.js`). test/bench/run.ts records them in results.json
 * (`build`), and docs/performance.md shows them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FileSize {
  /** URL path in the build. */
  path: string;
  bytes: number;
  gzipBytes: number;
}

export interface BuildSizes {
  worker: FileSize;
  lazy: FileSize[];
  /** index.html's own scripts and styles, then the UI chunk the entry imports. */
  firstScreen: FileSize[];
  /** The app shell the worker keeps offline at install (worker/browser/app-shell.ts): a first visit waits for each file. */
  shell: { files: number; bytes: number };
}

function sizeOf(dist: string, path: string): FileSize {
  const content = readFileSync(join(dist, path));
  return { path, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

export function measureBuild(dist: string): BuildSizes {
  const lazyDir = join(dist, 'lazy');
  const lazy = existsSync(lazyDir) ? readdirSync(lazyDir).filter((name) => name.endsWith('.js')).sort().map((name) => sizeOf(dist, `/lazy/${name}`)) : [];
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  const linked = [...page.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const firstScreen = linked.map((path) => sizeOf(dist, path));
  for (const path of linked.filter((p) => p.endsWith('.js'))) {
    const ui = /["'`]\.\/(app-[\w-]+\.js)["'`]/.exec(readFileSync(join(dist, path), 'utf8'))?.[1];
    if (ui && !linked.includes(`/assets/${ui}`)) firstScreen.push(sizeOf(dist, `/assets/${ui}`));
  }
  return { worker: sizeOf(dist, '/sw.js'), lazy, firstScreen, shell: shellOf(dist) };
}

/** The shell's files, from the lists the build defined in `/sw.js` (`TESSERA_SHELL`'s `required` and `optional`). */
function shellOf(dist: string): { files: number; bytes: number } {
  const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
  const paths = ['required', 'optional'].flatMap((list) => JSON.parse(new RegExp(`${list}:(\\[[^\\]]*\\])`).exec(worker)?.[1] ?? '[]') as string[]);
  return { files: paths.length, bytes: paths.reduce((sum, path) => sum + readFileSync(join(dist, path)).length, 0) };
}
