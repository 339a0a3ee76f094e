import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { scratch } from '../support/pipeline.js';
import { spawnSync } from 'node:child_process';

// Issue 11: a 50 MB line crashed the run, --dry-run included (V8 out of heap, exit 134). The CLI runs here
// the way the container runs it, under the 128 MB heap, on a list with a 50 MB line between two good ones.
describe('a 50 MB line in the documents list', () => {
  const tmp = scratch();
  afterAll(() => tmp.cleanup());

  it('is rejected with its line number and length under a 128 MB heap, and the other lines are planned', () => {
    const file = join(tmp.dir, 'list.csv');
    const fd = openSync(file, 'w');
    writeSync(fd, 'search_key,label\n092.065.297-22,a\n');
    const mb = Buffer.alloc(1 << 20, 'A');
    for (let i = 0; i < 50; i++) writeSync(fd, mb);
    writeSync(fd, ',x\n11.222.333/0001-81,b\n');
    closeSync(fd);

    const res = spawnSync(process.execPath, ['--max-old-space-size=128', '--max-semi-space-size=4', CLI,
      'run', '--dry-run', '--sandbox', '--documents', file, '--warehouse', join(tmp.dir, 'w.duckdb')], {
      encoding: 'utf8', timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn' },
    });
    expect(res.status, res.stderr.slice(-2000)).toBe(0);
    expect(res.stdout).toMatch(/to search\s+2 documents \(1 cpf, 1 cnpj\)/);
    expect(res.stdout).toMatch(/rejected\s+1 lines/);
    expect(res.stdout).toContain(`line 3: line is ${(50 * 2 ** 20 + 2).toLocaleString('en-US')} bytes long, more than the 65,536 bytes a line may have`);
  });
});
