import { ready, register } from './client/index.ts';
import { mountLibrary } from './ui/library.ts';

declare global {
  interface Window {
    /** The client, for tests and the console. */
    tessera: { register: typeof register; ready: typeof ready };
  }
}

window.tessera = { register, ready };

const status = document.querySelector<HTMLElement>('#status')!;

register().catch(() => {}); // a failure surfaces through ready()
ready().then(
  () => mountLibrary(document, '/api'),
  (error: unknown) => {
    status.dataset.error = '';
    status.textContent = `Tessera could not start: ${error instanceof Error ? error.message : String(error)}`;
  },
);
