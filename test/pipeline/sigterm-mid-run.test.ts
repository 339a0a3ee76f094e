import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../src/input/documents.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { apiEnv, CLI, bought, purchases, runCli, sandboxProcess, type SandboxProcess } from '../support/cli.js';

// SIGTERM in the middle of a run (a container being stopped): the run stops submitting, cuts off its calls in
// flight, records its state, publishes what it loaded (its stopped requests outstanding in the ledger), releases
// the lock and exits promptly; the next run resumes and buys no request twice.

describe('SIGTERM in the middle of a run', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  // courts take a while, so requests are still running when the signal comes
  beforeAll(async () => { sb = await sandboxProcess(['--rate-limit', '100000', '--court-delay-ms', '400']); });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('stops cleanly, publishes what it loaded, and the next run finishes it', async () => {
    const env = apiEnv(sb.url, {
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
      LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'), LAWSUIT_SKIP_TRANSFER: 'true',
    });
    const child = spawn(process.execPath, [CLI, 'run'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    for (let i = 0; i < 200; i++) {
      if ((await bought(sb.url)) >= 5) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(code).toBe(4);
    expect(stdout).toMatch(/: interrupted in/);
    expect(existsSync(join(tmp.dir, 'w.duckdb.lock'))).toBe(false);
    // what was loaded is published, with the run recorded as interrupted and its search stage as stopped
    expect(existsSync(join(tmp.dir, 'w.duckdb.work'))).toBe(false);
    const published = await Warehouse.open(join(tmp.dir, 'w.duckdb'), { readOnly: true });
    const [run] = await published.all<{ status: string }>('SELECT status FROM runs');
    const stages = await published.all<{ stage: string; status: string }>('SELECT stage, status FROM run_stages ORDER BY position');
    const [{ outstanding }] = await published.all<{ outstanding: number }>('SELECT count(*)::INTEGER AS outstanding FROM requests WHERE loaded_at IS NULL');
    await published.close();
    expect(run.status).toBe('interrupted');
    expect(stages.find((x) => x.stage === 'search')?.status).toBe('interrupted');
    expect(stages.find((x) => x.stage === 'publish')?.status).toBe('ok');
    expect(stages.find((x) => x.stage === 'exports')?.status).toBe('skipped');
    expect(outstanding).toBeGreaterThan(0);

    const again = runCli(['run'], env);
    expect(again.status, again.stderr).toBe(0);
    // every search of the list bought once, and every lawsuit-level read once, across the stopped run and this one
    const docs = (await readDocuments('config/documents.example.csv')).documents.length;
    const p = await purchases(join(tmp.dir, 'w.duckdb'));
    expect(p.searches).toBe(docs);
    expect(p.reads).toBe(p.readNumbers);
    expect(await bought(sb.url)).toBe(docs + p.reads);
    expect(existsSync(join(tmp.dir, 'w.duckdb'))).toBe(true);
  }, 300_000);
});
