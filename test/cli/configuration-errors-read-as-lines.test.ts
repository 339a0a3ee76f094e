import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { CLI } from '../support/cli.js';

// What a person sees when the configuration is wrong: one line saying how many problems, then one line per
// problem. The breaks are real line breaks (they once came out as a literal `\u{0a}`), while a value quoted
// from outside keeps its own control characters escaped, so it cannot forge a line of its own.

describe('configuration errors on standard error', () => {
  it('read as one problem a line, a value from outside still escaped', () => {
    const res = spawnSync(process.execPath, [CLI, 'run'], {
      encoding: 'utf8', timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LAWSUIT_FRESHNESS_DAYS: '-3',
        LAWSUIT_DOCUMENTS: 'list.csv\nlawsuit-etl: all good', LAWSUIT_REQUESTS_URL: 'not a url',
      },
    });
    expect(res.status).toBe(2);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^lawsuit-etl: configuration has (\d+) problem\(s\):$/);
    const count = Number(/has (\d+) problem/.exec(lines[0])![1]);
    expect(lines).toHaveLength(1 + count);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}- \S/);
    expect(lines.some((l) => l.startsWith('  - LAWSUIT_FRESHNESS_DAYS="-3"'))).toBe(true);
    expect(lines.some((l) => l.startsWith('  - LAWSUIT_REQUESTS_URL="not a url"'))).toBe(true);
    // the file name's line break is the name's, not a problem's: shown escaped, inside its problem's line
    expect(lines.some((l) => l.includes('LAWSUIT_DOCUMENTS=list.csv\\u{0a}lawsuit-etl: all good'))).toBe(true);
    expect(lines.filter((l) => l.startsWith('lawsuit-etl:'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/\[ETL_CONFIG\]$/);
  });
});
