import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readDocuments } from '../../src/input/documents.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { scratch } from '../support/pipeline.js';
import { apiEnv, CLI, counters, runCli, sandboxProcess, type SandboxProcess } from '../support/cli.js';

// SIGTERM in the middle of a run (a container being stopped): the run stops submitting, finishes what is in
// hand, records its state, releases the lock and exits promptly, publishing nothing half-done; the next run
// resumes and buys no request twice.

describe('SIGTERM in the middle of a run', () => {
  let sb: SandboxProcess;
  const tmp = scratch();
  // courts take a while, so requests are still running when the signal comes
  beforeAll(async () => { sb = await sandboxProcess(['--rate-limit', '100000', '--court-delay-ms', '400']); });
  afterAll(async () => { await sb.stop(); tmp.cleanup(); });

  it('stops cleanly, keeps its work for the next run, which finishes it', async () => {
    const env = apiEnv(sb.url, {
      LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
      LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'), LAWSUIT_SKIP_TRANSFER: 'true',
    });
    const child = spawn(process.execPath, [CLI, 'run'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    for (let i = 0; i < 200; i++) {
      if (((await counters(sb.url)).by_endpoint['POST /requests']?.['200'] ?? 0) >= 5) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const t0 = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(code).toBe(4);
    expect(stdout).toMatch(/: interrupted in/);
    expect(existsSync(join(tmp.dir, 'w.duckdb.lock'))).toBe(false);
    // nothing half-done was published; the work copy holds the state, with the run recorded as interrupted
    expect(existsSync(join(tmp.dir, 'w.duckdb'))).toBe(false);
    const work = await Warehouse.open(join(tmp.dir, 'w.duckdb.work'), { readOnly: true });
    const [run] = await work.all<{ status: string }>('SELECT status FROM runs');
    await work.close();
    expect(run.status).toBe('interrupted');

    const again = runCli(['run'], env);
    expect(again.status, again.stderr).toBe(0);
    const docs = (await readDocuments('config/documents.example.csv')).documents.length;
    expect((await counters(sb.url)).by_endpoint['POST /requests']?.['200']).toBe(docs);
    expect(existsSync(join(tmp.dir, 'w.duckdb'))).toBe(true);
  }, 300_000);
});
