import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { detectChanges, formatChanges, type ChangeReport } from '../../src/warehouse/changes.js';
import { Warehouse } from '../../src/warehouse/warehouse.js';
import { configFor, nightly, scratch } from '../support/pipeline.js';

// Three nightly runs, twenty sandbox days apart, over lawsuits whose steps keep coming: the change table must
// say exactly what moved between the snapshot of the previous run and the lawsuits as the run left them.

const T0 = new Date('2025-03-03T03:00:00Z');
const DAY = 86_400_000;
const GAP_DAYS = 20;
const tmp = scratch('changes-');
const whPath = join(tmp.dir, 'warehouse.duckdb');
let sandbox: Sandbox;

interface State { status: string | null; phase: string | null; amount: string | null; secrecy_level: string | null; steps_count: number }
const reports: Array<Omit<ChangeReport, 'fresh'>> = [];
const detected: Date[] = [];
const runIds: string[] = [];
const before: Array<Map<string, State>> = [];
const after: Array<Map<string, State>> = [];
const changes: Array<Array<{ code: string; instance: number; change: string; old_value: string | null; new_value: string | null }>> = [];
const detectedAt = (k: number) => detected[k];

/** Lawsuits (public, with steps due in each of the next two gaps) found through the sandbox's own model. */
function movingLawsuits(n: number): string[] {
  const u = sandbox.universe;
  const codes: string[] = [];
  for (let i = 0; i < u.count && codes.length < n; i++) {
    const seen = [0, 1, 2].map((k) => u.observe(i, T0.getTime() + k * GAP_DAYS * DAY, false));
    if (seen.some((o) => !o) || seen[0]!.plan.secrecy !== 0) continue;
    const steps = seen.map((o) => o!.steps.length);
    if (!(steps[0] > 0 && steps[1] > steps[0] && steps[2] > steps[1])) continue;
    codes.push(String((u.render(seen[0]!) as { code: string }).code));
  }
  return codes;
}

async function snapshot(wh: Warehouse, sql: string): Promise<Map<string, State>> {
  const rows = await wh.all<State & { code: string; instance: number }>(sql);
  return new Map(rows.map((r) => [`${r.code}#${r.instance}`, r]));
}
const CURRENT = `SELECT l.code, l.instance, l.status, l.phase, l.amount::VARCHAR AS amount, l.secrecy_level::VARCHAR AS secrecy_level,
  (SELECT count(*) FROM steps s WHERE s.code = l.code AND s.instance = l.instance)::INTEGER AS steps_count FROM lawsuits l`;
const STATE = `SELECT code, instance, status, phase, amount::VARCHAR AS amount, secrecy_level::VARCHAR AS secrecy_level, steps_count FROM lawsuit_state`;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, lawsuits: 4000, now: T0, rateLimit: 100_000 });
  const codes = movingLawsuits(10);
  expect(codes.length).toBe(10);
  const people = sandbox.sampleDocuments(6).filter((d) => ['cpf', 'cnpj'].includes(d.search_type)).slice(0, 2);
  const csv = ['search_key,search_type', ...codes.map((c) => `${c},lawsuit_cnj`), ...people.map((d) => `${d.search_key},${d.search_type}`)];
  writeFileSync(join(tmp.dir, 'documents.csv'), `${csv.join('\n')}\n`);
  const cfg = configFor(sandbox.url, tmp.dir, {
    LAWSUIT_DOCUMENTS: join(tmp.dir, 'documents.csv'), LAWSUIT_FRESHNESS_DAYS: '0', LAWSUIT_SKIP_TRANSFER: 'true', LAWSUIT_SKIP_EXPORT: 'true',
  });
  // The run itself detects the changes (src/pipeline/run.ts); the test reads the state the previous run
  // left in the published warehouse before it, and what the run recorded after it.
  for (let k = 0; k < 3; k++) {
    if (k > 0) sandbox.advanceDays(GAP_DAYS);
    if (k === 0) before.push(new Map());
    else {
      const wh = await Warehouse.open(whPath, { readOnly: true });
      try { before.push(await snapshot(wh, STATE)); } finally { await wh.close(); }
    }
    const summary = await nightly(cfg);
    expect(summary.status).toBe('ok');
    expect(summary.changes).toBeDefined();
    // what the run recorded, as its summary reports it
    reports.push(summary.changes!);
    runIds.push(summary.runId);
    const wh = await Warehouse.open(whPath, { readOnly: true });
    try {
      const [d] = await wh.all<{ detected_at: Date }>('SELECT detected_at FROM change_detections WHERE run_id = $1', [summary.runId]);
      detected.push(d.detected_at);
      after.push(await snapshot(wh, CURRENT));
      changes.push(await wh.all(`SELECT code, instance, change, old_value, new_value FROM lawsuit_changes WHERE run_id = $1`, [summary.runId]));
    } finally {
      await wh.close();
    }
  }
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  tmp.cleanup();
});

it('records every lawsuit of the first run as new, and nothing else', () => {
  expect(after[0].size).toBeGreaterThan(10);
  expect(reports[0].counts.new_lawsuit).toBe(after[0].size);
  expect(changes[0].every((c) => c.change === 'new_lawsuit')).toBe(true);
  expect(new Set(changes[0].map((c) => `${c.code}#${c.instance}`))).toEqual(new Set(after[0].keys()));
});

it('records new steps, status and phase changes in later runs, with the values held before and after', () => {
  for (const k of [1, 2]) {
    expect(reports[k].counts.new_steps).toBeGreaterThan(0);
    for (const c of changes[k]) {
      const key = `${c.code}#${c.instance}`;
      const prev = before[k].get(key);
      const now = after[k].get(key)!;
      if (c.change === 'new_lawsuit') {
        expect(prev).toBeUndefined();
        continue;
      }
      expect(prev, key).toBeDefined();
      if (c.change === 'new_steps') {
        expect(Number(c.old_value)).toBe(prev!.steps_count);
        expect(Number(c.new_value)).toBe(now.steps_count);
      } else if (['status', 'phase', 'amount', 'secrecy_level'].includes(c.change)) {
        const f = c.change as 'status' | 'phase' | 'amount' | 'secrecy_level';
        expect(c.old_value).toBe(prev![f]);
        expect(c.new_value).toBe(now[f]);
      }
    }
    // And nothing is missed: every lawsuit whose phase or steps moved has its row.
    const moved = (f: 'phase' | 'status') => [...after[k]].filter(([key, s]) => before[k].has(key) && s[f] !== null && s[f] !== before[k].get(key)![f]).map(([key]) => key).sort();
    const rows = (kind: string) => changes[k].filter((c) => c.change === kind).map((c) => `${c.code}#${c.instance}`).sort();
    expect(rows('phase')).toEqual(moved('phase'));
    expect(rows('status')).toEqual(moved('status'));
    expect(rows('new_steps')).toEqual([...after[k]].filter(([key, s]) => before[k].has(key) && s.steps_count > before[k].get(key)!.steps_count).map(([key]) => key).sort());
  }
  expect(reports[1].counts.phase + reports[2].counts.phase + reports[1].counts.status + reports[2].counts.status).toBeGreaterThan(0);
  expect(reports[2].top.length).toBeGreaterThan(0);
  // The summary lines name every kind seen and start the top list with the most telling change.
  const lines = formatChanges(reports[2]);
  expect(lines[0]).toContain(`${reports[2].counts.new_steps} new_steps`);
  expect(lines[1]).toContain(reports[2].top[0].code);
  if (reports[2].counts.phase > 0) expect(reports[2].top[0].change).toBe('phase');
});

it('keeps the status and phase history, so "when did lawsuit X reach phase Y" is a query', async () => {
  const wh = await Warehouse.open(whPath, { readOnly: true });
  try {
    const phaseChange = [...changes[1], ...changes[2]].find((c) => c.change === 'phase')!;
    expect(phaseChange).toBeDefined();
    const k = changes[1].includes(phaseChange) ? 1 : 2;
    const [when] = await wh.all<{ reached: Date }>(`SELECT min(valid_from) AS reached FROM lawsuit_status_history
      WHERE code = $1 AND instance = $2 AND phase = $3`, [phaseChange.code, phaseChange.instance, phaseChange.new_value]);
    expect(when.reached.getTime()).toBe(detectedAt(k).getTime());
    const history = await wh.all<{ run_id: string; phase: string; previous_phase: string | null }>(`SELECT run_id, phase, previous_phase
      FROM lawsuit_status_history WHERE code = $1 AND instance = $2 ORDER BY valid_from`, [phaseChange.code, phaseChange.instance]);
    expect(history[0]).toMatchObject({ run_id: runIds[0], previous_phase: null });
    expect(history).toContainEqual(expect.objectContaining({ run_id: runIds[k], phase: phaseChange.new_value, previous_phase: phaseChange.old_value }));
    // One row per change: as many rows after the first as phase or status changes recorded for the lawsuit.
    const recorded = new Set([...changes[1], ...changes[2]].filter((c) => c.code === phaseChange.code && c.instance === phaseChange.instance
      && (c.change === 'phase' || c.change === 'status')).map((c) => (changes[1].includes(c) ? 1 : 2)));
    expect(history.length).toBe(1 + recorded.size);
  } finally {
    await wh.close();
  }
});

it('detecting the same run again inserts nothing (a resumed run may call it twice)', async () => {
  const wh = await Warehouse.open(whPath);
  try {
    const [{ n: rows }] = await wh.all<{ n: number }>('SELECT count(*) AS n FROM lawsuit_changes');
    const [{ n: hist }] = await wh.all<{ n: number }>('SELECT count(*) AS n FROM lawsuit_status_history');
    const again = await detectChanges(wh, runIds[2], { now: new Date() });
    expect(again.fresh).toBe(false);
    expect(again.counts).toEqual(reports[2].counts);
    expect((await wh.all<{ n: number }>('SELECT count(*) AS n FROM lawsuit_changes'))[0].n).toBe(rows);
    expect((await wh.all<{ n: number }>('SELECT count(*) AS n FROM lawsuit_status_history'))[0].n).toBe(hist);
    const tonight = await wh.all<{ run_id: string }>('SELECT DISTINCT run_id FROM v_changes_tonight');
    expect(tonight).toEqual([{ run_id: runIds[2] }]);
  } finally {
    await wh.close();
  }
});
