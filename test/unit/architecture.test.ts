/**
 * The shape the folders promise: worker/core is runtime-agnostic and knows no host, so no core module
 * imports from a host (worker/browser, worker/node) or from the page (app/); no host imports from the
 * page; the page's client shares runtime code with the worker only through worker/core (and the
 * page–worker channel's strings); and the app's UI reaches the worker only through app/client and the
 * HTTP API (types from the wire schemas aside). docs/architecture.md says why. And no source file is so
 * long that it does more than one job (600 lines; data fixtures aside).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string, pattern = /\.tsx?$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

/** A source file longer than this is split along its seams. */
const MAX_SOURCE_LINES = 600;
/** Data written out as code, not logic: exempt from the limit. */
const DATA_FIXTURES = new Set(['test/fixtures/language-sample.ts']);

/** Every module a file imports (static and dynamic), as paths relative to the repository, or package names. */
function importsOf(file: string): { spec: string; typeOnly: boolean; target: string }[] {
  const text = readFileSync(file, 'utf8');
  const found: { spec: string; typeOnly: boolean; target: string }[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
    const spec = m[3] ?? m[4]!;
    const target = spec.startsWith('.') ? relative(root, resolve(file, '..', spec)) : spec;
    found.push({ spec, typeOnly: !!m[2], target });
  }
  return found;
}

describe('architecture', () => {
  it('worker/core imports nothing from a host or the page', () => {
    const bad = sources(join(root, 'worker/core')).flatMap((file) =>
      importsOf(file)
        .filter((i) => /^(worker\/browser|worker\/node|app)\//.test(i.target) || i.spec.startsWith('node:'))
        .map((i) => `${relative(root, file)} imports ${i.spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('the hosts import nothing from the page', () => {
    const bad = ['worker/browser', 'worker/node'].flatMap((dir) =>
      sources(join(root, dir)).flatMap((file) =>
        importsOf(file)
          .filter((i) => i.target.startsWith('app/'))
          .map((i) => `${relative(root, file)} imports ${i.spec}`),
      ),
    );
    expect(bad).toEqual([]);
  });

  it('the page client runs worker code from worker/core only (and the channel strings)', () => {
    const bad = sources(join(root, 'app/client')).flatMap((file) =>
      importsOf(file)
        .filter((i) => i.target.startsWith('worker/') && !i.typeOnly)
        .filter((i) => !i.target.startsWith('worker/core/') && i.target !== 'worker/browser/protocol.ts')
        .map((i) => `${relative(root, file)} imports ${i.spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('routes parse HTTP and call the services: they import no domain module', () => {
    // What a route may use besides Hono and its fellow route modules: the service layer, the context
    // type, errors, the Idempotency-Key machinery and the stream protocol's names.
    const allowed = ['worker/core/services.ts', 'worker/core/deps.ts', 'worker/core/errors.ts', 'worker/core/idempotency.ts', 'worker/core/streams/protocol.ts'];
    const bad = sources(join(root, 'worker/core/routes')).flatMap((file) =>
      importsOf(file)
        .filter((i) => !(i.spec === 'hono' || i.spec.startsWith('hono/') || i.target.startsWith('worker/core/routes/') || allowed.includes(i.target)))
        .map((i) => `${relative(root, file)} imports ${i.spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('the services are the way in: app.ts imports only routes, errors and the context', () => {
    const bad = importsOf(join(root, 'worker/core/app.ts'))
      .filter((i) => !(i.spec.startsWith('hono') || i.target.startsWith('worker/core/routes/') || ['worker/core/deps.ts', 'worker/core/errors.ts'].includes(i.target)))
      .map((i) => `worker/core/app.ts imports ${i.spec}`);
    expect(bad).toEqual([]);
  });

  it('the app UI reaches the worker through app/client only (wire types aside)', () => {
    const bad = sources(join(root, 'app/ui')).flatMap((file) =>
      importsOf(file)
        .filter((i) => i.target.startsWith('worker/') && !i.typeOnly)
        .map((i) => `${relative(root, file)} imports ${i.spec}`),
    );
    expect(bad).toEqual([]);
  });

  it(`no source file is over ${MAX_SOURCE_LINES} lines (data fixtures aside)`, () => {
    const files = ['worker', 'app', 'test', 'scripts'].flatMap((dir) => sources(join(root, dir), /\.(tsx?|mjs)$/));
    for (const name of readdirSync(root)) if (/\.(tsx?|mjs)$/.test(name)) files.push(join(root, name));
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > MAX_SOURCE_LINES && !DATA_FIXTURES.has(f.file))
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });
});
