import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transpileForChildren } from './transpile.js';
import { workspace } from './fixtures.js';

// The real thing end to end: `schedule` in its own process, the default child runner spawning a command that
// takes a long time, SIGTERM sent to the scheduler as `docker stop` or Kubernetes would.

let built: string;
let root: string | undefined;
const procs: ChildProcess[] = [];
beforeAll(() => { built = transpileForChildren(); });
afterAll(() => { rmSync(built, { recursive: true, force: true }); });
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A stand-in for dist/cli/main.js: records its argv and signals, takes the run lock as the real commands do. */
function fakeCli(dir: string, onTerm: 'exit' | 'ignore' | 'second'): string {
  const path = join(dir, 'fake-cli.mjs');
  writeFileSync(path, `
    import { appendFileSync } from 'node:fs';
    import { acquireRunLock } from ${JSON.stringify(join(built, 'src/shared/lock.js'))};
    const marks = ${JSON.stringify(join(dir, 'marks.txt'))};
    const lock = await acquireRunLock(process.env.LAWSUIT_LOCK_FILE, { command: process.argv[2] });
    appendFileSync(marks, 'started ' + process.pid + ' ' + process.argv.slice(2).join(' ') + '\\n');
    let terms = 0;
    process.on('SIGTERM', async () => {
      appendFileSync(marks, 'got SIGTERM\\n');
      terms++;
      const mode = ${JSON.stringify(onTerm)};
      if (mode === 'exit' || (mode === 'second' && terms === 2)) { await lock.release(); setTimeout(() => process.exit(143), 50); }
    });
    setTimeout(() => {}, 120000);
  `);
  return path;
}

function startSchedule(ws: ReturnType<typeof workspace>, cli: string, killAfterMs: number): { proc: ChildProcess; stderr: () => string } {
  const entry = join(ws.root, 'entry.mjs');
  writeFileSync(entry, `
    import { runScheduleCli } from ${JSON.stringify(join(built, 'src/schedule/command.js'))};
    const code = await runScheduleCli(process.argv.slice(2), { cliPath: ${JSON.stringify(cli)}, killAfterMs: ${killAfterMs} });
    process.exit(code);
  `);
  const proc = spawn(process.execPath, [entry, '--jobs', ws.jobsDir, '--state', ws.statePath], {
    env: { ...process.env, LAWSUIT_LOCK_FILE: ws.lockPath, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  procs.push(proc);
  let err = '';
  proc.stderr!.on('data', (d) => { err += String(d); });
  return { proc, stderr: () => err };
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const exitOf = (p: ChildProcess) => new Promise<{ code: number | null; at: number }>((r) => p.once('exit', (code) => r({ code, at: Date.now() })));
const jsonLines = (text: string) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('SIGTERM in the middle of a run', () => {
  it('forwards SIGTERM to the running command, waits for it, and exits 0 promptly', async () => {
    const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24, command: 'run', args: ['--skip-export'] } });
    root = ws.root;
    const cli = fakeCli(ws.root, 'exit');
    const { proc, stderr } = startSchedule(ws, cli, 60_000);
    const marks = join(ws.root, 'marks.txt');
    await until(() => existsSync(marks) && readFileSync(marks, 'utf8').includes('started'), 20_000);
    expect(readFileSync(marks, 'utf8')).toMatch(/^started \d+ run --skip-export\n/);
    expect(existsSync(ws.lockPath)).toBe(true);

    const exited = exitOf(proc);
    const sentAt = Date.now();
    proc.kill('SIGTERM');
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(10_000); // far below the grace period: it did not wait for SIGKILL
    expect(readFileSync(marks, 'utf8')).toContain('got SIGTERM');
    expect(existsSync(ws.lockPath)).toBe(false);

    const lines = jsonLines(stderr());
    expect(lines.find((l) => l.event === 'job.start')).toMatchObject({ job: 'nightly', command: 'run', reason: 'catch-up:never-run' });
    expect(lines.find((l) => l.event === 'job.end')).toMatchObject({ job: 'nightly', code: 143, outcome: 'failed' });
    expect(lines.find((l) => l.event === 'schedule.signal')).toMatchObject({ signal: 'SIGTERM' });
    expect(lines.at(-1)).toMatchObject({ event: 'schedule.stop' });
    // An interrupted run is not a success: the next start catches it up.
    const state = JSON.parse(readFileSync(ws.statePath, 'utf8'));
    expect(state.jobs.nightly.last_success_started_at).toBeUndefined();
  }, 30_000);

  it('at a second SIGTERM, tells the running command again, which ends at once, and exits 0', async () => {
    const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
    root = ws.root;
    const cli = fakeCli(ws.root, 'second');
    const { proc, stderr } = startSchedule(ws, cli, 60_000);
    const marks = join(ws.root, 'marks.txt');
    await until(() => existsSync(marks) && readFileSync(marks, 'utf8').includes('started'), 20_000);
    const exited = exitOf(proc);
    const sentAt = Date.now();
    proc.kill('SIGTERM');
    await until(() => readFileSync(marks, 'utf8').includes('got SIGTERM'), 10_000);
    proc.kill('SIGTERM');
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - sentAt).toBeLessThan(10_000); // long before the 60 s before SIGKILL
    expect(readFileSync(marks, 'utf8').match(/got SIGTERM/g)).toHaveLength(2);
    expect(jsonLines(stderr()).find((l) => l.event === 'job.end')).toMatchObject({ code: 143, outcome: 'failed' });
  }, 30_000);

  it('stops a run still going after its job\'s period, as SIGTERM would, while the scheduler goes on', async () => {
    // a period of 1.8 s: the run is told to stop then, and the scheduler itself is not stopping
    const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 0.0005 } });
    root = ws.root;
    const cli = fakeCli(ws.root, 'exit');
    const { proc, stderr } = startSchedule(ws, cli, 60_000);
    await until(() => jsonLines(stderr()).some((l) => l.event === 'job.end'), 20_000);
    expect(readFileSync(join(ws.root, 'marks.txt'), 'utf8')).toContain('got SIGTERM');
    expect(jsonLines(stderr()).find((l) => l.event === 'job.end')).toMatchObject({ job: 'nightly', code: 143, outcome: 'failed' });
    expect(proc.exitCode).toBeNull();
    const exited = exitOf(proc);
    proc.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  }, 30_000);

  it('kills a command that ignores SIGTERM once the grace period is over, then exits 0', async () => {
    const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
    root = ws.root;
    const cli = fakeCli(ws.root, 'ignore');
    const { proc, stderr } = startSchedule(ws, cli, 700);
    const marks = join(ws.root, 'marks.txt');
    await until(() => existsSync(marks) && readFileSync(marks, 'utf8').includes('started'), 20_000);
    const exited = exitOf(proc);
    const sentAt = Date.now();
    proc.kill('SIGTERM');
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - sentAt).toBeGreaterThanOrEqual(650);
    expect(at - sentAt).toBeLessThan(10_000); // bounded: SIGKILL after the grace period ends the wait
    expect(readFileSync(marks, 'utf8')).toContain('got SIGTERM');
    expect(jsonLines(stderr()).find((l) => l.event === 'job.end')).toMatchObject({ code: 137, outcome: 'failed' });
  }, 30_000);
});
