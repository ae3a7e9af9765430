/**
 * The PostgreSQL parts of the tests never skip silently (test/support/pg.ts postgresUrl): without
 * DATABASE_URL they fail under CI, and elsewhere say what they skip and how to run it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresUrl } from '../support/pg.ts';

const saved = { DATABASE_URL: process.env.DATABASE_URL, CI: process.env.CI };

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.restoreAllMocks();
});

describe('postgresUrl', () => {
  it('answers DATABASE_URL when it is set, and says nothing', () => {
    const warn = vi.spyOn(console, 'warn');
    process.env.DATABASE_URL = 'postgres://tessera@db.example/tessera';
    process.env.CI = '1';
    expect(postgresUrl('the feed across instances')).toBe('postgres://tessera@db.example/tessera');
    expect(warn).not.toHaveBeenCalled();
  });

  it('without it, throws under CI: the run fails instead of skipping', () => {
    delete process.env.DATABASE_URL;
    process.env.CI = 'true';
    expect(() => postgresUrl('the feed across instances')).toThrow(/DATABASE_URL is not set, so the feed across instances cannot run: \.ci\/run must start PostgreSQL/);
  });

  it('without it outside CI, answers undefined and says what is skipped and how to run it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    delete process.env.DATABASE_URL;
    delete process.env.CI;
    expect(postgresUrl('the feed across instances')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^SKIPPED without DATABASE_URL: the feed across instances\. To run it: export DATABASE_URL=.*scripts\/postgres\.sh/));
  });
});
