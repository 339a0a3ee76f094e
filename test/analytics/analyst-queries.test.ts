import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/pipeline.js';

// The analyst queries of docs/warehouse.md (its section "For analysts") and the three of the README's tour, each
// run as an analyst would: read-only, against a warehouse made by `npm start` (`lawsuit-etl run --sandbox`, the
// compiled CLI that `npm test` builds first).

const tmp = scratch('analyst-queries-');
const whPath = join(tmp.dir, 'warehouse.duckdb');

/** docs/warehouse.md from its analysts' section to the next section of the same level. */
function analystSection(): string {
  const doc = readFileSync('docs/warehouse.md', 'utf8');
  const start = doc.indexOf('## For analysts');
  expect(start, 'docs/warehouse.md has a section "## For analysts"').toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

interface Example { question: string; sql: string }

/** Every ```sql block of the document, with the last non-empty line of prose above it. */
function examples(markdown: string): Example[] {
  const out: Example[] = [];
  const re = /```sql\n([\s\S]*?)```/g;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) {
    const prose = markdown.slice(0, m.index).trimEnd().split('\n');
    out.push({ question: prose[prose.length - 1].trim(), sql: m[1].trim() });
  }
  return out;
}

beforeAll(() => {
  const env = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn',
    LAWSUIT_WAREHOUSE: whPath, LAWSUIT_EXPORT_DIR: join(tmp.dir, 'exports'),
    LAWSUIT_STAGING_DIR: join(tmp.dir, 'staging'), LAWSUIT_REPORTS_DIR: join(tmp.dir, 'reports'),
    // the sandbox's rate limit raised: the queries are the subject, not the pace (131 s of the suite at its default)
    LAWSUIT_SANDBOX_RATE_LIMIT: '100000',
  };
  const run = runCli(['run', '--sandbox'], env);
  expect(run.status, run.stderr).toBe(0);
}, 240_000);

afterAll(() => tmp.cleanup());

it('has ten example queries, each under its question', () => {
  const list = examples(analystSection());
  expect(list).toHaveLength(10);
  for (const e of list) expect(e.question, e.sql).toMatch(/[?:]$/);
});

it('the README\'s tour asks three of them, word for word', () => {
  const ten = examples(analystSection());
  const tour = examples(readFileSync('README.md', 'utf8'));
  expect(tour).toHaveLength(3);
  for (const q of tour) expect(ten, q.question).toContainEqual(q);
});

it('runs every example read-only without error, and most of them return rows', async () => {
  const list = examples(analystSection());
  const wh = await Warehouse.open(whPath, { readOnly: true });
  const answered: string[] = [];
  try {
    for (const e of list) {
      const rows = await wh.all(e.sql).catch((err: Error) => { throw new Error(`${e.question}\n${err.message}`); });
      if (rows.length > 0) answered.push(e.question);
    }
  } finally {
    await wh.close();
  }
  expect(answered.length, `answered: ${answered.join(' | ')}`).toBeGreaterThanOrEqual(8);
});
