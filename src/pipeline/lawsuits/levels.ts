import type { Warehouse } from '../../warehouse/warehouse.js';
import type { LawsuitFacts, Level } from './plan.js';

// What the warehouse knows of each lawsuit's level (v_lawsuit_levels, migration 90), read for the night's plan of
// lawsuit-level reads (plan.ts). Only the lawsuits that are not whole come back one by one: a whole lawsuit is
// never read again until a header says it moved, so at a million lawsuits the plan holds the few that moved.

interface Row {
  code: string; instance: number; level: Level; status: string | null; phase: string | null;
  last_step_id: string | null; steps_count: number | null; new_tonight: boolean; read_for_header: boolean; next_read_at: Date | null;
}

interface KnownLevels {
  /** Every lawsuit that is not whole, by number and instance. */
  facts: LawsuitFacts[];
  /** Lawsuits whole as their newest header says. */
  whole: number;
}

/**
 * The lawsuits that are not whole, and those of the numbers `also` whole or not (a trackings night reads a tracked
 * lawsuit whose tracking may have missed runs); `whole` counts the others.
 */
export async function readLevels(wh: Warehouse, runId: string, also: readonly string[] = []): Promise<KnownLevels> {
  const extra = `(SELECT unnest(from_json($2::JSON, '["VARCHAR"]')))`;
  const rows = await wh.all<Row>(`
    SELECT v.code, v.instance, v.level, v.status, v.phase, v.last_step_id, v.steps_count, v.read_for_header, v.next_read_at,
           coalesce(l.first_seen_run = $1, false) AS new_tonight
    FROM v_lawsuit_levels v JOIN lawsuits l USING (code, instance)
    WHERE v.level <> 'whole' OR v.code IN ${extra}
    ORDER BY v.code, v.instance`, [runId, JSON.stringify(also)]);
  const [{ whole }] = await wh.all<{ whole: number }>(`SELECT count(*)::INTEGER AS whole FROM v_lawsuit_levels
    WHERE level = 'whole' AND code NOT IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`, [JSON.stringify(also)]);
  return {
    whole,
    facts: rows.map((r) => ({
      code: r.code, instance: r.instance, level: r.level, status: r.status, phase: r.phase, lastStepId: r.last_step_id,
      stepsCount: r.steps_count, newTonight: r.new_tonight, readForHeader: r.read_for_header, nextReadAt: r.next_read_at,
    })),
  };
}
