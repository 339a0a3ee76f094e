import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratch } from '../support/pipeline.js';
import { runCli } from '../support/cli.js';

// What needs a key, a documents list, or nothing at all; what cannot be written is found at start.

describe('production safety: what needs a key, a list, or nothing at all', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());
  const bare = (extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
    LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'), ...extra,
  });

  it('outside --sandbox there is no default documents list: run exits 2 saying so', () => {
    const res = runCli(['run'], bare({ LAWSUIT_API_KEY: 'k', LAWSUIT_REQUESTS_URL: 'http://127.0.0.1:9', LAWSUIT_TRACKING_URL: 'http://127.0.0.1:9', LAWSUIT_LAWSUITS_URL: 'http://127.0.0.1:9', LAWSUIT_TRANSFER_URL: 'http://127.0.0.1:9' }));
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/documents list is required: give --documents FILE or set LAWSUIT_DOCUMENTS/);
  });

  it('export and run --dry-run need no key and no addresses', () => {
    const exp = runCli(['export'], bare());
    expect(exp.status, exp.stderr).toBe(0);
    expect(exp.stdout).toMatch(/exports\s+ok/);
    const dry = runCli(['run', '--dry-run', '--documents', 'config/documents.example.csv'], bare());
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run: nothing was sent/);
  });

  it('a folder the configuration names that cannot be written stops the run at start with exit 2, naming it', () => {
    const file = join(tmp.dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const res = runCli(['run', '--sandbox'], bare({ LAWSUIT_EXPORT_DIR: join(file, 'exports'), LAWSUIT_REPORTS_DIR: file }));
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toContain(`LAWSUIT_EXPORT_DIR: the folder ${join(file, 'exports')} cannot be created: ${file} is a file, not a folder`);
    expect(res.stderr).toContain(`LAWSUIT_REPORTS_DIR: the folder ${file} is a file, not a folder`);
    expect(res.stderr).not.toMatch(/unexpected failure/);
  });

  it('schedule with no key stops at start with exit 2, listing every problem of every job', () => {
    const res = runCli(['schedule', '--state', join(tmp.dir, 'state.json')], bare(), 30_000);
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/LAWSUIT_API_KEY .*required.*\(jobs: .*nightly/);
    expect(res.stderr).toMatch(/documents list is required.*\(jobs: .*count-weekly/);
  });
});
