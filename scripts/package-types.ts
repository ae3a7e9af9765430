/**
 * The package's declarations (scripts/package.ts): one self-contained `.d.ts` per export in pkg/types/,
 * which a host project type-checks without `skipLibCheck` and without any of this repository's
 * dependencies (zod, transformers.js, the language model's package).
 *
 * 1. tsc emits each entry's declarations, with every module they name, into a staging folder.
 * 2. There each type inferred from a zod schema (`export type X = z.infer<typeof XSchema>`) becomes a
 *    plain declaration generated from that schema (./wire-types.ts), which tsc checks equal to `z.infer`;
 *    what `tessera/client` re-exports of the model (app/client/model.ts) is those types and nothing
 *    else: the schemas are the service's, not the host's.
 * 3. api-extractor rolls each entry's declarations up into one file, keeping only what its exports name
 *    (it reads them with the TypeScript it bundles: TypeScript 7 has no compiler API). A bundle that
 *    still imports a package fails the build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { repoRoot } from './worker-bundle.ts';
import { declareWireTypes } from './wire-types.ts';

export interface DeclarationEntry {
  /** The export's name: its declarations are `<out>/<name>.d.ts`. */
  name: string;
  source: string;
  /** The libs its program needs (a worker's and a page's cannot share one program). */
  lib: string[];
}

const STAGING = join(repoRoot, '.scratch', 'package-types');
const WIRE = join(STAGING, 'wire-types.d.ts');
/** What `tessera/client` exports of the model (app/client/model.ts): its types, not its schemas. */
const CLIENT_MODEL = 'app/client/model.d.ts';
const ZOD_INFERRED = /^export type (\w+) = z\.infer<typeof (\w+)>;$/gm;
const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');

const COMPILER_OPTIONS = ['--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--strict', '--skipLibCheck', '--allowImportingTsExtensions',
  '--verbatimModuleSyntax', '--resolveJsonModule', '--types', '', '--jsx', 'react-jsx', '--jsxImportSource', 'preact'];

export async function writeDeclarations(entries: DeclarationEntry[], out: string): Promise<void> {
  rmSync(STAGING, { recursive: true, force: true });
  const libs = [...new Set(entries.map((entry) => entry.lib.join(',')))];
  for (const lib of libs) {
    const files = entries.filter((entry) => entry.lib.join(',') === lib).map((entry) => entry.source);
    execFileSync(tsc, ['--ignoreConfig', ...files, '--declaration', '--emitDeclarationOnly', '--outDir', STAGING, '--rootDir', repoRoot, '--lib', lib, ...COMPILER_OPTIONS], { cwd: repoRoot, stdio: 'inherit' });
  }
  await plainWireTypes();

  mkdirSync(out, { recursive: true });
  for (const entry of entries) {
    const mainEntryPointFilePath = join(STAGING, entry.source.replace(/\.ts$/, '.d.ts'));
    const bundled = join(out, `${entry.name}.d.ts`);
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: STAGING,
        mainEntryPointFilePath,
        compiler: {
          overrideTsconfig: {
            compilerOptions: { lib: entry.lib, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, types: [], skipLibCheck: true },
            files: [mainEntryPointFilePath],
          },
        },
        dtsRollup: { enabled: true, untrimmedFilePath: bundled },
        apiReport: { enabled: false },
        docModel: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
          extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: join(repoRoot, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: true,
      // Its notes (the TypeScript version it analyses with) are not the build's concern; warnings and errors are.
      messageCallback: (message) => {
        if (message.logLevel === ExtractorLogLevel.Info || message.logLevel === ExtractorLogLevel.Verbose) message.handled = true;
      },
    });
    if (!result.succeeded) throw new Error(`declarations: api-extractor failed for ${entry.name} (${result.errorCount} errors)`);
    const foreign = foreignReferences(readFileSync(bundled, 'utf8'));
    if (foreign.length) throw new Error(`declarations: ${entry.name}.d.ts refers to ${foreign.join(', ')}, which a host project does not have`);
    // Alone, with its libs and nothing else, as a host's tsc without skipLibCheck reads it.
    execFileSync(tsc, ['--ignoreConfig', bundled, '--noEmit', '--strict', '--lib', entry.lib.join(','), '--types', '', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler'], { cwd: repoRoot, stdio: 'inherit' });
  }
}

/** The packages and type libraries a declaration file imports or references. */
function foreignReferences(text: string): string[] {
  const patterns = [/^import\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, /^\/\/\/\s*<reference\s+types=['"]([^'"]+)['"]/gm];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map(([, name]) => name!));
}

/** The declaration files under `dir`, relative to it. */
function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.d.ts'));
}

/** Step 2 of the header, in the staging folder. */
async function plainWireTypes(): Promise<void> {
  const inferred = new Map<string, { name: string; schema: string }[]>();
  for (const file of declarationFiles(STAGING)) {
    const found = [...readFileSync(join(STAGING, file), 'utf8').matchAll(ZOD_INFERRED)].map(([, name, schema]) => ({ name: name!, schema: schema! }));
    if (found.length) inferred.set(file, found);
  }
  const sourceOf = (file: string) => join(repoRoot, file.replace(/\.d\.ts$/, '.ts'));

  // The schemas themselves, from their sources, bundled for Node.
  const schemasModule = join(STAGING, 'schemas.mjs');
  await build({
    stdin: {
      contents: [...inferred].map(([file, found]) => `export { ${found.map(({ name, schema }) => `${schema} as ${name}`).join(', ')} } from ${JSON.stringify(sourceOf(file))};`).join('\n'),
      resolveDir: repoRoot,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: schemasModule,
    logLevel: 'warning',
  });
  const schemas = (await import(pathToFileURL(schemasModule).href)) as Record<string, unknown>;
  const named = new Map([...inferred.values()].flat().map(({ name }) => [name, schemas[name]] as const));
  writeFileSync(WIRE, `/** The types of the wire models and the service's inputs, generated from their zod schemas (scripts/wire-types.ts). */\n${declareWireTypes(named)}\n`);

  for (const file of inferred.keys()) {
    const path = join(STAGING, file);
    const wire = relativeImport(path, WIRE);
    // Imported (the file's own declarations may name it) and exported as it was: one declaration per name.
    writeFileSync(path, readFileSync(path, 'utf8').replace(ZOD_INFERRED, (_, name: string) => `import type { ${name} } from '${wire}';\nexport type { ${name} };`));
  }
  const model = [...inferred].filter(([file]) => file.startsWith('worker/core/model/')).flatMap(([, found]) => found.map(({ name }) => name));
  const clientModel = join(STAGING, CLIENT_MODEL);
  writeFileSync(clientModel, `export type { ${model.join(', ')} } from '${relativeImport(clientModel, WIRE)}';\n`);

  // Each generated type against `z.infer` of its schema, both ways.
  const check = join(STAGING, 'wire-check.ts');
  const modules = [...inferred.keys()];
  writeFileSync(
    check,
    [
      `import type * as wire from '${relativeImport(check, WIRE)}';`,
      ...modules.map((file, i) => `import type * as m${i} from ${JSON.stringify(sourceOf(file))};`),
      'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
      `export const same: {\n${modules.flatMap((file, i) => inferred.get(file)!.map(({ name }) => `  ${name}: Same<wire.${name}, m${i}.${name}>;`)).join('\n')}\n} = {\n${[...named.keys()].map((name) => `  ${name}: true,`).join('\n')}\n};`,
    ].join('\n'),
  );
  execFileSync(tsc, ['--ignoreConfig', check, '--noEmit', '--lib', 'ES2022,WebWorker', ...COMPILER_OPTIONS], { cwd: repoRoot, stdio: 'inherit' });
}

/** `to` (a .d.ts) as a relative import specifier from the file `from`. */
function relativeImport(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\.d\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}
