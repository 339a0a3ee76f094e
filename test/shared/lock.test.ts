import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireRunLock, readLiveHolder } from '../../src/shared/lock.js';
import { EtlError } from '../../src/shared/errors.js';
import { transpileForChildren } from '../schedule/transpile.js';
import { exitCodeOfError } from '../support/exit.js';

function capture(): { log: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({ write(c, _e, cb) { chunks.push(String(c)); cb(); } });
  return { log: pino({ level: 'debug' }, sink), lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => c.once('exit', r));
  return c.pid!;
}

let dir: string;
let built: string;
const children: ChildProcess[] = [];

beforeAll(() => { built = transpileForChildren(); });
afterAll(() => { rmSync(built, { recursive: true, force: true }); });
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function fresh(): string {
  dir = mkdtempSync(join(tmpdir(), 'etl-lock-'));
  return join(dir, 'sub', 'run.lock');
}

async function expectLocked(p: Promise<unknown>): Promise<EtlError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(EtlError);
  expect((e as EtlError).code).toBe('RUN_LOCKED');
  expect(exitCodeOfError(e)).toBe(75);
  return e as EtlError;
}

describe('run lock in one process', () => {
  it('refuses a second holder, naming the first, until it is released', async () => {
    const path = fresh();
    const first = await acquireRunLock(path, { command: 'run' });
    const written = JSON.parse(readFileSync(path, 'utf8'));
    expect(written).toMatchObject({ pid: process.pid, hostname: hostname(), command: 'run' });
    expect(Number.isNaN(Date.parse(written.started_at))).toBe(false);

    // A lock whose holder is this very process but not known to the caller would look stale; use the parent's pid.
    writeFileSync(path, JSON.stringify({ ...written, pid: process.ppid }));
    const e = await expectLocked(acquireRunLock(path, { command: 'transfer' }));
    expect(e.message).toContain(`pid ${process.ppid}`);
    expect(e.message).toContain('"run"');
    expect(e.message).toContain(written.started_at);
    // The first holder's release must not remove a lock that is no longer its own.
    await first.release();
    expect(existsSync(path)).toBe(true);

  });

  it('refuses this same process a second time while it holds the lock', async () => {
    const path = fresh();
    const first = await acquireRunLock(path, { command: 'run' });
    const e = await expectLocked(acquireRunLock(path, { command: 'run' }));
    expect(e.message).toContain(`pid ${process.pid}`);
    await first.release();
  });

  it('releases on release() so the next run can take it', async () => {
    const path = fresh();
    const a = await acquireRunLock(path, { command: 'run' });
    await a.release();
    expect(existsSync(path)).toBe(false);
    const b = await acquireRunLock(path, { command: 'run' });
    expect(existsSync(path)).toBe(true);
    await b.release();
  });

  it('takes over a lock left by a process that is gone, with a warning', async () => {
    const path = fresh();
    const a = await acquireRunLock(path, { command: 'x' });
    await a.release();
    const pid = await deadPid();
    writeFileSync(path, JSON.stringify({ pid, hostname: hostname(), command: 'run', started_at: '2026-01-01T02:00:00.000Z' }));
    const { log, lines } = capture();
    const lock = await acquireRunLock(path, { command: 'transfer' }, { log });
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    const warn = lines().find((l) => l.event === 'lock.takeover');
    expect(warn).toMatchObject({ level: 40, previous: { pid } });
    await lock.release();
  });

  it('trusts a fresh lock from another host and takes over one not refreshed for staleAfterMs', async () => {
    const path = fresh();
    await (await acquireRunLock(path, { command: 'x' })).release();
    writeFileSync(path, JSON.stringify({ pid: 1, hostname: 'other-pod', command: 'run', started_at: '2026-01-01T02:00:00.000Z' }));
    await expectLocked(acquireRunLock(path, { command: 'run' }, { staleAfterMs: 60_000 }));
    expect(await readLiveHolder(path, { staleAfterMs: 60_000 })).toMatchObject({ hostname: 'other-pod' });
    const old = new Date(Date.now() - 120_000);
    utimesSync(path, old, old);
    expect(await readLiveHolder(path, { staleAfterMs: 60_000 })).toBeUndefined();
    const { log } = capture();
    const lock = await acquireRunLock(path, { command: 'run' }, { staleAfterMs: 60_000, log });
    expect(JSON.parse(readFileSync(path, 'utf8')).hostname).toBe(hostname());
    await lock.release();
  });

  it('lets exactly one of many concurrent takeovers of a stale lock win', async () => {
    const path = fresh();
    await (await acquireRunLock(path, { command: 'x' })).release();
    writeFileSync(path, JSON.stringify({ pid: await deadPid(), hostname: hostname(), command: 'run', started_at: 'then' }));
    const { log } = capture();
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => acquireRunLock(path, { command: 'run' }, { log })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'fulfilled') await r.value.release();
  });
});

describe('run lock across processes', () => {
  function holder(path: string, mode: 'wait' | 'exit'): Promise<{ child: ChildProcess }> {
    const script = `
      import { acquireRunLock } from ${JSON.stringify(join(built, 'src/shared/lock.js'))};
      const lock = await acquireRunLock(process.argv[1], { command: 'run' });
      process.on('SIGTERM', async () => { await lock.release(); process.exit(0); });
      console.log('held');
      if (process.argv[2] === 'exit') process.exit(0);
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, path, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    return new Promise((res, rej) => {
      child.stdout!.on('data', (d) => { if (String(d).includes('held')) res({ child }); });
      child.once('exit', (code) => { if (mode === 'wait') rej(new Error(`holder exited ${code}`)); });
    });
  }

  it('refuses while another process holds it, and succeeds once that process releases on SIGTERM', async () => {
    const path = fresh();
    const { child } = await holder(path, 'wait');
    const e = await expectLocked(acquireRunLock(path, { command: 'transfer' }));
    expect(e.message).toContain(`pid ${child.pid}`);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    expect(existsSync(path)).toBe(false);
    const lock = await acquireRunLock(path, { command: 'transfer' });
    await lock.release();
  });

  it('takes over after the holder was killed with SIGKILL', async () => {
    const path = fresh();
    const { child } = await holder(path, 'wait');
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(path)).toBe(true);
    const { log } = capture();
    const lock = await acquireRunLock(path, { command: 'run' }, { log });
    await lock.release();
  });

  it('is removed by the exit hook when the holder exits without releasing', async () => {
    const path = fresh();
    const { child } = await holder(path, 'exit');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    expect(existsSync(path)).toBe(false);
  });
});
