import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { doctorLines, type DoctorReport } from '../../src/pipeline/doctor.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { apiEnv, runCliAsync } from '../support/cli.js';
import { query, scratch } from '../support/pipeline.js';

// `lawsuit-etl doctor` against an upstream of each dialect (docs/dialect-and-spec-gaps.md, "The provider's dialect"): what it learns in
// at most 10 calls, printed as JSON off a terminal, remembered in the warehouse, and nothing else written.

const tmp = scratch('doctor-');
const sandboxes: Sandbox[] = [];
afterAll(async () => { for (const s of sandboxes) await s.close(); tmp.cleanup(); });

/** A sandbox of `dialect` whose key already holds a finished search's responses: something to sort. */
async function upstream(dialect: 'documented' | 'spec'): Promise<Sandbox> {
  const sb = await startSandbox({ seed: 3, courtDelayMs: 0, dialect });
  sandboxes.push(sb);
  const doc = sb.sampleDocuments(200).find((d) => d.search_type === 'cnpj' && sb.truth(d).length >= 5)!;
  const post = await fetch(`${sb.url}/requests`, { method: 'POST', headers: { 'api-key': 'sandbox-key', 'content-type': 'application/json' }, body: JSON.stringify({ search: doc }) });
  const { request_id } = (await post.json()) as { request_id: string };
  for (let status = ''; status !== 'completed';) {
    const r = await fetch(`${sb.url}/requests/${request_id}`, { headers: { 'api-key': 'sandbox-key' } });
    status = ((await r.json()) as { status: string }).status;
  }
  return sb;
}

describe('lawsuit-etl doctor', () => {
  const reports: Record<string, DoctorReport> = {};
  beforeAll(async () => {
    for (const dialect of ['documented', 'spec'] as const) {
      const sb = await upstream(dialect);
      const r = await runCliAsync(['doctor'], apiEnv(sb.url, { LAWSUIT_WAREHOUSE: join(tmp.dir, `${dialect}.duckdb`) }));
      expect(r.code, r.stderr).toBe(0);
      reports[dialect] = JSON.parse(r.stdout) as DoctorReport;
    }
  }, 120_000);

  it('learns the documented dialect: pages of 1000, orderField/orderDirection honoured, page as a string, only Limit and Remaining', () => {
    const r = reports.documented;
    expect(r.calls).toBeLessThanOrEqual(10);
    expect(r.dialect).toMatchObject({ pageSize: 1000, sortVerified: true, countsAsStrings: true, refused: [] });
    expect(r.dialect.sort?.field).toBe('orderField');
    expect(r.dialect.rateHeaders).toEqual(['x-ratelimit-limit', 'x-ratelimit-remaining']);
  });

  it('learns the spec\'s: pages of 100 (1000 refused), order_by/order honoured, the Reset header too', () => {
    const r = reports.spec;
    expect(r.calls).toBeLessThanOrEqual(10);
    expect(r.dialect).toMatchObject({ pageSize: 100, sortVerified: true, countsAsStrings: false, refused: [] });
    expect(r.dialect.sort?.field).toBe('order_by');
    expect(r.dialect.rateHeaders).toContain('x-ratelimit-reset');
  });

  it('remembers it in the warehouse and writes nothing else', async () => {
    const rows = await query<{ dialect: string; runs: number }>(join(tmp.dir, 'documented.duckdb'),
      `SELECT dialect::VARCHAR AS dialect, (SELECT count(*) FROM runs)::INTEGER AS runs FROM upstream_dialects`);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].dialect)).toEqual(reports.documented.dialect);
    expect(rows[0].runs).toBe(0);
  });

  it('on a terminal, one plain line per finding', () => {
    const lines = doctorLines(reports.documented).split('\n');
    expect(lines[0]).toMatch(/^upstream http:\/\/127\.0\.0\.1:\d+: \d+ calls$/);
    expect(lines.some((l) => /^ {2}sort orderField\/orderDirection +honoured$/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('  remembered in the warehouse for the nights to come');
    expect(lines.join('\n')).not.toContain('{');
  });
});
