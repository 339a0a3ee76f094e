import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratch } from '../support/pipeline.js';

// `npm start` is `lawsuit-etl run --sandbox`: the compiled CLI, on a fresh warehouse, with no key and no
// network. This runs that very command (dist/ is built by `npm test` first) and checks what it leaves.

const CLI = 'dist/cli/main.js';
/** The arguments `npm start` gives the CLI, read from package.json: this test runs that very command. */
const START = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(`${CLI} `)[1].split(' ');

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8', timeout: 240_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
  });
}

describe('lawsuit-etl run --sandbox (npm start)', () => {
  it('runs the example list end to end and leaves a warehouse that meets the contract', () => {
    const tmp = scratch();
    try {
      const env = {
        LAWSUIT_WAREHOUSE: join(tmp.dir, 'warehouse.duckdb'), LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'),
        LAWSUIT_STAGING_DIR: join(tmp.dir, 'staging'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
      };
      expect(START.slice(0, 2)).toEqual(['run', '--sandbox']);
      const run = cli(START, env);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^run \S+ \(run\): ok in/m);
      expect(run.stdout).toMatch(/documents\s+ok\s+\d+ listed, \d+ valid, [1-9]\d* rejected/);
      expect(run.stdout).not.toContain('sandbox-key');
      expect(run.stderr).not.toContain('sandbox-key');
      expect(readdirSync(join(tmp.dir, 'reports')).filter((f) => f.endsWith('.md'))).toHaveLength(1);
      expect(existsSync(join(tmp.dir, 'exports', 'lawsuits'))).toBe(true);

      const check = spawnSync(process.execPath, ['../shared/tools/contract-check.mjs', env.LAWSUIT_WAREHOUSE], { encoding: 'utf8' });
      if (existsSync('../shared/tools/contract-check.mjs')) {
        expect(check.stdout + check.stderr).toContain('contract: 1 passed, 0 failed');
      }
      const raw = readFileSync(env.LAWSUIT_WAREHOUSE);
      expect(raw.includes(Buffer.from('sandbox-key'))).toBe(false);
    } finally {
      tmp.cleanup();
    }
  });

  it('--help works and an unknown command is a usage error (exit 2)', () => {
    const help = cli(['--help'], {});
    expect(help.status).toBe(0);
    for (const c of ['run', 'schedule', 'sandbox', 'export', 'transfer', 'query', 'track']) expect(help.stdout).toContain(`  ${c}`);
    const bad = cli(['frobnicate'], {});
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown command 'frobnicate'");
  });

  it('without --sandbox, missing key and addresses are all reported at once with exit 2', () => {
    const res = cli(['run'], { LAWSUIT_REQUESTS_URL: 'not a url', LAWSUIT_FRESHNESS_DAYS: '-3' });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('LAWSUIT_API_KEY');
    expect(res.stderr).toContain('LAWSUIT_REQUESTS_URL="not a url"');
    expect(res.stderr).toContain('LAWSUIT_FRESHNESS_DAYS="-3"');
    expect(res.stderr).toMatch(/LAWSUIT_TRACKING_URL.*required/);
  });

  it('a key without permission stops the run with exit 3 and says what to check', () => {
    const tmp = scratch();
    try {
      // a sandbox in a child process, so the run below talks to it over real HTTP with a refused key
      const res = spawnSync(process.execPath, ['-e', `
        const { spawn } = require('node:child_process');
        const sb = spawn(process.execPath, ['${CLI}', 'sandbox', '--port', '0', '--court-delay-ms', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
        sb.stdout.once('data', (d) => {
          const url = d.toString().split('\\n')[0].trim();
          const run = spawn(process.execPath, ['${CLI}', 'run', '--skip-transfer', '--skip-export'], { stdio: 'inherit', env: { ...process.env,
            LAWSUIT_API_KEY: 'sandbox-noperm', LAWSUIT_REQUESTS_URL: url, LAWSUIT_TRACKING_URL: url, LAWSUIT_LAWSUITS_URL: url, LAWSUIT_TRANSFER_URL: url } });
          run.on('exit', (code) => { sb.kill('SIGTERM'); process.exitCode = code; });
        });`], {
        encoding: 'utf8', timeout: 120_000,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'fatal', LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'r'), LAWSUIT_DOCUMENTS: 'config/documents.example.csv' },
      });
      expect(res.status).toBe(3);
      expect(res.stderr).toMatch(/permission|quota/i);
      expect(res.stderr).not.toContain('sandbox-noperm');
    } finally {
      tmp.cleanup();
    }
  });
});
