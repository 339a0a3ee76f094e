// The intake and the night as processes, killed as a power cut would (SIGKILL): the intake in the middle of the
// deliveries, then started again on its port, loses nothing (a delivery acknowledged is on disk, one not
// acknowledged is sent again by the provider and written once); the night killed before its publish leaves the
// spool as it was, and the night run again publishes the warehouse a polled night makes, after which the segments
// it holds whole are deleted.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listSegments, readLines } from '../../src/intake/spool-files.js';
import { responseIdOf } from '../../src/intake/spool-format.js';
import { apiEnv, CLI, runCliAsync, runFiles, sandboxProcess, warehouseFingerprint, type SandboxProcess } from '../support/cli.js';
import { query, scratch } from '../support/pipeline.js';

const SECRET = 'kill0123456789abcdef0123456789abcdef';
const tmp = scratch();
const spool = join(tmp.dir, 'pushed.duckdb.spool');
let sb: SandboxProcess;
let intake: ChildProcess | undefined;

/** `receive` in a child process on `port` (0: any); resolves with its URL, its first line. */
function receive(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'receive', '--port', String(port)], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', LAWSUIT_CALLBACK_SECRET: SECRET, ...runFiles(tmp.dir, 'pushed') }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('receive printed no URL within 30 s')); }, 30_000);
    child.once('exit', (code) => { clearTimeout(late); reject(new Error(`receive exited (${code})`)); });
    child.stdout!.once('data', (d: Buffer) => {
      clearTimeout(late);
      child.removeAllListeners('exit');
      resolve({ child, url: d.toString().split('\n')[0].trim() });
    });
  });
}

const exited = (c: ChildProcess): Promise<void> => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

/** Waits for `ok` to hold, looking every 50 ms, for at most `ms`. */
async function until(ok: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function spooled(): Promise<{ ids: string[]; segments: string[] }> {
  const ids: string[] = [];
  const segs = await listSegments(spool);
  for (const s of segs) for await (const l of readLines(s.path)) ids.push(responseIdOf(l.text)!);
  return { ids, segments: segs.filter((s) => !s.open).map((s) => s.id) };
}

const callbacks = async (): Promise<{ deliveries: number; delivered: number; dropped: number }> => (await fetch(`${sb.url}/_sandbox/callbacks`)).json() as never;

beforeAll(async () => {
  sb = await sandboxProcess(['--rate-limit', '100000', '--court-delay-ms', '40', '--callback-retry-ms', '50', '--callback-attempts', '100']);
});
afterAll(async () => {
  intake?.kill('SIGKILL');
  await sb.stop();
  tmp.cleanup();
});

describe('the intake and the night, killed', () => {
  test('lose nothing: the intake started again, the night run again, and the warehouse is a polled night\'s', async () => {
    let first = await receive(0);
    intake = first.child;
    const port = Number(new URL(first.url).port);
    const env = apiEnv(sb.url, { ...runFiles(tmp.dir, 'pushed'), LAWSUIT_CALLBACK_URL: first.url, LAWSUIT_CALLBACK_SECRET: SECRET, LAWSUIT_CALLBACK_WAIT_SECONDS: '30', LAWSUIT_SKIP_TRANSFER: 'true' });
    const night = runCliAsync(['run'], { ...env, LAWSUIT_FAILPOINTS: 'stage.after-search=1' });
    // in the middle of the deliveries: some are in, most are to come
    await until(async () => (await spooled()).ids.length >= 30, 60_000, 'the first deliveries');
    intake.kill('SIGKILL');
    await exited(intake);
    first = await receive(port);
    intake = first.child;
    const killed = await night;
    expect(killed.code, killed.stderr).toBeNull();

    // every delivery the sandbox made is in the spool once, none given up
    await until(async () => { const c = await callbacks(); return c.delivered + c.dropped === c.deliveries; }, 60_000, 'the deliveries');
    const c = await callbacks();
    const after = await spooled();
    expect(c.dropped).toBe(0);
    expect(after.ids.length).toBe(new Set(after.ids).size);
    expect(after.ids.length).toBe(c.deliveries);
    // the segment the killed intake was writing was closed by the one started again, and the unpublished night kept it
    expect(after.segments.length).toBeGreaterThan(0);

    const again = await runCliAsync(['run'], env);
    expect(again.code, again.stderr).toBe(0);
    const [r] = await query<{ n: bigint; loaded: bigint }>(env.LAWSUIT_WAREHOUSE, 'SELECT count(*) AS n, count(loaded_at) AS loaded FROM requests');
    expect(r.loaded).toBe(r.n);
    const raw = new Set((await query<{ id: string }>(env.LAWSUIT_WAREHOUSE, 'SELECT response_id AS id FROM responses_raw')).map((x) => x.id));
    expect(after.ids.filter((id) => !raw.has(id))).toEqual([]);
    // published: the segments it read whole, closed before it, are gone; the one the intake is writing stays
    const left = await listSegments(spool);
    expect(left.filter((x) => after.segments.includes(x.id))).toEqual([]);
    expect(left.every((x) => x.open)).toBe(true);
    intake.kill('SIGTERM');
    await exited(intake);
    intake = undefined;

    const polled = apiEnv(sb.url, { ...runFiles(tmp.dir, 'polled'), LAWSUIT_SKIP_TRANSFER: 'true' });
    const reference = await runCliAsync(['run'], polled);
    expect(reference.code, reference.stderr).toBe(0);
    expect(await warehouseFingerprint(env.LAWSUIT_WAREHOUSE)).toEqual(await warehouseFingerprint(polled.LAWSUIT_WAREHOUSE));
  });
});
