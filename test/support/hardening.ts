/**
 * How much each hardening proof of issue 13 runs: in `npm test`, and in `npm run soak` (SOAK=1). The specs
 * and tests read their counts here; docs/hardening.md gives the same figures,
 * and test/unit/hardening-doc.test.ts keeps the two in step.
 */
export const SOAK = process.env.SOAK === '1';

/** A count for `npm test` and one for `npm run soak`. */
export interface Runs {
  test: number;
  soak: number;
}

/** The count of this run. */
export const runs = (r: Runs): number => (SOAK ? r.soak : r.test);

export const HARDENING = {
  /** test/unit/hostile-input.test.ts and test/e2e/hostile-input.spec.ts: generated requests per route. */
  hostile: {
    /** The fast-check seed; route i is generated from seed + i. */
    seed: 0x7e55e7a,
    node: { test: 20, soak: 400 },
    browser: { test: 3, soak: 40 },
  },
  /** test/e2e/crash.spec.ts: writes, worker stops among them, and runs. */
  crash: { writes: { test: 240, soak: 600 }, stops: { test: 10, soak: 40 }, repeat: { test: 1, soak: 3 } },
  /** test/e2e/many-tabs.spec.ts: pages writing at once, rounds per page, and runs. */
  tabs: { pages: { test: 3, soak: 5 }, rounds: { test: 8, soak: 24 }, repeat: { test: 1, soak: 3 } },
  /** test/e2e/full-disk.spec.ts: fill-until-full and delete cycles under the lowered quota. */
  fullDisk: { cycles: { test: 2, soak: 6 } },
} as const satisfies Record<string, Record<string, Runs | number>>;
