import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, readFile, unlink, utimes, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { EtlError } from './errors.js';
import { logger } from './logger.js';

// One run at a time on a warehouse, across processes: a lock file created with O_EXCL next to the data.
// DuckDB would refuse a second writer anyway, but only after the second run has already spent API calls.

/** What the lock file holds (JSON). */
interface LockHolder {
  pid: number;
  hostname: string;
  command: string;
  /** ISO-8601 instant the holder took the lock. */
  started_at: string;
}

interface RunLock {
  readonly holder: LockHolder;
  /** Remove the lock file if it is still ours. Safe to call more than once. */
  release(): Promise<void>;
}

interface AcquireOptions {
  /** Refresh the lock file's modification time this often, so other hosts can tell it is alive. Default 60 000 ms. */
  heartbeatMs?: number;
  /**
   * A lock whose file was not refreshed for this long is stale even if its pid looks alive (another host or
   * container, whose pids we cannot check, or a pid reused after a restart). Default 600 000 ms (10 min).
   */
  staleAfterMs?: number;
  /** Where the takeover warning goes. Default the root logger. */
  log?: Logger;
}

// Locks this process holds now (path + started_at): our own pid in a lock file is live only if it is one of these.
const heldHere = new Set<string>();

/**
 * Take the run lock at `path` (Config.lockFile: beside the warehouse it guards) or throw EtlError `RUN_LOCKED`
 * naming the holder: this run did nothing, a later one can (the CLI ends it with "try later"). A stale lock (holder pid gone on
 * this host, or file not refreshed for `staleAfterMs`) is taken over with a warning. The caller releases it;
 * a process 'exit' hook also removes it on a normal exit, but not on SIGKILL (then the next run finds it stale).
 */
export async function acquireRunLock(path: string, info: { command: string }, opts: AcquireOptions = {}): Promise<RunLock> {
  const log = opts.log ?? logger();
  const staleAfterMs = opts.staleAfterMs ?? 600_000;
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), command: info.command, started_at: new Date().toISOString() };
  await mkdir(dirname(path), { recursive: true });

  for (let attempt = 0; attempt < 10; attempt++) {
    if (tryCreate(path, holder)) return held(path, holder, opts.heartbeatMs ?? 60_000);
    const current = await readHolder(path);
    if (current === 'gone') continue;
    const verdict = current === 'unreadable' ? await staleness(path, undefined, staleAfterMs) : await staleness(path, current, staleAfterMs);
    if (!verdict) throw lockedError(path, current === 'unreadable' ? undefined : current);
    if (await takeOver(path, current)) {
      log.warn({ event: 'lock.takeover', lock: path, previous: current === 'unreadable' ? null : current, why: verdict }, 'took over a stale run lock');
    }
  }
  const current = await readHolder(path);
  throw lockedError(path, typeof current === 'object' ? current : undefined);
}

/** The current holder of the lock at `path`, or undefined when there is none or it is stale. */
export async function readLiveHolder(path: string, opts: { staleAfterMs?: number } = {}): Promise<LockHolder | undefined> {
  const current = await readHolder(path);
  if (typeof current !== 'object') return undefined;
  return (await staleness(path, current, opts.staleAfterMs ?? 600_000)) ? undefined : current;
}

function tryCreate(path: string, holder: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new EtlError('RUN_LOCK_IO', `cannot create the run lock ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    writeSync(fd, JSON.stringify(holder) + '\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

async function readHolder(path: string): Promise<LockHolder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw new EtlError('RUN_LOCK_IO', `cannot read the run lock ${path}: ${(e as Error).message}`, { cause: e });
  }
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (typeof v.pid === 'number' && typeof v.hostname === 'string') {
      return { pid: v.pid, hostname: v.hostname, command: String(v.command ?? '?'), started_at: String(v.started_at ?? '?') };
    }
  } catch { /* a holder killed between open and write leaves an empty file */ }
  return 'unreadable';
}

/** Why the lock is stale, or undefined when it is live. */
async function staleness(path: string, h: LockHolder | undefined, staleAfterMs: number): Promise<string | undefined> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(path)).mtimeMs;
  } catch {
    return 'vanished';
  }
  const quietMs = Date.now() - mtimeMs;
  if (h && h.hostname === hostname()) {
    // Our own pid in a lock this process does not hold: a previous incarnation (containers reuse low pids).
    if (h.pid === process.pid) return heldHere.has(`${path}\n${h.started_at}`) ? undefined : 'holder pid is this process';
    if (!pidAlive(h.pid)) return 'holder pid is not running';
  }
  if (quietMs > staleAfterMs) return `not refreshed for ${Math.round(quietMs / 1000)} s`;
  if (!h && quietMs > 5_000) return 'unreadable lock file';
  return undefined;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the pid exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Replace a stale lock without ever moving a live one. Takers serialise on `<lock>.takeover` (created
 * exclusively); the one holding it re-reads the lock, and only if it is still the one judged stale removes it,
 * so that the caller's exclusive create decides. Moving the lock aside instead (the earlier way) let a second
 * taker move the first one's fresh lock for an instant, and a third process create its own in that gap: two
 * winners. A takeover file left by a process killed mid-takeover is cleared after 30 s.
 */
async function takeOver(path: string, judged: LockHolder | 'unreadable'): Promise<boolean> {
  const mutex = `${path}.takeover`;
  try {
    closeSync(openSync(mutex, 'wx', 0o644));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const age = await stat(mutex).then((st) => Date.now() - st.mtimeMs, () => 0);
    if (age > 30_000) await unlink(mutex).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    return false;
  }
  try {
    const current = await readHolder(path);
    const same = judged === 'unreadable'
      ? current === 'unreadable'
      : typeof current === 'object' && current.pid === judged.pid && current.started_at === judged.started_at && current.hostname === judged.hostname;
    if (same) await unlink(path).catch(() => undefined);
    return same;
  } finally {
    await unlink(mutex).catch(() => undefined);
  }
}

function lockedError(path: string, h: LockHolder | undefined): EtlError {
  const who = h ? `pid ${h.pid} on ${h.hostname}, command "${h.command}", started ${h.started_at}` : 'an unknown process';
  return new EtlError('RUN_LOCKED', `another run holds the lock ${path} (${who}); this run did nothing`, {
    details: { lock: path, holder: h ?? null },
  });
}

function held(path: string, holder: LockHolder, heartbeatMs: number): RunLock {
  let released = false;
  const key = `${path}\n${holder.started_at}`;
  heldHere.add(key);
  const ours = (): boolean => {
    try {
      const v = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
      return v.pid === holder.pid && v.started_at === holder.started_at && v.hostname === holder.hostname;
    } catch {
      return false;
    }
  };
  const timer = setInterval(() => {
    const t = new Date();
    utimes(path, t, t).catch(() => undefined);
  }, heartbeatMs);
  timer.unref();
  const onExit = (): void => {
    if (released) return;
    released = true;
    heldHere.delete(key);
    clearInterval(timer);
    try {
      if (ours()) unlinkSync(path);
    } catch { /* best effort while exiting */ }
  };
  process.once('exit', onExit);
  return {
    holder,
    async release() {
      process.removeListener('exit', onExit);
      onExit();
    },
  };
}
