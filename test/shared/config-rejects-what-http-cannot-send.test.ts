import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatSummary, type RunSummary } from '../../src/pipeline/summary.js';
import { loadConfig } from '../../src/shared/config.js';
import { ConfigError } from '../../src/shared/errors.js';
import { runCli } from '../support/cli.js';

// A key or an address that cannot go out as an HTTP header or address is a configuration error at start
// (exit 2, naming the variable, never printing its value), not a run that goes silent; provider text never
// reaches a terminal with its control characters.

const urls = { LAWSUIT_REQUESTS_URL: 'https://api.example', LAWSUIT_TRACKING_URL: 'https://api.example', LAWSUIT_LAWSUITS_URL: 'https://api.example', LAWSUIT_TRANSFER_URL: 'https://api.example', LAWSUIT_DOCUMENTS: 'config/documents.example.csv' };
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ env: { ...urls, ...env } });
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
};

describe('a key or an address the HTTP stack cannot send', () => {
  it('refuses invisible and non-ASCII characters in the key, naming the variable and never the value', () => {
    for (const [what, key] of [['a trailing zero-width space', 'k3y-secret\u200b'], ['a euro sign', 'k3y€secret'], ['a control character', 'k3y\u0001secret'], ['a space', 'k3y secret']]) {
      const problems = problemsOf({ LAWSUIT_API_KEY: key });
      expect(problems, what).toHaveLength(1);
      expect(problems[0], what).toMatch(/^LAWSUIT_API_KEY: the key contains .* so it cannot be sent as the api-key header \(the value is not shown\)$/);
      expect(problems[0]).not.toContain('secret');
    }
    expect(problemsOf({ LAWSUIT_API_KEY: 'a-plain-key_0123' })).toEqual([]);
  });

  it('a key file may end with a newline, nothing else invisible', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    try {
      writeFileSync(join(dir, 'ok'), 'a-plain-key\n');
      writeFileSync(join(dir, 'bad'), 'a-plain-key\u200b\n');
      expect(problemsOf({ LAWSUIT_API_KEY_FILE: join(dir, 'ok') })).toEqual([]);
      expect(problemsOf({ LAWSUIT_API_KEY_FILE: join(dir, 'bad') })[0]).toMatch(/^LAWSUIT_API_KEY_FILE: the key contains a character outside visible ASCII \(U\+200B\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an address with credentials, a query or blanks, printing it with the password redacted', () => {
    const problems = problemsOf({ LAWSUIT_API_KEY: 'k', LAWSUIT_TRACKING_URL: 'https://user:hunter2@api.example/v1', LAWSUIT_LAWSUITS_URL: 'https://api.example/x?token=abc', LAWSUIT_TRANSFER_URL: 'https://api.example/\u200b' });
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems.join('\n')).not.toContain('token=abc');
    expect(problems.some((p) => p.startsWith('LAWSUIT_TRACKING_URL="https://[redacted]@api.example/v1" carries credentials'))).toBe(true);
    expect(problems.some((p) => p.startsWith('LAWSUIT_LAWSUITS_URL="https://api.example/x?[redacted]" has a query'))).toBe(true);
    expect(problems.some((p) => p.startsWith('LAWSUIT_TRANSFER_URL=') && p.includes('not an http(s) address'))).toBe(true);
  });

  it('through the CLI: exit 2 at start, before anything is opened or sent', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-cli-'));
    try {
      const res = runCli(['run'], { PATH: process.env.PATH ?? '', ...urls, LAWSUIT_API_KEY: 'k3y-secret\u200b', LAWSUIT_WAREHOUSE: join(dir, 'w.duckdb') }, 30_000);
      expect(res.status).toBe(2);
      expect(res.stderr).toContain('LAWSUIT_API_KEY: the key contains a character outside visible ASCII (U+200B)');
      expect(res.stderr).not.toContain('k3y-secret');
      expect(spawnSync('ls', [dir], { encoding: 'utf8' }).stdout.trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('provider text on a terminal', () => {
  it('the summary shows control characters as escapes, never raw', () => {
    const s: RunSummary = {
      runId: 'r', command: 'run', status: 'partial', exitCode: 4, startedAt: '', finishedAt: '', durationMs: 1,
      stages: [{ name: 'transfer', status: 'failed', ms: 1, counts: {}, error: { code: 'API_SERVER', message: 'bad\u0000answer\u001b[2J' } }],
      api: { calls: 0, byStatus: {}, retries: 0 },
      failures: [{ stage: 'transfer', what: 'transfer file', where: 'a\u0007.csv', code: 'API_SERVER', reason: 'nul\u0000 and escape \u001b[31m' }],
    };
    const text = formatSummary(s);
    expect(text).not.toMatch(/[\u0000-\u0008\u001b]/);
    expect(text).toContain('bad\\u{00}answer\\u{1b}[2J');
    expect(text).toContain('a\\u{07}.csv');
  });
});
