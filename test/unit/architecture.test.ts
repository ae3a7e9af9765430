/**
 * The shape the folders promise: worker/core is runtime-agnostic and knows no host, so no core module
 * imports from a host (worker/browser, worker/node) or from the page (app/); no host imports from the
 * page; the page's client shares runtime code with the worker only through worker/core (and the
 * page–worker channel's strings); and the app's UI reaches the worker only through app/client and the
 * HTTP API (types from the wire schemas aside). docs/architecture.md says why. And no source file is so
 * long that it does more than one job (600 lines; data fixtures aside).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** Every module a file imports (static, dynamic and bare), as paths relative to the repository, or package names. */
function importsOf(file: string): { spec: string; typeOnly: boolean; target: string }[] {
  return importsIn(readFileSync(file, 'utf8'), file);
}

/** `importsOf` for a file's text. */
function importsIn(text: string, file: string): { spec: string; typeOnly: boolean; target: string }[] {
  const found: { spec: string; typeOnly: boolean; target: string }[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
    const spec = m[3] ?? m[4] ?? m[5]!;
    const target = spec.startsWith('.') ? relative(root, resolve(file, '..', spec)) : spec;
    found.push({ spec, typeOnly: !!m[2], target });
  }
  return found;
}

/** The text without its comments (line and block; good enough for this code's style, which puts no `//` in strings it checks). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('architecture', () => {
  it('finds every kind of import: named, type-only, re-exported, dynamic and bare (side effects only)', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../browser/b.ts';",
      "export * from './c.ts';",
      "import '../browser/side-effect.ts';",
      "const lazy = () => import('./lazy.ts');",
    ].join('\n');
    expect(importsIn(text, join(root, 'worker/core/x.ts'))).toEqual([
      { spec: './a.ts', typeOnly: false, target: 'worker/core/a.ts' },
      { spec: '../browser/b.ts', typeOnly: true, target: 'worker/browser/b.ts' },
      { spec: './c.ts', typeOnly: false, target: 'worker/core/c.ts' },
      { spec: '../browser/side-effect.ts', typeOnly: false, target: 'worker/browser/side-effect.ts' },
      { spec: './lazy.ts', typeOnly: false, target: 'worker/core/lazy.ts' },
    ]);
  });

  it('worker/core imports nothing from a host or the page', () => {
    const bad = sources(join(root, 'worker/core')).flatMap((file) =>
      importsOf(file)
        .filter((i) => /^(worker\/browser|worker\/node|app)\//.test(i.target) || i.spec.startsWith('node:'))
        .map((i) => `${relative(root, file)} imports ${i.spec}`),
    );
    expect(bad).toEqual([]);
  });

  it('worker/core names no host-only global, evals nothing, and typechecks with the ES libs alone', () => {
    // The typecheck refuses what neither the ES libs nor worker/core/web-platform.d.ts declare (the next
    // test); this also catches what compiles anywhere (`eval`) or hides from types (`typeof caches`).
    // A method of that name (`private process(…)`) is not the global.
    const hostOnly = /(?<=^|[\s;=(,!&|?:{[])(?<!\b(?:private|protected|public|static|async|function)\s+)(?:process|Buffer|require|__dirname|importScripts|caches|TESSERA_LAZY\w*)\b\s*[.(]|\btypeof\s+(?:caches|location|self|window|document|TESSERA_LAZY\w*)\b|\beval\b|\bnew\s+Function\s*\(/;
    const bad = sources(join(root, 'worker/core')).flatMap((file) =>
      withoutComments(readFileSync(file, 'utf8'))
        .split('\n')
        .filter((line) => hostOnly.test(line))
        .map((line) => `${relative(root, file)}: ${line.trim()}`),
    );
    expect(bad).toEqual([]);
    const config = JSON.parse(withoutComments(readFileSync(join(root, 'worker/core/tsconfig.json'), 'utf8'))) as { compilerOptions: { lib: string[]; types: string[] } };
    expect(config.compilerOptions.lib.filter((lib) => !/^ES\w+$/i.test(lib))).toEqual([]);
    expect(config.compilerOptions.types).toEqual([]);
    const built = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { references: { path: string }[] };
    expect(built.references.map((r) => r.path)).toContain('./worker/core/tsconfig.json');
  });

  it('a Node-only global does not typecheck in the core, whatever the types of its packages load', () => {
    // A package's types can bring in Node's (transformers.js's import sharp's, which do): the core's
    // typecheck of a probe that imports the types of every package the core imports, beside the core's
    // own declarations, must fail on `process` and `Buffer`, and only on them.
    const core = join(root, 'worker/core');
    const referencing = sources(core).filter((file) => /^\/\/\/\s*<reference\s+(types|lib)=/m.test(readFileSync(file, 'utf8')));
    expect(referencing).toEqual([]);
    const packages = [...new Set(sources(core).flatMap((file) => importsOf(file).map((i) => i.spec)).filter((spec) => !spec.startsWith('.')))];
    expect(packages).toContain('@huggingface/transformers');
    // Inside the repository, so the probe resolves the packages as the core does.
    const dir = mkdtempSync(join(root, 'node_modules/.tessera-core-types-'));
    try {
      const probe = [...packages.map((name, n) => `export type * as p${n} from '${name}';`), 'export const nodeOnly = [process.env, Buffer];'];
      writeFileSync(join(dir, 'probe.ts'), probe.join('\n'));
      const options = { noEmit: true, composite: false, emitDeclarationOnly: false, rootDir: root };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(core, 'tsconfig.json'), compilerOptions: options, include: [join(core, '**/*.d.ts'), 'probe.ts'] }));
      const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
      const errors = tsc.stdout.split('\n').filter((line) => line.includes('error TS'));
      expect(errors.map((line) => /Cannot find name '(\w+)'/.exec(line)?.[1] ?? line)).toEqual(['process', 'Buffer']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

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

  it('the page client runs worker code from worker/core only (and the channel strings of both workers)', () => {
    const bad = sources(join(root, 'app/client')).flatMap((file) =>
      importsOf(file)
        .filter((i) => i.target.startsWith('worker/') && !i.typeOnly)
        .filter((i) => !i.target.startsWith('worker/core/') && !['worker/browser/protocol.ts', 'worker/embedded/protocol.ts'].includes(i.target))
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
