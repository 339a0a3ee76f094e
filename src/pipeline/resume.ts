import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { closeStaleRuns } from '../warehouse/ledger.js';
import { Warehouse } from '../warehouse/warehouse.js';
import { rebuildFirst } from './commands.js';
import type { Session } from './session.js';
import type { NightData, Stage } from './stage.js';

// Before a run's stages: what the runs before it left behind. Runs still marked running were killed (the run
// lock guarantees one at a time); a work copy left by an earlier run was never published, whatever its rows
// say; a rebuild that did not finish left the derived tables half made.

/** The stages to run after setting right what earlier runs left; `night.notes` gets what the operator should know. */
export async function carryOn(session: Session, stages: readonly Stage[], opts: { command: string; warehouse: string; night: NightData; log: Logger }): Promise<Stage[]> {
  const { ctx } = session;
  if (session.writes) {
    const stale = await closeStaleRuns(ctx.wh, { byRunId: ctx.runId });
    if (stale.length > 0) opts.log.warn({ runs: stale }, 'runs killed before they could finish are now recorded as interrupted');
  }
  let out = [...stages];
  if (session.resumed) {
    await reconcileUnpublished(ctx.wh, opts.warehouse, ctx.runId, opts.log);
    // A rebuild that did not finish left the derived tables half made: it is done again before anything else.
    if (opts.command !== 'rebuild' && await unfinishedRebuild(ctx.wh, ctx.runId)) {
      opts.log.warn('the work copy holds a rebuild that did not finish: it is done again first');
      out = rebuildFirst(out);
    }
  }
  if (session.recovery) (opts.night.notes ??= []).push(session.recovery);
  return out;
}

/**
 * True when the newest rebuild on this work copy did not end ok: killed (its stage row still says
 * `interrupted`), failed or stopped, whether it ran as `rebuild` or first in another command.
 */
async function unfinishedRebuild(wh: Warehouse, current: string): Promise<boolean> {
  const [last] = await wh.all<{ status: string }>(
    `SELECT status FROM run_stages WHERE stage = 'rebuild' AND run_id <> $1 ORDER BY started_at DESC LIMIT 1`, [current]);
  return last !== undefined && last.status !== 'ok';
}

/**
 * A work copy left by an earlier run means that run never published it, whatever its rows say: a run records
 * its publish as done just before the rename, and may have died or failed right there. The runs the published
 * file does not know are therefore set right: their publish, and the run, `interrupted`.
 */
async function reconcileUnpublished(wh: Warehouse, publishedPath: string, currentRun: string, log: Logger): Promise<void> {
  const known = new Set(await publishedRuns(publishedPath));
  const ids = (await wh.all<{ run_id: string }>('SELECT run_id FROM runs WHERE run_id <> $1', [currentRun])).map((r) => r.run_id).filter((id) => !known.has(id));
  if (ids.length === 0) return;
  const list = 'list_contains(from_json($1::JSON, \'["VARCHAR"]\'), run_id)';
  const fixedStages = await wh.run(`UPDATE run_stages SET status = 'interrupted', error_code = 'RUN_NOT_PUBLISHED',
      error_message = 'the run ended before its work copy was published; a later run carried it on'
    WHERE stage = 'publish' AND status = 'ok' AND ${list}`, [ids]);
  const fixedRuns = await wh.run(`UPDATE runs SET status = 'interrupted', finished_at = coalesce(finished_at, current_timestamp)
    WHERE ${list} AND run_id IN (SELECT run_id FROM run_stages WHERE error_code = 'RUN_NOT_PUBLISHED')`, [ids]);
  if (fixedStages + fixedRuns > 0) log.warn({ runs: ids.slice(0, 10), fixed_stages: fixedStages, fixed_runs: fixedRuns }, 'earlier runs that did not publish are now recorded as interrupted');
}

/** The runs the published warehouse knows; none when there is none, or it cannot be read. */
async function publishedRuns(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const pub = await Warehouse.open(path, { readOnly: true }).catch(() => undefined);
  if (!pub) return [];
  try {
    return (await pub.all<{ run_id: string }>('SELECT run_id FROM runs')).map((r) => r.run_id);
  } catch {
    return [];
  } finally {
    await pub.close();
  }
}
