import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import cron from 'node-cron';
import { loadJobs } from '../../src/schedule/job-loader.js';
import { ConfigError } from '../../src/shared/errors.js';
import { exitCodeOfError } from '../support/exit.js';

const JOBS = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../jobs');
let dir: string | undefined;
afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); dir = undefined; });

function jobsDir(files: Record<string, unknown>): string {
  dir = mkdtempSync(join(tmpdir(), 'etl-jobs-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    expect(exitCodeOfError(e)).toBe(2);
    return (e as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('the shipped job files', () => {
  it('load: a nightly run, an hourly transfer pull and a weekly count, in São Paulo time', () => {
    const jobs = loadJobs(JOBS);
    const by = Object.fromEntries(jobs.map((j) => [j.name, j]));
    expect(Object.keys(by).sort()).toEqual(['count-weekly', 'nightly', 'transfer-hourly']);
    expect(by.nightly).toMatchObject({ command: 'run', period_hours: 24, args: [] });
    expect(by['transfer-hourly']).toMatchObject({ command: 'transfer', period_hours: 1 });
    expect(by['count-weekly']).toMatchObject({ command: 'query', args: ['--kind', 'count'], period_hours: 168 });
    for (const j of jobs) {
      expect(j.timezone).toBe('America/Sao_Paulo');
      expect(cron.validate(j.cron)).toBe(true);
      expect(j.enabled).toBe(true);
    }
  });

  it('fire when their names say: nightly once a day, transfer every hour, count once a week', () => {
    const jobs = Object.fromEntries(loadJobs(JOBS).map((j) => [j.name, j]));
    const gaps = (name: string): number[] => {
      const t = cron.createTask(jobs[name].cron, () => undefined, { timezone: jobs[name].timezone });
      const runs = t.getNextRuns(4).map((d) => d.getTime());
      void t.destroy();
      return runs.slice(1).map((r, i) => (r - runs[i]) / 3_600_000);
    };
    // São Paulo has had no daylight saving time since 2019, so the gaps are exact.
    expect(gaps('nightly')).toEqual([24, 24, 24]);
    expect(gaps('transfer-hourly')).toEqual([1, 1, 1]);
    expect(gaps('count-weekly')).toEqual([168, 168, 168]);
  });
});

describe('job file validation', () => {
  it('names the file and the field of a bad cron expression', () => {
    const d = jobsDir({ 'nightly.json': { name: 'nightly', cron: '0 25 * * *', period_hours: 24, command: 'run' } });
    const problems = problemsOf(() => loadJobs(d));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(join(d, 'nightly.json'));
    expect(problems[0]).toMatch(/cron "0 25 \* \* \*" is not a valid cron expression/);
  });

  it('defaults the time zone to America/Sao_Paulo and the arguments to none', () => {
    const d = jobsDir({ 'pull.json': { name: 'pull', cron: '*/5 * * * *', period_hours: 0.5, command: 'transfer' } });
    expect(loadJobs(d)[0]).toMatchObject({ timezone: 'America/Sao_Paulo', args: [], description: '', enabled: true });
  });

  it('reports every problem of every file at once', () => {
    const d = jobsDir({
      'a.json': { name: 'b', cron: '0 2 * * *', timezone: 'Mars/Olympus', period_hours: 0, command: 'schedule', args: [1], extra: true },
      'c.json': '{ not json',
      'notes.txt': 'ignored',
    });
    const problems = problemsOf(() => loadJobs(d));
    const text = problems.join('\n');
    expect(text).toMatch(/a\.json: name "b" must equal the file name "a"/);
    expect(text).toMatch(/a\.json: timezone "Mars\/Olympus" is not an IANA time zone/);
    expect(text).toMatch(/a\.json: period_hours must be a positive number/);
    expect(text).toMatch(/a\.json: command "schedule" is not one of run, transfer, query, track, export/);
    expect(text).toMatch(/a\.json: args must be a list of strings/);
    expect(text).toMatch(/a\.json: extra is not a job field/);
    expect(text).toMatch(/c\.json: not valid JSON/);
    expect(problems).toHaveLength(7);
  });

  it('refuses an empty or missing folder', () => {
    const d = jobsDir({});
    expect(problemsOf(() => loadJobs(d))[0]).toMatch(/no \*\.json job file/);
    expect(problemsOf(() => loadJobs(join(d, 'nope')))[0]).toMatch(/cannot read it \(ENOENT\)/);
  });
});
