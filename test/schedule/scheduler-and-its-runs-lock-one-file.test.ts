import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';

// The scheduler looks at the run lock before it starts a job, and the job's command takes that lock itself: both
// must mean the same file. The lock sits beside the warehouse, and the warehouse may be named by the config file
// or by the job's own arguments; a scheduler that derived its lock from the environment alone looked at
// data/warehouse.duckdb.lock while its runs locked the configured warehouse's, so it started runs that could only
// exit 75 and then, finding its own lock free, counted them as failures.

const roots: string[] = [];
afterEach(() => { for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true }); });

/** `lawsuit-etl schedule` run in `cwd` until every job has ended once; its JSON log lines. */
function scheduleUntilEnded(cwd: string, env: Record<string, string>, jobs: number): Promise<Array<Record<string, unknown>>> {
  const proc = spawn(process.execPath, [resolve(CLI), 'schedule'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: Array<Record<string, unknown>> = [];
  let partial = '';
  let told = false;
  return new Promise((done, fail) => {
    const late = setTimeout(() => { proc.kill('SIGKILL'); fail(new Error(`no end of ${jobs} jobs: ${JSON.stringify(lines.slice(-5))}`)); }, 60_000);
    proc.stderr.on('data', (d) => {
      const all = (partial + String(d)).split('\n');
      partial = all.pop()!;
      for (const l of all) if (l.startsWith('{')) lines.push(JSON.parse(l) as Record<string, unknown>);
      if (!told && lines.filter((l) => l.event === 'job.end').length === jobs) {
        told = true;
        proc.kill('SIGTERM');
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(late);
      if (code === 0) done(lines);
      else fail(new Error(`schedule exited ${code}: ${JSON.stringify(lines.slice(-5))}`));
    });
  });
}

it('looks at the lock its job will take: beside the warehouse of the config file, or of the job\'s own --warehouse', async () => {
  const root = mkdtempSync(join(tmpdir(), 'schedule-lock-'));
  roots.push(root);
  mkdirSync(join(root, 'jobs'));
  mkdirSync(join(root, 'wh'));
  const configured = join(root, 'wh', 'configured.duckdb');
  const own = join(root, 'wh', 'own.duckdb');
  writeFileSync(join(root, 'etl.json'), JSON.stringify({ warehouse: configured }));
  const job = (name: string, args: string[]) => writeFileSync(join(root, 'jobs', `${name}.json`), JSON.stringify({ name, command: 'export', args, cron: '0 2 * * *', period_hours: 24 }));
  job('configured', []);
  job('own', ['--warehouse', own]);
  // A live holder of both locks: this test's process, on this host.
  const holder = JSON.stringify({ pid: process.pid, hostname: hostname(), command: 'run', started_at: new Date().toISOString() });
  for (const w of [configured, own]) writeFileSync(`${w}.lock`, holder);

  const lines = await scheduleUntilEnded(root, {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_FORMAT: 'json', LOG_LEVEL: 'info',
    LAWSUIT_CONFIG: join(root, 'etl.json'), LAWSUIT_JOBS_DIR: join(root, 'jobs'), LAWSUIT_SCHEDULE_STATE: join(root, 'state.json'),
  }, 2);

  const ends = lines.filter((l) => l.event === 'job.end');
  expect(ends.map((l) => [l.job, l.outcome]).sort()).toEqual([['configured', 'skipped-locked'], ['own', 'skipped-locked']]);
  expect(ends.map((l) => (l.holder as { pid?: number } | undefined)?.pid)).toEqual([process.pid, process.pid]);
  // Neither command was started: the scheduler saw the lock its run would have met.
  expect(lines.filter((l) => l.event === 'job.start')).toEqual([]);
}, 90_000);
