import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, scratch } from '../support/pipeline.js';
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
    expect(res.stdout).toMatch(/documents\s+ok\s+1001 listed, 1 valid, 1000 rejected/);
    expect(res.stdout).toMatch(/search\s+ok\s+1 submitted, 1 completed/);
    const [{ n }] = await query<{ n: number }>(env.LAWSUIT_WAREHOUSE, 'SELECT count(*)::INTEGER AS n FROM rejected_inputs');
    expect(n).toBe(1000);
  });
});


describe('SIGTERM while every call waits out a long Retry-After', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());

  it('ends within seconds, exit 4, with the summary, the night published', async () => {
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'debug', LAWSUIT_SANDBOX_FAULTS: 'storm=1:120000',
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'e'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'r'),
      LAWSUIT_STAGING_DIR: join(tmp.dir, 's'),
    };
    const child = spawn(process.execPath, [CLI, 'run', '--sandbox'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.stderr.on('data', (d) => { err += String(d); });
    // once the search's first call (the dialect probe) is answered 429 "retry in 120 s" (the client's debug line),
    // every call waits it out; and a moment for the rest: a fixed wait from the start could end before the search
    // began on a loaded machine
    const limited = () => /"route":"GET \/responses","status":429|"route":"POST \/requests","status":429/.test(err);
    for (const t0 = Date.now(); !limited() && Date.now() - t0 < 60_000;) await new Promise((r) => setTimeout(r, 50));
    expect(limited(), 'the search\'s first call was answered 429').toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    const seconds = (Date.now() - t0) / 1000;
    expect(code).toBe(4);
    expect(seconds).toBeLessThan(20);
    expect(out).toMatch(/\(run\): interrupted in/);
    expect(out).toMatch(/search\s+interrupted/);
    expect(out).toMatch(/publish\s+ok/);
    expect(existsSync(`${env.LAWSUIT_WAREHOUSE}.work`)).toBe(false);
    expect(existsSync(env.LAWSUIT_WAREHOUSE)).toBe(true);
  });
});
