import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../support/cli.js';
import { scratch } from '../support/pipeline.js';

// A key file is read only if it is a regular file. A FIFO given as LAWSUIT_API_KEY_FILE held the run for ever
// (reading a FIFO waits for a writer), where a FIFO given as the documents list was refused at once. Each case
// runs the real CLI in a child with a deadline: a read that blocks fails the test instead of holding it.

const tmp = scratch();
afterAll(() => tmp.cleanup());

function fifo(name: string): string {
  const path = join(tmp.dir, name);
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
  return path;
}

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, [CLI, 'run', '--sandbox', '--dry-run'], {
    encoding: 'utf8', timeout: 20_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LAWSUIT_WAREHOUSE: join(tmp.dir, 'w.duckdb'), ...env },
  });
}

describe('a secret read from a file', () => {
  it.each([
    ['LAWSUIT_API_KEY_FILE', 'a FIFO', () => fifo('key.fifo'), /LAWSUIT_API_KEY_FILE=.*key\.fifo: is a FIFO \(named pipe\), not a regular file/],
    ['LAWSUIT_EXPORT_SALT_FILE', 'a FIFO', () => fifo('salt.fifo'), /LAWSUIT_EXPORT_SALT_FILE=.*salt\.fifo: is a FIFO \(named pipe\), not a regular file/],
    ['LAWSUIT_CONFIG', 'a FIFO', () => fifo('config.fifo'), /config\.fifo: is a FIFO \(named pipe\), not a regular file/],
    ['LAWSUIT_API_KEY_FILE', 'a folder', () => { const d = join(tmp.dir, 'key.d'); mkdirSync(d); return d; }, /LAWSUIT_API_KEY_FILE=.*key\.d: is a folder, not a regular file/],
  ])('%s given %s is refused at once, as a configuration problem', (variable, _what, make, said) => {
    const res = start({ [variable]: make(), ...(variable === 'LAWSUIT_EXPORT_SALT_FILE' ? { LAWSUIT_EXPORT_PRIVACY: 'pseudonymise' } : {}) });
    expect(res.error, 'the run did not end within its deadline').toBeUndefined();
    expect(res.status, res.stderr).toBe(2);
    expect(res.stderr).toMatch(said);
  });

  it('a regular key file is read as before', () => {
    const key = join(tmp.dir, 'key.txt');
    writeFileSync(key, 'a-key-of-the-right-shape\n');
    const res = start({ LAWSUIT_API_KEY_FILE: key });
    expect(res.status, res.stderr).toBe(0);
  });
});
