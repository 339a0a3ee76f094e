import type { Warehouse } from '../warehouse/warehouse.js';

// What the reports show beyond the run's summary, read from the warehouse. Each query is about one run and
// gives the same answer whenever it is asked — at the end of the run or years later, after other nights
// moved the lawsuits on — so that a report written again for an earlier run is the one written at its end:
// rejected lines and phase moves are keyed by run; the lawsuits by tribunal and phase are taken as the run's
// change detection saw them (lawsuit_status_history up to it), not as the `lawsuits` table holds them today.

/** The rejected lines a report lists; the rest are counted and left to `rejected_inputs`. */
const REJECTED_SHOWN = 200;
/** The phase moves (from -> to) a report lists, the most frequent first. */
const PHASE_MOVES_SHOWN = 15;

export interface TribunalPhaseCount { tribunal: string | null; phase: string | null; lawsuits: number }
interface PhaseMove { from: string | null; to: string | null; lawsuits: number }
export interface RejectedLine { line: number; value: string | null; reason: string }

export interface ReportFacts {
  /**
   * Every lawsuit known to the change detection this report stands on, by tribunal and by the phase it had
   * then. `asOfRun` is that detection's run: this run's own, or, when its `changes` stage did not run, the
   * last one before it; null when no detection had run yet (the counts are then empty).
   */
  lawsuits: { asOfRun: string | null; counts: TribunalPhaseCount[] };
  /** The phase changes this run recorded, grouped by (from, to), at most PHASE_MOVES_SHOWN. */
  phaseMoves: PhaseMove[];
  /** The lines of the documents list this run rejected: how many, and the first REJECTED_SHOWN by line. */
  rejected: { total: number; shown: RejectedLine[] };
}

// The detection a run's report stands on: the run's own, else the last that finished before the run started
// (one run at a time, under the run lock, so no other detection can fall inside it).
const AS_OF = `
SELECT run_id FROM change_detections
WHERE detected_at = coalesce(
  (SELECT detected_at FROM change_detections WHERE run_id = $1),
  (SELECT max(detected_at) FROM change_detections WHERE detected_at < (SELECT started_at FROM runs WHERE run_id = $1)))
ORDER BY run_id LIMIT 1`;

// A lawsuit is known from the detection that recorded it as new; its phase is the one of its last status
// history row up to the cut (a history row is written only when the phase or status moves).
const BY_TRIBUNAL_PHASE = `
WITH dets AS (SELECT run_id FROM change_detections WHERE detected_at <= (SELECT detected_at FROM change_detections WHERE run_id = $1)),
known AS (SELECT DISTINCT code, instance FROM lawsuit_changes c SEMI JOIN dets USING (run_id) WHERE c.change = 'new_lawsuit'),
phases AS (
  SELECT h.code, h.instance, arg_max(h.phase, h.valid_from) AS phase
  FROM lawsuit_status_history h SEMI JOIN dets USING (run_id)
  GROUP BY h.code, h.instance
)
SELECT l.tribunal_acronym AS tribunal, p.phase, count(*)::INTEGER AS lawsuits
FROM known k JOIN lawsuits l USING (code, instance) LEFT JOIN phases p USING (code, instance)
GROUP BY ALL ORDER BY tribunal NULLS LAST, phase NULLS LAST`;

/** The report's facts about one run, from a warehouse that holds it (the published one, or the run's work copy). */
export async function readReportFacts(wh: Warehouse, runId: string): Promise<ReportFacts> {
  const [asOf] = await wh.all<{ run_id: string }>(AS_OF, [runId]);
  const counts = asOf ? await wh.all<TribunalPhaseCount>(BY_TRIBUNAL_PHASE, [asOf.run_id]) : [];
  const phaseMoves = await wh.all<PhaseMove>(`SELECT old_value AS "from", new_value AS "to", count(*)::INTEGER AS lawsuits
    FROM lawsuit_changes WHERE run_id = $1 AND change = 'phase'
    GROUP BY ALL ORDER BY lawsuits DESC, "from" NULLS LAST, "to" NULLS LAST LIMIT $2`, [runId, PHASE_MOVES_SHOWN]);
  const [total] = await wh.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM rejected_inputs WHERE run_id = $1', [runId]);
  const shown = await wh.all<RejectedLine>('SELECT line, value, reason FROM rejected_inputs WHERE run_id = $1 ORDER BY line LIMIT $2',
    [runId, REJECTED_SHOWN]);
  return { lawsuits: { asOfRun: asOf?.run_id ?? null, counts }, phaseMoves, rejected: { total: total.n, shown } };
}
