/**
 * Debian's Chromium and the flags every browser run here needs: Playwright's own browser download does
 * not work on these machines, and without the background-networking flags Chromium floods the closed
 * network with refused connections.
 */
import { existsSync } from 'node:fs';

/** The browser the bench measures: Debian's Chromium, the browser a person runs (`CHROMIUM` names another). */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** Debian's `chromium-headless-shell`: the same Chromium build without the browser's UI layer. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser the e2e tests drive: the headless shell when it is installed (`.ci/run` installs it), as
 * Playwright's own headless runs use; it ran the e2e suite in 7.6 minutes where the full browser took
 * 11.2. `CHROMIUM` names another binary; without either, the full browser.
 */
export const TEST_CHROMIUM = !process.env.CHROMIUM && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
