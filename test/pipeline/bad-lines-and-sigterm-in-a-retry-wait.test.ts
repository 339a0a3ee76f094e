import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstEvent } from '../support/json-events.js';
import { query, scratch } from '../support/pipeline.js';
import { lastRun } from '../support/run-record.js';
import { CLI, runCli } from '../support/cli.js';
import { cpfs } from '../support/documents.js';

// A thousand bad lines do not stop the good one; SIGTERM ends a run that every call has told to wait two minutes.

describe('a list of a thousand bad lines and one good one', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());

  it('records the thousand rejections in bounded memory and searches the good one', async () => {
    const list = join(tmp.dir, 'list.csv');
    const bad = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `=HYPERLINK("x${i}")` : `123.456.789-0${i % 10}`));
    writeFileSync(list, `search_key\n${bad.join('\n')}\n${cpfs(1)[0]}\n`);
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', LAWSUIT_DOCUMENTS: list, LAWSUIT_SKIP_TRANSFER: 'true',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'e'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'r'),
    };
    const res = runCli(['run', '--sandbox'], env);
    expect(res.status, res.stderr).toBe(0);
    const run = await lastRun(env.LAWSUIT_WAREHOUSE);
    expect(run.stages.documents).toMatchObject({ status: 'ok', counts: { listed: 1001, valid: 1, rejected: 1000 } });
    expect(run.stages.search).toMatchObject({ status: 'ok', counts: { submitted: 1, completed: 1 } });
    const [{ n }] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, 'SELECT count(*)::INTEGER AS n FROM rejected_inputs');
    expect(n).toBe(1000);
  });
});


describe('SIGTERM while every call waits out a long Retry-After', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());

  it('ends within seconds, exit 4, the run recorded as interrupted, the night published', async () => {
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'debug', LAWSUIT_SANDBOX_FAULTS: 'storm=1:120000',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'e'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'r'),
      LAWSUIT_STAGING_DIR: join(tmp.dir, 's'),
    };
    const child = spawn(process.execPath, [CLI, 'run', '--sandbox'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    // the search's first call answered 429 "retry in 120 s", and the client about to wait (its 'retrying' event,
    // written just before it sleeps; after it every call waits the window out in the limiter)
    const retrying = await firstEvent(child.stderr, (e) => e.status === 429 && typeof e.delayMs === 'number', 60_000);
    expect(retrying.route).toMatch(/^(GET \/responses|POST \/requests)$/);
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    const seconds = (Date.now() - t0) / 1000;
    expect(code).toBe(4);
    expect(seconds).toBeLessThan(20);
    const run = await lastRun(env.LAWSUIT_WAREHOUSE);
    expect(run.status).toBe('interrupted');
    expect(run.stages.search.status).toBe('interrupted');
    expect(run.stages.publish.status).toBe('ok');
    expect(existsSync(`${env.LAWSUIT_WAREHOUSE}.work`)).toBe(false);
    expect(existsSync(env.LAWSUIT_WAREHOUSE)).toBe(true);
  });
});
