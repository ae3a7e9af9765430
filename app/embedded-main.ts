/**
 * `/embedded.html`: the embedded mode's client alone (`window.tesseraEmbedded.startEmbedded`), no UI and no service
 * worker: the page its e2e tests and the bench use, and a console to try the mode in.
 */
import { startEmbedded } from './client/embedded.ts';

declare global {
  interface Window {
    tesseraEmbedded: { startEmbedded: typeof startEmbedded };
  }
}

window.tesseraEmbedded = { startEmbedded };
