/**
 * docs/hardening.md ("Hardening: what the tests prove") gives how much each proof runs: those figures must be the
 * tests' own parameters (test/support/hardening.ts, the routes of test/support/hostile.ts, the schema
 * versions of test/support/legacy-schema.ts, the stores `npm test` runs the Node suites on), so that
 * changing one without the section fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IDB_VERSION } from '../../worker/browser/idb-store.ts';
import { HARDENING } from '../support/hardening.ts';
import { ROUTES } from '../support/hostile.ts';
import { SCHEMA_HISTORY } from '../support/legacy-schema.ts';

const page = readFileSync(new URL('../../docs/hardening.md', import.meta.url), 'utf8');
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

/** The page's text, whitespace collapsed (the Markdown wraps its lines anywhere). */
function section(): string {
  expect(page.startsWith('# Hardening: what the tests prove')).toBe(true);
  return page.replace(/\s+/g, ' ');
}

const n = (x: number) => x.toLocaleString('en-US');

describe("docs/hardening.md's figures are the tests' parameters", () => {
  it('hostile input: routes × requests a route, on each store npm test runs the Node suites on, and in Chromium', () => {
    const { node, browser } = HARDENING.hostile;
    const text = section();
    expect(text).toContain(`${ROUTES.length} routes × ${node.test} requests = ${n(ROUTES.length * node.test)} requests on each of three stores (memory, IndexedDB through fake-indexeddb, PGlite over HTTP)`);
    // The three: test:unit (memory), test:unit:idb, test:unit:node (PGlite over HTTP), all in npm test.
    expect(packageJson.scripts.test).toMatch(/test:unit && .*test:unit:idb && .*test:unit:node/);
    expect(packageJson.scripts['test:unit:node']).toContain('TESSERA_TEST_STORE=pglite TESSERA_TEST_TRANSPORT=http');
    // The fourth: test:unit:postgres (PostgreSQL over HTTP), which npm test runs when DATABASE_URL is set.
    expect(text).toContain('and on a fourth, PostgreSQL over HTTP, when `DATABASE_URL` is set (always under CI)');
    expect(packageJson.scripts.test).toMatch(/test:unit:node && .*test:unit:postgres:if-set/);
    expect(packageJson.scripts['test:unit:postgres:if-set']).toMatch(/DATABASE_URL.*npm run test:unit:postgres;.*CI.*exit 1/);
    expect(packageJson.scripts['test:unit:postgres']).toContain('TESSERA_TEST_STORE=postgres TESSERA_TEST_TRANSPORT=http');
    expect(text).toContain(`${ROUTES.length} routes × ${browser.test} requests = ${n(ROUTES.length * browser.test)} from a page`);
    expect(text).toContain(`Soak: ${node.soak} a route in Node (memory and fake-indexeddb), ${browser.soak} a route in Chromium`);
    expect(packageJson.scripts.soak).toContain('SOAK=1 vitest run test/unit/hostile-input.test.ts && SOAK=1 TESSERA_TEST_STORE=idb vitest run test/unit/hostile-input.test.ts');
    expect(packageJson.scripts.soak).toContain('test/e2e/hostile-input.spec.ts');
  });

  it('crash stops, tabs and writes, quota cycles', () => {
    const { crash, tabs, fullDisk } = HARDENING;
    const text = section();
    expect(text).toContain(`stopped (CDP) ${crash.stops.test} times at random points during ${crash.writes.test} concurrent creates`);
    expect(text).toContain(`(soak: ${crash.stops.soak} stops in ${crash.writes.soak} writes, ${crash.repeat.soak} runs)`);
    expect(crash.repeat.test).toBe(1);
    expect(text).toContain(`${tabs.pages.test} pages writing at once, ${tabs.rounds.test} rounds each (soak: ${tabs.pages.soak} pages, ${tabs.rounds.soak} rounds, ${tabs.repeat.soak} runs)`);
    expect(tabs.repeat.test).toBe(1);
    expect(text).toContain(`over ${fullDisk.cycles.test} fill cycles (soak: ${fullDisk.cycles.soak})`);
  });

  it('upgrade fixtures: every earlier schema version', () => {
    const earlier = SCHEMA_HISTORY.filter((v) => v.version < IDB_VERSION).length;
    expect(section()).toContain(`each of the ${earlier} earlier schema versions`);
  });
});
