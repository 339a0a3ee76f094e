import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratch } from '../support/pipeline.js';
import { CLI } from '../support/cli.js';
import { Screen } from '../support/screen.js';

// What a person at a terminal sees of `run --sandbox`, through a real pseudo-terminal (util-linux `script`),
// replayed on a small screen model: plain log lines, bars on their own lines that no log line overwrites, the
// bars finished before the summary. Off a terminal, the same run writes JSON lines only.

const LOG_ROW = /^\[\d\d:\d\d:\d\d\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\b/;
const BAR = /(docs|reads|pages|files)\/s/;

/** The example list's first 12 lines: what the terminal shows does not grow with the night (the whole list took 55 s of the suite). */
const LINES = 12;

function env(dir: string): Record<string, string> {
  const documents = join(dir, 'documents.csv');
  writeFileSync(documents, readFileSync('config/documents.example.csv', 'utf8').split('\n').slice(0, LINES + 1).join('\n'));
  return {
    LAWSUIT_DOCUMENTS: documents,
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info',
    LAWSUIT_WAREHOUSE: join(dir, 'w.duckdb'), LAWSUIT_EXPORT_DIR: join(dir, 'exports'), LAWSUIT_STAGING_DIR: join(dir, 'staging'),
    LAWSUIT_REPORTS_DIR: join(dir, 'reports'), LAWSUIT_SANDBOX_COURT_DELAY_MS: '200', LAWSUIT_SANDBOX_FAULTS: '5xx=0.05',
    // The lawsuit level's reads: at the provider's 180 calls a minute the limiter's waiting, which is not what
    // this test looks at.
    LAWSUIT_SANDBOX_RATE_LIMIT: '100000',
  };
}

describe('the run on a terminal and off it', () => {
  it('on a TTY: plain log lines, bars that no log line overwrites, finished before the summary', () => {
    const tmp = scratch();
    try {
      const e = env(tmp.dir);
      const command = `stty cols 200 rows 50; exec env ${Object.entries(e).map(([k, v]) => `${k}='${v}'`).join(' ')} ${process.execPath} ${CLI} run --sandbox`;
      const res = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', timeout: 180_000 });
      expect(res.status, res.stdout.slice(-2000)).toBe(0);
      const screen = new Screen();
      screen.write(res.stdout);
      const rows = screen.text();
      expect(rows.some((r) => LOG_ROW.test(r)), rows.join('\n')).toBe(true);
      expect(rows.some((r) => r.startsWith('{"level"'))).toBe(false);
      for (const r of rows) {
        // a row is a log line, a bar, or the summary: never a log line written onto a bar or a bar onto a line
        if (LOG_ROW.test(r)) expect(r, r).not.toMatch(BAR);
        if (BAR.test(r)) expect(r, r).toMatch(/^(documents|lawsuits|pages|files) \d+/);
      }
      const summary = rows.findIndex((r) => /^run \S+ \(run\): ok in/.test(r));
      expect(summary).toBeGreaterThan(0);
      const bars = rows.map((r, i) => [r, i] as const).filter(([r]) => BAR.test(r));
      expect(bars.map(([r]) => r.split(' ')[0]).sort()).toEqual(['documents', 'files', 'lawsuits', 'pages', 'pages']); // the pages of each wave's sweep
      for (const [r, i] of bars) expect(i, `${r} comes before the summary`).toBeLessThan(summary);
      expect(bars.find(([r]) => r.startsWith('documents'))![0]).toMatch(new RegExp(`^documents ${LINES}/${LINES} \\[=+\\] 100%`));
    } finally {
      tmp.cleanup();
    }
  });

  it('off a TTY: JSON lines only, one object per line', () => {
    const tmp = scratch();
    try {
      const res = spawnSync(process.execPath, [CLI, 'run', '--sandbox'], { encoding: 'utf8', timeout: 180_000, env: env(tmp.dir) });
      expect(res.status, res.stderr.slice(-2000)).toBe(0);
      const lines = res.stderr.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(3);
      for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
      expect(res.stderr).not.toContain('\x1b[');
    } finally {
      tmp.cleanup();
    }
  });
});
