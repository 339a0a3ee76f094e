import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, scratch } from '../support/pipeline.js';
import { apiEnv, CLI } from '../support/cli.js';
import { startTrickleServer, type Trickler } from '../support/trickle.js';

// SIGTERM during the night's very first call. That call, cut off by the signal, was the only call of the night
// and had no answer, so the publish was skipped as "nothing reached the upstream" while the run exited 4 as
// interrupted: two verdicts on one night. A call cut off by our own stop says nothing of the upstream: the run is
// interrupted, and publishes what it has, as any stopped run does.

describe('SIGTERM during the night\'s very first call', () => {
  let upstream: Trickler;
  const tmp = scratch();
  beforeAll(async () => { upstream = await startTrickleServer(); });
  afterAll(async () => { await upstream.close(); tmp.cleanup(); });

  it('is an interrupted night, published, its stages and its exit code agreeing', async () => {
    const documents = join(tmp.dir, 'documents.csv');
    writeFileSync(documents, 'search_key\n529.982.247-25\n111.444.777-35\n');
    const env = apiEnv(upstream.url, {
      LAWSUIT_DOCUMENTS: documents, LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
      LAWSUIT_STAGING_DIR: join(tmp.dir, 'staging'), LAWSUIT_SKIP_EXPORT: 'true',
      // deadlines far beyond the test: only SIGTERM ends the call
      LAWSUIT_BODY_TIMEOUT_SECONDS: '3600', LAWSUIT_SHUTDOWN_GRACE_SECONDS: '5',
    });
    const child = spawn(process.execPath, [CLI, 'run'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await upstream.whenTrickled(1);
      expect(upstream.trickled()).toBe(1);
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 30_000))]);
      expect(code, stdout).toBe(4);
      expect(stdout).toMatch(/: interrupted in/);
      const warehouse = join(tmp.dir, 'w.duckdb');
      expect(existsSync(warehouse)).toBe(true);
      const [run] = await query<{ status: string }>(warehouse, 'SELECT status FROM runs');
      expect(run.status).toBe('interrupted');
      const stages = await query<{ stage: string; status: string; error_code: string | null }>(warehouse, 'SELECT stage, status, error_code FROM run_stages ORDER BY position');
      expect(stages.find((s) => s.stage === 'publish')).toEqual({ stage: 'publish', status: 'ok', error_code: null });
      expect(stages.map((s) => s.error_code)).not.toContain('RUN_UNREACHABLE');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
