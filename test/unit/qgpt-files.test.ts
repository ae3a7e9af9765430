/**
 * The `paths` query space's file reading (worker/core/qgpt/files.ts, file-tree.ts, memory-files.ts) and
 * the granted-folder registry (qgpt/folders.ts: the RPC services and the `/folders` routes), and
 * `/qgpt/relevance` over `paths`, in Node.
 * The browser's handles are exercised by test/e2e/qgpt-paths.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../worker/core/deps.ts';
import { ApiError, asApiError } from '../../worker/core/errors.ts';
import { hostError } from '../../worker/core/qgpt/files/file-tree.ts';
import { FILE_LIMITS, folderNameProblem, parsePath } from '../../worker/core/qgpt/files/files.ts';
import { MemoryFileSource } from '../../worker/core/qgpt/files/memory-files.ts';
import { createServices } from '../../worker/core/services.ts';
import { MemoryStore } from '../../worker/core/store/memory-store.ts';
import { testClassifier } from '../support/classifier.ts';
import { ErrorBodySchema } from '../support/responses.ts';
import { createTestApi } from '../support/test-api.ts';

async function failure(run: () => Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    const e = asApiError(error);
    return { status: e.status, code: e.code, message: e.message };
  }
  throw new Error('expected a failure');
}

const PY = 'def parse_args(argv):\n    return argv[1:]\n';

const files = () =>
  new MemoryFileSource({
    '/opfs/notes/x.py': PY,
    '/opfs/notes/b.md': '# notes\n',
    '/opfs/notes/deep/c.ts': 'export const c = 1;\n',
    '/opfs/notes/node_modules/dep/index.js': 'module.exports = 1;\n',
    '/opfs/notes/.git/HEAD': 'ref: refs/heads/main\n',
    '/opfs/notes/logo.png': 'not really a png, but the extension says binary',
    '/opfs/notes/blob.dat': new Uint8Array([104, 105, 0, 1, 2]),
    '/opfs/big.txt': 'x'.repeat(FILE_LIMITS.maxFileBytes + 1),
    '/project/src/a.ts': 'export const a = 1;\n',
  });

describe('parsePath', () => {
  it('takes the first name as the root, with or without the leading slash, a trailing slash allowed', () => {
    expect(parsePath('/opfs/notes/x.py')).toEqual({ path: '/opfs/notes/x.py', root: 'opfs', segments: ['notes', 'x.py'] });
    expect(parsePath('opfs/notes/x.py')).toEqual(parsePath('/opfs/notes/x.py'));
    expect(parsePath('/project/')).toEqual({ path: '/project', root: 'project', segments: [] });
  });

  it('refuses empty names, . and .. with a 400 naming the path', () => {
    for (const path of ['', '/', '/opfs//x.py', '/opfs/../secret', 'opfs/./x', '..']) {
      const error = (() => {
        try {
          parsePath(path);
        } catch (e) {
          return e as ApiError;
        }
        throw new Error(`'${path}' was accepted`);
      })();
      expect(error.status, path).toBe(400);
      expect(error.code).toBe('path_invalid');
      expect(error.message).toContain(`'${path}'`);
    }
  });

  it('folder names: one plain segment, not opfs', () => {
    expect(folderNameProblem('project')).toBeUndefined();
    expect(folderNameProblem('my notes')).toBeUndefined();
    for (const name of ['', ' ', '.', '..', 'a/b', 'a\\b', 'opfs', 'x'.repeat(256)]) expect(folderNameProblem(name), name).toBeDefined();
  });
});

describe('MemoryFileSource (the shared tree reader)', () => {
  it('a file path yields that file, under its canonical path', async () => {
    expect(await files().read('opfs/notes/x.py')).toEqual([{ path: '/opfs/notes/x.py', text: PY }]);
  });

  it('a folder yields its text files recursively in name order, without node_modules, .git, binary files or big files', async () => {
    const read = await files().read('/opfs/');
    expect(read.map((f) => f.path)).toEqual(['/opfs/notes/b.md', '/opfs/notes/deep/c.ts', '/opfs/notes/x.py']);
    expect(read[1]!.text).toBe('export const c = 1;\n');
    expect((await files().read('/project')).map((f) => f.path)).toEqual(['/project/src/a.ts']);
  });

  it('a named file that is not text or too big is unreadable, with the reason', async () => {
    expect(await failure(() => files().read('/opfs/notes/logo.png'))).toMatchObject({ status: 404, code: 'path_unreadable', message: expect.stringMatching(/'\/opfs\/notes\/logo\.png'.*not a text file/) });
    expect((await failure(() => files().read('/opfs/notes/blob.dat'))).message).toMatch(/not a text file/);
    expect((await failure(() => files().read('/opfs/big.txt'))).message).toMatch(/larger than 1048576 bytes/);
  });

  it('missing entries, a file used as a folder and an unknown root are 404s naming the path', async () => {
    const cases: [string, RegExp][] = [
      ['/opfs/notes/missing.py', /'\/opfs\/notes' has no entry named 'missing\.py'/],
      ['/opfs/notes/x.py/more', /'\/opfs\/notes\/x\.py' is a file, not a folder/],
      ['/elsewhere/x.py', /no folder named 'elsewhere' is registered/],
    ];
    for (const [path, why] of cases) {
      const error = await failure(() => files().read(path));
      expect(error, path).toMatchObject({ status: 404, code: 'path_unreadable' });
      expect(error.message).toContain(`'${path}'`);
      expect(error.message).toMatch(why);
    }
  });

  it('a folder stops at the file-count and byte caps', async () => {
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/opfs/f${String(i).padStart(2, '0')}.txt`, 'abcd']));
    const byCount = new MemoryFileSource(many, { ...FILE_LIMITS, maxFiles: 3 });
    expect((await byCount.read('/opfs')).map((f) => f.path)).toEqual(['/opfs/f00.txt', '/opfs/f01.txt', '/opfs/f02.txt']);
    const byBytes = new MemoryFileSource(many, { ...FILE_LIMITS, maxFolderBytes: 10 });
    expect(await byBytes.read('/opfs')).toHaveLength(2);
  });

  it("the host API's errors become 4xx naming the path", () => {
    expect(hostError('/opfs/x', new DOMException('gone', 'NotFoundError'))).toMatchObject({ status: 404, message: expect.stringContaining("'/opfs/x'") });
    expect(hostError('/g/x', new DOMException('no', 'NotAllowedError')).message).toMatch(/does not allow/);
    const api = new ApiError(400, 'x', 'y');
    expect(hostError('/g', api)).toBe(api);
  });
});

describe('granted folders: services and /folders routes', () => {
  async function setup() {
    const store = new MemoryStore();
    const api = await createTestApi({ store, now: () => new Date('2026-02-03T04:05:06.000Z') });
    const services = createServices(withDefaults({ store, feed: api.feed, classifier: await testClassifier(), now: () => new Date('2026-02-03T04:05:06.000Z') }));
    // /folders is Tessera's own API, outside the contract table: requested on the app directly.
    const request = async (method: string, path: string) => {
      const response = await api.request(path, { method });
      const text = await response.text();
      if (response.status >= 400) expect(ErrorBodySchema.parse(JSON.parse(text)).error.status).toBe(response.status);
      return { status: response.status, text, json: () => JSON.parse(text) };
    };
    return { services, request };
  }

  const handle = (name: string) => ({ kind: 'directory', name });

  it('registers, lists (service and GET), replaces, and removes (service and DELETE)', async () => {
    const { services, request } = await setup();
    expect(await services.registerFolder('project', handle('project'))).toEqual({ name: 'project', path: '/project', created: '2026-02-03T04:05:06.000Z' });
    await services.registerFolder('notes', handle('n'));
    await services.registerFolder('project', handle('again'));
    const listed = { iterable: [{ name: 'notes', path: '/notes', created: '2026-02-03T04:05:06.000Z' }, { name: 'project', path: '/project', created: '2026-02-03T04:05:06.000Z' }] };
    expect(await services.listFolders()).toEqual(listed);
    expect((await request('GET', '/folders')).json()).toEqual(listed);
    expect(await request('DELETE', '/folders/notes')).toMatchObject({ status: 204, text: '' });
    await services.removeFolder('project');
    expect((await request('GET', '/folders')).json()).toEqual({ iterable: [] });
  });

  it('refuses bad names and non-folder handles (422), unknown names on removal (404)', async () => {
    const { services, request } = await setup();
    for (const name of ['opfs', '', '..', 'a/b']) {
      expect(await failure(() => services.registerFolder(name, handle('x'))), name).toMatchObject({ status: 422, code: 'invalid_folder_name' });
    }
    expect(await failure(() => services.registerFolder(7 as never, handle('x')))).toMatchObject({ status: 422 });
    for (const bad of [undefined, 'handle', { kind: 'file', name: 'x.py' }]) {
      expect(await failure(() => services.registerFolder('x', bad))).toMatchObject({ status: 422, code: 'invalid_folder_handle' });
    }
    expect(await services.listFolders()).toEqual({ iterable: [] });
    const missing = await request('DELETE', '/folders/nothing');
    expect(missing.status).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'folder_not_found', message: expect.stringContaining("'nothing'") });
    expect(await failure(() => services.removeFolder('nothing'))).toMatchObject({ status: 404, code: 'folder_not_found' });
  });
});

describe('POST /qgpt/relevance with paths (through MemoryFileSource)', () => {
  it('ranks the snippets of the named files and folders, each with its path; unreadable paths are 4xx naming the path', async () => {
    const api = await createTestApi({ files: files() });
    const file = (await api.post('/qgpt/relevance', { query: 'parse command line args', paths: ['/opfs/notes/x.py'] })).json();
    expect(file.relevant.iterable.length).toBeGreaterThan(0);
    expect(file.relevant.iterable[0]).toMatchObject({ path: '/opfs/notes/x.py', seed: { asset: { format: { fragment: { string: { raw: expect.stringContaining('parse_args') } } } } } });
    const folder = (await api.post('/qgpt/relevance', { query: 'export const', paths: ['opfs/notes', '/project'] })).json();
    const paths = new Set(folder.relevant.iterable.map((r: { path: string }) => r.path));
    expect(paths).toContain('/project/src/a.ts');
    expect(paths).toContain('/opfs/notes/deep/c.ts');
    for (const path of paths) expect(path).not.toMatch(/node_modules|\.git|logo|blob/);
    const missing = await api.post('/qgpt/relevance', { query: 'x', paths: ['/opfs/none.txt'] });
    expect(missing.status).toBe(404);
    expect(missing.json().error.message).toContain("'/opfs/none.txt'");
    expect((await api.post('/qgpt/relevance', { query: 'x', paths: ['/opfs/../etc'] })).status).toBe(400);
  });
});
