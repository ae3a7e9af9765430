import {
  createApi,
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
import { FIRST_SCREEN_ROWS, filtersFromUrl, inServerOrder } from './ui/filters.ts';
import type { RowsUnderWay } from './ui/library-state.ts';

declare global {
  interface Window {
    /** The client, for tests and the console. */
    tessera: {
      register: typeof register;
      ready: typeof ready;
      rpc: typeof rpc;
      createRpc: typeof createRpc;
      createApi: typeof createApi;
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
  createApi,
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

const BASE = '/api';
const params = new URLSearchParams(location.search);
// `/?ui=off` is the page with the client alone: a quiet page in the worker's scope for tests of the worker
// (the live UI fetches after every change, which restarts a worker a test has just stopped).
const withUi = params.get('ui') !== 'off';
// `/?ui=off&register=manual` leaves the registration to the page's scripts (`window.tessera.register(…)`),
// for tests of the client's options (another base, say).
if (withUi || params.get('register') !== 'manual') register({ base: BASE }).catch(() => {}); // a failure surfaces through ready()
// The UI is its own chunk, fetched while the worker starts; the library's rows are asked for as soon as the
// worker answers, while that chunk still loads (a reload of 10,000 assets sent it 100 ms later otherwise).
// Only the first screen of them when the list shows them in the worker's order: all of them (1.9 MB at
// 10,000) held the worker's answers to this page's scripts and health check back by about 130 ms; the list
// asks for the rest once that screen is painted. On a reload a worker already controls the page and
// answers the requests: they go out at once, without waiting for the registration and the health check.
const ui = withUi ? import('./ui/app.tsx') : undefined;
const askRows = (): RowsUnderWay => {
  const api = createApi({ base: BASE });
  const asked: RowsUnderWay = inServerOrder(filtersFromUrl()) ? { firstScreen: api.firstLibraryRows(FIRST_SCREEN_ROWS) } : { all: api.libraryRows() };
  ('all' in asked ? asked.all : asked.firstScreen).catch(() => {}); // a failure is shown by the list, which awaits them
  return asked;
};
const rowsAsked = withUi ? (navigator.serviceWorker?.controller ? Promise.resolve(askRows()) : ready().then(askRows)) : undefined;
rowsAsked?.catch(() => {}); // ready() failed: said below
ready().then(
  async () => {
    if (ui) (await ui).mountApp(document.getElementById('root')!, BASE, await rowsAsked);
    else document.getElementById('status')!.textContent = 'Tessera client ready (no UI).';
  },
  (error: unknown) => {
    const status = document.getElementById('status')!;
    status.dataset.error = '';
    status.textContent = `Tessera could not start: ${error instanceof Error ? error.message : String(error)}`;
  },
);
