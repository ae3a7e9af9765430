import type { Asset } from '../client/api.ts';
import { bytesSeed, textSeed } from './asset-content.ts';
import { messageOf } from './library-state.ts';
import { navigate } from './router.ts';
import type { Session } from './session.ts';

/**
 * Capture without a form: a paste anywhere outside a text field, or files dropped on the page, becomes
 * an asset. Text goes through the draft API's language detection and name (as `POST /assets/create`
 * does by itself); images and other binary files are stored as bytes under their file name.
 */

/** Text files are stored as text (up to this size); anything else as bytes. */
const MAX_TEXT_FILE = 4 * 1024 * 1024;

export function installCapture(session: Session, target: Document): () => void {
  const onPaste = (event: ClipboardEvent) => {
    if (isEditable(event.target) || !event.clipboardData) return;
    const files = [...event.clipboardData.files];
    const text = event.clipboardData.getData('text/plain');
    if (files.length === 0 && !text.trim()) return;
    event.preventDefault();
    void (files.length ? captureFiles(session, files, 'clipboard') : captureText(session, text));
  };
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    target.body.dataset.dropping = '';
  };
  const onDragLeave = (event: DragEvent) => {
    if (event.relatedTarget === null) delete target.body.dataset.dropping;
  };
  const onDrop = (event: DragEvent) => {
    delete target.body.dataset.dropping;
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    void captureFiles(session, files, 'drop');
  };
  target.addEventListener('paste', onPaste);
  target.addEventListener('dragover', onDragOver);
  target.addEventListener('dragleave', onDragLeave);
  target.addEventListener('drop', onDrop);
  return () => {
    target.removeEventListener('paste', onPaste);
    target.removeEventListener('dragover', onDragOver);
    target.removeEventListener('dragleave', onDragLeave);
    target.removeEventListener('drop', onDrop);
  };
}

/** Whether keys and pastes at `target` belong to a field (an input, a text area, a select, an editor). */
export function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT');
}

async function captureText(session: Session, text: string): Promise<void> {
  try {
    const created = await session.api.create(textSeed(text));
    saved(session, [created], 'from the clipboard');
  } catch (error) {
    session.notify({ message: `Could not save the pasted text: ${messageOf(error)}`, error: true });
  }
}

async function captureFiles(session: Session, files: File[], how: 'clipboard' | 'drop'): Promise<void> {
  const created: Asset[] = [];
  for (const file of files) {
    try {
      const isText = !file.type.startsWith('image/') && file.size <= MAX_TEXT_FILE && (await looksLikeText(file));
      const name = file.name && file.name !== 'image.png' ? file.name : `Pasted image ${new Date().toLocaleString()}`;
      const seed = isText ? textSeed(await file.text(), { name: file.name }) : bytesSeed(new Uint8Array(await file.arrayBuffer()), name);
      created.push(await session.api.create(seed));
    } catch (error) {
      session.notify({ message: `Could not save ${file.name || 'the file'}: ${messageOf(error)}`, error: true });
      return;
    }
  }
  saved(session, created, how === 'drop' ? 'from the dropped files' : 'from the clipboard');
}

/** No NUL byte in the first 8 KB: text. */
async function looksLikeText(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 8192).arrayBuffer());
  return !head.includes(0);
}

function saved(session: Session, created: Asset[], how: string): void {
  if (created.length === 0) return;
  const first = created[0]!;
  session.notify({ message: created.length === 1 ? `Saved “${first.name || 'Untitled'}” ${how}.` : `Saved ${created.length} assets ${how}.` });
  navigate({ view: 'asset', id: first.id });
}
