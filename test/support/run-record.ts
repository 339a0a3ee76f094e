import { query } from './pipeline.js';

// What a test asserts about a finished run, read from the warehouse it recorded it in (the `runs` and
// `run_stages` tables) rather than from the summary's printed text.

export interface StageRecord { status: string; counts: Record<string, number>; error_code: string | null }
export interface RunRecord { status: string; stages: Record<string, StageRecord> }

/** The last run recorded in the warehouse at `path`: its status, and each stage's status, counts and error code. */
export async function lastRun(path: string): Promise<RunRecord> {
  const rows = await query<{ run: string; stage: string; status: string; counts: string | null; error_code: string | null }>(path, `
    SELECT r.status AS run, s.stage, s.status, s.counts::VARCHAR AS counts, s.error_code
    FROM runs r JOIN run_stages s USING (run_id)
    WHERE r.run_id = (SELECT max(run_id) FROM runs)
    ORDER BY s.position`);
  if (rows.length === 0) throw new Error(`no run with stages recorded in ${path}`);
  return {
    status: rows[0].run,
    stages: Object.fromEntries(rows.map((r) => [r.stage, { status: r.status, counts: JSON.parse(r.counts ?? '{}') as Record<string, number>, error_code: r.error_code }])),
  };
}
