import { isEtlError } from '../shared/errors.js';
import { failpoint } from '../shared/failpoint.js';
import { codeOf, resolveFailure, stageStatusFor } from '../shared/failure-policy.js';
import { recordStage } from '../warehouse/ledger.js';
import type { RunContext } from './context.js';
import { nothingReached } from './outcome.js';
import type { ItemFailure, NightData, Stage, StageReport, StageResult } from './stage.js';

// Runs a command's stages in order. Before each stage it decides whether the stage may run (the run was not
// stopped, the key was not refused if the stage calls the API, the stages it needs ended ok, the
// configuration does not leave it out, the upstream was reached if it publishes); it then runs it, turns whatever
// it threw into a status through the failure policy, and records it in `run_stages` — first as `interrupted` (so
// that a run killed mid-stage leaves the truth behind), then as it ended. One stage's failure never stops the
// ones that do not need it. A stage's status says what happened: one whose every item failed is `failed`.
//
// On SIGTERM only publishing goes on: what the stopped stage committed is published within the grace period
// (cli/shutdown.ts), the rest is the next run's. A stage that calls the API gets the wait budget from its start
// (http.ts, budgetUntil; the search moves it on itself) and records its calls and those answered.

interface StageRunOptions {
  /** Record each stage in `run_stages` (not in a dry run or a read-only command). Default true. */
  record?: boolean;
  /** Called as each stage starts and ends (the progress display, logs). */
  onStage?: (name: string, phase: 'start' | 'end', result?: StageResult) => void;
  /**
   * Called with the results so far right before a stage that closes the warehouse (publish): the last moment
   * the run's own record can be written into the night it describes.
   */
  beforeClosing?: (results: readonly StageResult[], closing: StageResult) => Promise<void>;
}

export async function runStages(ctx: RunContext, stages: readonly Stage[], night: NightData, opts: StageRunOptions = {}): Promise<StageResult[]> {
  const results: StageResult[] = [];
  for (const [position, stage] of stages.entries()) {
    const result = await runOne(ctx, stage, position, night, results, opts);
    results.push(result);
  }
  return results;
}

function skipReason(ctx: RunContext, stage: Stage, done: readonly StageResult[], night: NightData): { code: string; message: string } | undefined {
  if (ctx.signal.aborted && !stage.closesWarehouse) return { code: 'RUN_INTERRUPTED', message: 'not run: the run was stopped (SIGTERM) before this stage; the next run does its work' };
  // A night stopped by SIGTERM is `interrupted`, and publishes what it has: calls our own stop cut off say
  // nothing of the upstream (a stop during the very first call was once "nothing reached the upstream" here,
  // while the run exited 4 as interrupted).
  if (stage.publishes && !ctx.signal.aborted && nothingReached(done)) {
    return { code: 'RUN_UNREACHABLE', message: 'not run: nothing reached the upstream tonight (every call unreachable or answered 5xx), so there is nothing new to publish; the work copy waits for the next run' };
  }
  const refusal = done.find((r) => r.runWide && r.status === 'refused');
  if (refusal && stage.callsApi) return { code: refusal.error?.code ?? 'API_UNAUTHORIZED', message: 'not run: the API key was refused earlier in this run' };
  const missing = stage.needs.filter((n) => done.find((r) => r.name === n)?.status !== 'ok');
  if (missing.length > 0) return { code: 'STAGE_NEEDS', message: `not run: it needs ${missing.join(', ')} to end ok` };
  const left = stage.skipReason?.(ctx, night);
  if (left) return { code: 'STAGE_LEFT_OUT', message: left };
  return undefined;
}

async function runOne(ctx: RunContext, stage: Stage, position: number, night: NightData, done: readonly StageResult[], opts: StageRunOptions): Promise<StageResult> {
  const record = opts.record ?? true;
  const startedAt = new Date();
  const skip = skipReason(ctx, stage, done, night);
  if (skip) {
    const result: StageResult = { name: stage.name, status: 'skipped', startedAt, finishedAt: startedAt, counts: {}, failures: [], error: skip };
    if (record) await save(ctx, position, result);
    return result;
  }
  opts.onStage?.(stage.name, 'start');
  if (stage.closesWarehouse) {
    const expected: StageResult = { name: stage.name, status: 'ok', startedAt, finishedAt: new Date(), counts: {}, failures: [] };
    if (record) await save(ctx, position, expected);
    await opts.beforeClosing?.(done, expected);
  } else if (record) {
    await save(ctx, position, { name: stage.name, status: 'interrupted', startedAt, finishedAt: startedAt, counts: {}, failures: [] }, false);
  }
  let report: StageReport | undefined;
  let thrown: unknown;
  const api = stage.callsApi ? ctx.api : undefined;
  const before = api?.stats();
  api?.budgetUntil(Date.now() + ctx.cfg.maxWaitMinutes * 60_000);
  try {
    report = await stage.run(ctx, night);
  } catch (e) {
    thrown = e;
  }
  api?.budgetUntil(undefined);
  ctx.endProgress?.();
  const result: StageResult = { name: stage.name, status: 'ok', startedAt, finishedAt: new Date(), counts: report?.counts ?? {}, failures: report?.failures ?? [] };
  if (api && before) {
    const after = api.stats();
    result.api = { calls: after.calls - before.calls, answered: after.answered - before.answered };
  }
  // A call cut off by SIGTERM ends a stage as stopped, not as failed.
  const cutOff = ctx.signal.aborted && (codeOf(thrown) === 'API_CLOSED' || report?.ended?.code === 'API_CLOSED');
  if (thrown !== undefined) {
    result.status = cutOff ? 'interrupted' : stageStatusFor(thrown);
    result.error = { code: codeOf(thrown), message: messageOf(thrown) };
    result.runWide = resolveFailure(thrown, { role: 'stage' }).reach === 'run';
    result.usageError = isEtlError(thrown) && thrown.usage;
    // A classified failure says what it is; only an unexpected one needs its stack to be understood.
    const known = isEtlError(thrown) && result.error.code !== 'UNEXPECTED';
    ctx.log.error({ stage: stage.name, code: result.error.code, ...(known ? {} : { err: thrown }) }, `stage ${stage.name} ${result.status}: ${result.error.message}`);
  } else if (report?.ended && !cutOff) {
    result.status = report.ended.status;
    result.error = { code: report.ended.code, message: report.ended.message };
    result.runWide = report.ended.reach === 'run';
  } else if (report?.interrupted || cutOff) {
    result.status = 'interrupted';
    result.error = { code: 'RUN_INTERRUPTED', message: 'stopped by SIGTERM; what it left undone is the next run\'s' };
  } else if (report?.finished === 0 && result.failures.length > 0) {
    result.status = 'failed';
    result.error = everyItemFailed(result.failures);
  }
  if (record && !stage.closesWarehouse) await save(ctx, position, result).catch((e) => ctx.log.error({ err: e, stage: stage.name }, 'could not record the stage'));
  failpoint(`stage.after-${stage.name}`);
  opts.onStage?.(stage.name, 'end', result);
  return result;
}

function save(ctx: RunContext, position: number, r: StageResult, ended = true): Promise<void> {
  return recordStage(ctx.wh, ctx.runId, {
    stage: r.name, position, status: r.status, startedAt: r.startedAt, finishedAt: ended ? r.finishedAt : undefined,
    counts: r.counts, failures: r.failures.length, errorCode: r.error?.code ?? null, errorMessage: r.error?.message.slice(0, 2000) ?? null,
  });
}

/** The error of a stage whose every item failed: the commonest failure's code, and how many failed. */
function everyItemFailed(failures: readonly ItemFailure[]): { code: string; message: string } {
  const byCode = new Map<string, ItemFailure[]>();
  for (const f of failures) byCode.set(f.code, [...(byCode.get(f.code) ?? []), f]);
  const [code, of] = [...byCode].sort((a, b) => b[1].length - a[1].length)[0];
  return { code, message: `every item it tried failed (${failures.length}; ${of.length} with ${code}, the first: ${of[0].reason})` };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
