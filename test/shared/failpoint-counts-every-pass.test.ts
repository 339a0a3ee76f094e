import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

// A failpoint kills at its Nth pass, counting each thing a pass does (a group commit passes once for all its
// pages): the resume tests rely on the Nth page committed being reached however timing groups the pages.
// Run in a child process (dist/, built by `npm test`), since the point's only effect is SIGKILL.

const FAILPOINT = resolve('dist/shared/failpoint.js');

function passes(spec: string, counts: number[]) {
  const script = `const { failpoint } = await import(${JSON.stringify(FAILPOINT)});
    for (const n of ${JSON.stringify(counts)}) { failpoint('sink.commit', n); process.stdout.write(n + ' '); }`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, LAWSUIT_FAILPOINTS: spec } });
}

describe('failpoint', () => {
  it('kills at the pass that reaches the count, counting every item of a pass', () => {
    const r = passes('sink.commit=6', [2, 3, 4, 1]);
    expect(r.signal).toBe('SIGKILL');
    expect(r.stdout).toBe('2 3 ');
  });

  it('does nothing before the count, nor for a point not asked for', () => {
    expect(passes('sink.commit=11', [2, 3, 4, 1])).toMatchObject({ status: 0, signal: null, stdout: '2 3 4 1 ' });
    expect(passes('other.point=1', [5])).toMatchObject({ status: 0, signal: null, stdout: '5 ' });
  });
});
