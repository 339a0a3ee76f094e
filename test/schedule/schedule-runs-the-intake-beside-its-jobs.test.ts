// `schedule` with LAWSUIT_CALLBACK_PORT runs the webhook intake beside its jobs, in its own process: deliveries to
// the URL are written to the spool beside the warehouse, the log says where it listens without the secret, and
// SIGTERM stops both (exit 0), the segment closed. Without the port there is no intake.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSegments, readLines } from '../../src/intake/spool-files.js';
import { responseIdOf } from '../../src/intake/spool-format.js';
import { delivery } from '../intake/deliveries.js';
import { CLI } from '../support/cli.js';
import { workspace } from './fixtures.js';

const SECRET = 'sched0123456789abcdef0123456789abcdef';
const procs: ChildProcess[] = [];
afterEach(() => { for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL'); });

function schedule(ws: ReturnType<typeof workspace>, env: Record<string, string>): { proc: ChildProcess; logs: () => Array<Record<string, unknown>> } {
  const proc = spawn(process.execPath, [CLI, 'schedule', '--jobs', ws.jobsDir, '--state', ws.statePath], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', LOG_FORMAT: 'json', LAWSUIT_WAREHOUSE: join(ws.root, 'data', 'w.duckdb'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  procs.push(proc);
  let err = '';
  proc.stderr!.on('data', (d) => { err += String(d); });
  return { proc, logs: () => err.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

async function until<T>(get: () => T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('schedule with a callback port', () => {
  it('serves the intake beside its jobs until SIGTERM, its log naming the URL without the secret', async () => {
    const ws = workspace({ nightly: { cron: '0 2 * * *', period_hours: 24 } });
    const s = schedule(ws, { LAWSUIT_CALLBACK_PORT: '0', LAWSUIT_CALLBACK_SECRET: SECRET, LAWSUIT_DOCUMENTS: 'config/documents.example.csv', LAWSUIT_SANDBOX: 'true' });
    const listening = await until(() => s.logs().find((l) => l.event === 'intake.listening'), 30_000);
    expect(String(listening.listening)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/\[secret\]$/);
    expect(JSON.stringify(s.logs())).not.toContain(SECRET);
    const url = String(listening.listening).replace('[secret]', SECRET);
    const answer = await fetch(url, { method: 'POST', body: delivery('r-1', 'q-1') });
    expect(answer.status).toBe(200);
    const exited = new Promise<number | null>((r) => s.proc.once('exit', (code) => r(code)));
    s.proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    const segments = await listSegments(join(ws.root, 'data', 'w.duckdb.spool'));
    expect(segments.map((x) => x.open)).toEqual([false]);
    const ids: string[] = [];
    for await (const l of readLines(segments[0].path)) ids.push(responseIdOf(l.text)!);
    expect(ids).toEqual(['r-1']);
  });
});
