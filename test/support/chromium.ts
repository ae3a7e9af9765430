/**
 * Debian's Chromium and the flags every browser run here needs: Playwright's own browser download does
 * not work on these machines, and without the background-networking flags Chromium floods the closed
 * network with refused connections.
 */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
