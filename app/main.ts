import {
  createRpc,
  installWebSocketShim,
  listFolders,
  pickFolder,
  ready,
  register,
  registerFolder,
  removeFolder,
  rpc,
  TesseraRpcError,
  TesseraSocket,
} from './client/index.ts';
import { mountLibrary } from './ui/library.ts';

declare global {
  interface Window {
    /** The client, for tests and the console. */
    tessera: {
      register: typeof register;
      ready: typeof ready;
      rpc: typeof rpc;
      createRpc: typeof createRpc;
      TesseraRpcError: typeof TesseraRpcError;
      TesseraSocket: typeof TesseraSocket;
      installWebSocketShim: typeof installWebSocketShim;
      registerFolder: typeof registerFolder;
      pickFolder: typeof pickFolder;
      listFolders: typeof listFolders;
      removeFolder: typeof removeFolder;
    };
  }
}

window.tessera = {
  register,
  ready,
  rpc,
  createRpc,
  TesseraRpcError,
  TesseraSocket,
  installWebSocketShim,
  registerFolder,
  pickFolder,
  listFolders,
  removeFolder,
};

// Any script in this page can open the streams with a plain `new WebSocket('ws://<host>/api/...')`.
installWebSocketShim();

const status = document.querySelector<HTMLElement>('#status')!;

register().catch(() => {}); // a failure surfaces through ready()
ready().then(
  () => mountLibrary(document, '/api'),
  (error: unknown) => {
    status.dataset.error = '';
    status.textContent = `Tessera could not start: ${error instanceof Error ? error.message : String(error)}`;
  },
);
