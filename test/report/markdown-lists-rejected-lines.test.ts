import { describe, expect, it } from 'vitest';
import { renderMarkdownReport } from '../../src/report/markdown.js';
import { facts, HOSTILE, rejectedLines, summary } from './fixtures.js';

// The Markdown report lists the rejected lines of the documents list (it used to count them only): each with
// its line number, value and reason, the first of them the facts hold (facts.ts reads a bounded number), and says
// how many more rejected_inputs holds.

/** Rejected lines the facts hold of a run that rejected more. */
const SHOWN = 200;

const section = (md: string) => md.slice(md.indexOf('## Rejected lines'));
const tableRows = (md: string) => section(md).split('\n').filter((l) => /^\| \d+ \|/.test(l));

describe('the Markdown report', () => {
  it('lists every rejected line with its value and reason, one table row each', () => {
    const md = renderMarkdownReport(summary(), facts());
    const rows = tableRows(md);
    expect(rows.map((r) => Number(r.split(' | ')[0].slice(2)))).toEqual([1, 2, 3, 40, 41]);
    expect(rows[0]).toBe('| 1 | value 1\\|with pipe | reason number 1 |');
    // a carriage return or an escape sequence would break the table or the terminal showing it
    expect(rows[3]).toContain('bad\\u{0d}\\u{1b}[2Jhidden');
    expect(section(md)).toContain('5 lines of the documents list were rejected');
    expect(section(md)).not.toContain('more, see');
  });

  it('lists the lines the facts hold and says how many more rejected_inputs holds', () => {
    const f = facts({ rejected: { total: 1000, shown: rejectedLines(SHOWN) } });
    const md = renderMarkdownReport(summary(), f);
    expect(tableRows(md)).toHaveLength(SHOWN);
    expect(section(md)).toContain(`... and ${1000 - SHOWN} more, see \`rejected_inputs\` (run_id = '${summary().runId}')`);
  });

  it('without the warehouse facts, counts the rejected lines from the summary', () => {
    const md = renderMarkdownReport(summary(), undefined);
    expect(tableRows(md)).toEqual([]);
    expect(section(md)).toContain('5 lines of the documents list were rejected; see `rejected_inputs`');
  });

  it('has no rejected-lines section when nothing was rejected, and still the stages and failures', () => {
    const md = renderMarkdownReport(summary(), facts({ rejected: { total: 0, shown: [] } }));
    expect(md).not.toContain('## Rejected lines');
    expect(md).toMatch(/\| transfer \| refused \| 0\.3 \| \[API_FORBIDDEN\]/);
    expect(md).toContain('## Failures');
    expect(md).toContain(`Charts: [${summary().runId}.html](${summary().runId}.html)`);
    expect(md).not.toContain(HOSTILE.reason);
  });
});
