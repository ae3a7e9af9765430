/**
 * A FileSource over files held in memory, for Node tests and hosts without a file system: a map from a
 * file's path (files.ts syntax, such as `/opfs/notes/x.py` or `/project/src/a.ts`) to its content. Every
 * first segment of a path in the map is a root; folders exist where some file lies under them. Reads go
 * through the same TreeFileSource as the browser's handles (same syntax, filters, limits and errors).
 */
import { TreeFileSource, type TreeEntry, type TreeFolder } from './file-tree.ts';
import { FILE_LIMITS, parsePath, unreadablePath } from './files.ts';

type Content = string | Uint8Array;

interface Node {
  folders: Map<string, Node>;
  files: Map<string, Content>;
}

const emptyNode = (): Node => ({ folders: new Map(), files: new Map() });

function folderEntry(name: string, node: Node): TreeFolder {
  const entry = (child: string): TreeEntry | undefined => {
    const folder = node.folders.get(child);
    if (folder) return folderEntry(child, folder);
    const content = node.files.get(child);
    if (content === undefined) return undefined;
    return { kind: 'file', name: child, blob: async () => new Blob([content as BlobPart]) };
  };
  return {
    kind: 'directory',
    name,
    child: async (child) => entry(child),
    async *children() {
      for (const child of [...node.folders.keys(), ...node.files.keys()]) yield entry(child)!;
    },
  };
}

export class MemoryFileSource extends TreeFileSource {
  constructor(files: Record<string, Content>, limits = FILE_LIMITS) {
    const roots = new Map<string, Node>();
    for (const [path, content] of Object.entries(files)) {
      const { root, segments } = parsePath(path);
      if (segments.length === 0) throw new Error(`MemoryFileSource: '${path}' names a root, not a file`);
      let node = roots.get(root) ?? roots.set(root, emptyNode()).get(root)!;
      for (const name of segments.slice(0, -1)) node = node.folders.get(name) ?? node.folders.set(name, emptyNode()).get(name)!;
      node.files.set(segments.at(-1)!, content);
    }
    super(async (root, path) => {
      const node = roots.get(root);
      if (!node) throw unreadablePath(path, `no folder named '${root}' is registered`);
      return folderEntry(root, node);
    }, limits);
  }
}
