import type { ApiStats } from '../api/client.js';
import type { CallSlice } from '../api/http.js';
import { printable } from '../shared/printable.js';
import { formatChanges, type ChangeRow } from '../warehouse/changes.js';
import type { RunFailure, RunStatus } from './outcome.js';
import { formatCost, type BilledUnits, type Money } from './cost.js';
import type { StageName, StageResult, StageStatus } from './stage.js';

/** A run's outcome, printed at the end, stored in runs.summary and written to the reports. Derived from its stages. */
export interface RunSummary {
  runId: string;
  command: string;
  status: RunStatus | 'dry-run';
  exitCode: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  stages: Array<{ name: StageName; status: StageStatus; ms: number; counts: Record<string, number>; error?: { code: string; message: string } }>;
  /** Warehouse totals after the run (absent when the command does not write one). */
  warehouse?: { lawsuitsThisRun: number; lawsuits: number; parties: number; lawyers: number; steps: number; responses: number };
  api: { calls: number; byStatus: Record<string, number>; byRouteStatus?: Record<string, number>; retries: number; timeline?: CallSlice[] };
  failures: RunFailure[];
  /** What changed since the previous run, per kind, and the most telling changes. */
  changes?: { counts: Record<string, number>; top: ChangeRow[] };
  exportDir?: string;
  /** What the operator should know beyond the stages: a list read as Windows-1252, a recovered work copy. */
  notes?: string[];
  /** Dry runs: what would be sent. */
  plan?: { byType: Record<string, number>; rejected: Array<{ line: number; reason: string }> };
  /** `run`: where the night's lawsuits came from (`--source`). */
  source?: 'searches' | 'trackings';
  /** `run`: what the night bought (or, dry, would buy), and in money at the operator's prices (cost.ts). */
  cost?: { units: BilledUnits; money?: Money };
}

/**
 * The lawsuits' own trackings of a night (a trackings night's second kind): made before the night's reads (the
 * trackings stage) and after them (lawsuit-trackings), paused and resumed (the trackings stage).
 */
export function lawsuitTrackingsOf(stages: ReadonlyArray<{ name: string; counts: Record<string, number> }>): { created: number; paused: number; resumed: number } {
  const c = (stage: string, k: string): number => stages.find((x) => x.name === stage)?.counts[k] ?? 0;
  return {
    created: c('trackings', 'lawsuit_trackings_created') + c('lawsuit-trackings', 'lawsuit_trackings_created'),
    paused: c('trackings', 'lawsuit_trackings_paused'), resumed: c('trackings', 'lawsuit_trackings_resumed') + c('lawsuit-trackings', 'lawsuit_trackings_resumed'),
  };
}

/**
 * A night's figures side by side, whatever its source (the reports' "Night" table): what it did with the
 * trackings, what it read of their runs, the searches it bought, and its calls. Undefined for other commands.
 */
export function nightFigures(s: RunSummary): Array<[string, string | number]> | undefined {
  if (s.command !== 'run' || s.status === 'dry-run') return undefined;
  const t = stageOf(s, 'trackings')?.counts ?? {};
  const search = stageOf(s, 'search')?.counts ?? {};
  const l = stageOf(s, 'lawsuits')?.counts ?? {};
  const lt = lawsuitTrackingsOf(s.stages);
  return [
    ['source', s.source ?? 'searches'],
    ['trackings created', n(t, 'trackings_created')], ['trackings paused', n(t, 'trackings_paused')], ['trackings resumed', n(t, 'trackings_resumed')],
    ['lawsuit trackings created', lt.created], ['lawsuit trackings paused', lt.paused], ['lawsuit trackings resumed', lt.resumed],
    ['tracking runs read', n(t, 'tracking_runs_read')], ['responses loaded from tracking runs', n(t, 'tracking_responses')],
    ['searches bought', n(search, 'submitted')],
    ['lawsuits read whole (new, moved, not yet whole, retried, their tracking maybe missed runs)',
      `${n(l, 'lawsuits_to_read')} (${n(l, 'read_new')}, ${n(l, 'read_moved')}, ${n(l, 'read_incomplete')}, ${n(l, 'read_retry')}, ${n(l, 'read_tracking')})`],
    ['moved lawsuits left to their own tracking', n(l, 'left_tracked')],
    ['lawsuit-level reads bought', n(l, 'submitted')],
    ['API calls', s.api.calls],
    ...(s.cost ? [['billed', formatCost(s.cost.units, s.cost.money)] as [string, string]] : []),
  ];
}

export function stageSummary(results: readonly StageResult[]): RunSummary['stages'] {
  return results.map((r) => ({
    name: r.name, status: r.status, ms: r.finishedAt.getTime() - r.startedAt.getTime(), counts: r.counts,
    ...(r.error ? { error: r.error } : {}),
  }));
}

export function apiSummary(s: ApiStats | undefined): RunSummary['api'] {
  return s ? { calls: s.calls, byStatus: s.byStatus, byRouteStatus: s.byRouteStatus, retries: s.retries, timeline: s.timeline } : { calls: 0, byStatus: {}, retries: 0 };
}

export function stageOf(s: Pick<RunSummary, 'stages'>, name: StageName): RunSummary['stages'][number] | undefined {
  return s.stages.find((x) => x.name === name);
}

const n = (c: Record<string, number>, k: string): number => c[k] ?? 0;

/** One stage's figures in words. */
export function describeStage(st: RunSummary['stages'][number], s: RunSummary): string {
  const c = st.counts;
  if (st.status === 'skipped' || ((st.status === 'failed' || st.status === 'refused') && Object.keys(c).length === 0)) {
    return st.error ? `${st.error.code === 'STAGE_LEFT_OUT' ? '' : `[${st.error.code}] `}${st.error.message}` : '';
  }
  // A stored summary may name a stage this version does not know (`report --run` on a newer warehouse): no words.
  const text = STAGE_WORDS[st.name]?.(c, st, s) ?? '';
  return st.error && st.status !== 'ok' ? `${text}; [${st.error.code}] ${st.error.message}` : text;
}

/** Each stage's counts in words (describeStage), by stage: one entry a stage, so that a new stage must say its own. */
const STAGE_WORDS: Record<StageName, (c: Record<string, number>, st: RunSummary['stages'][number], s: RunSummary) => string> = {
  documents: (c) => `${n(c, 'listed')} listed, ${n(c, 'valid')} valid, ${n(c, 'rejected')} rejected, ${n(c, 'duplicates')} duplicates, `
    + `${n(c, 'fresh')} fresh (skipped), ${n(c, 'to_search')} searched, ${n(c, 'resumed')} resumed`,
  search: (c) => {
    const extra = [['adopted', 'adopted after a crash'], ['resumed', 'resumed'], ['resubmitted_cancelled', 'resubmitted after cancel'],
      ['resubmitted_lost', 'resubmitted after the provider lost them'], ['not_searched', 'not searched']]
      .filter(([k]) => n(c, k) > 0).map(([k, words]) => `, ${n(c, k)} ${words}`).join('');
    return `${n(c, 'submitted')} submitted${extra}, ${n(c, 'completed')} completed, ${n(c, 'still_running')} still running, ${n(c, 'failed')} failed; `
      + `${n(c, 'pages')} pages read, ${n(c, 'polls')} polling calls${n(c, 'probes') ? ` (${n(c, 'probes')} single probes)` : ''}`
      + delivered(c)
      + `${n(c, 'load_problems') ? `; ${n(c, 'load_problems')} values kept raw only (load_problems)` : ''}`;
  },
  lawsuits: (c) => describeLawsuits(c) + delivered(c),
  trackings: (c) => `${n(c, 'trackings_created')} trackings created, ${n(c, 'trackings_paused')} paused, ${n(c, 'trackings_resumed')} resumed, `
    + `${n(c, 'trackings_kept')} kept; ${n(c, 'searches_tonight')} to search tonight (${n(c, 'searches_new')} newly tracked, ${n(c, 'searches_fallback')} fallbacks); `
    + `${n(c, 'tracking_runs_read')} tracking runs read, ${n(c, 'tracking_responses')} responses loaded in ${n(c, 'tracking_calls')} calls; `
    + `lawsuit trackings: ${n(c, 'lawsuit_trackings_created')} created, ${n(c, 'lawsuit_trackings_paused')} paused, ${n(c, 'lawsuit_trackings_resumed')} resumed, `
    + `${n(c, 'lawsuit_trackings_kept')} kept, ${n(c, 'lawsuits_read_tonight')} lawsuits read for a tracking that may have missed runs`,
  'lawsuit-trackings': (c) => `${n(c, 'lawsuit_trackings_created')} lawsuit trackings created for the lawsuits made whole tonight`
    + `${n(c, 'lawsuit_trackings_resumed') ? `, ${n(c, 'lawsuit_trackings_resumed')} resumed (a document found their lawsuit again)` : ''}`
    + `${n(c, 'lawsuit_trackings_conflicts') ? `, ${n(c, 'lawsuit_trackings_conflicts')} found made already (409)` : ''}, ${n(c, 'failed')} failed`,
  'trackings-cursor': (c) => (n(c, 'passed_over') > 0 ? `the next night's reading of the runs starts past tonight's ${n(c, 'passed_over')} own answers` : 'the next night reads on from where tonight\'s reading ended'),
  attachments: (c) => `${n(c, 'stored')} files stored (${(n(c, 'bytes_stored') / 1e6).toFixed(1)} MB), ${n(c, 'already_stored')} already stored under another attachment, `
    + `${n(c, 'not_ready')} not ready, ${n(c, 'refused')} refused, ${n(c, 'too_large')} too large, ${n(c, 'failed')} failed`
    + (n(c, 'not_ready') + n(c, 'refused') + n(c, 'failed') > 0 ? ' (asked for again on a later night)' : ''),
  transfer: (c) => `${n(c, 'listed')} listed, ${n(c, 'loaded')} loaded (${n(c, 'rows')} rows), ${n(c, 'already_loaded')} already loaded, ${n(c, 'failed')} failed`
    + (n(c, 'waiting') > 0 ? `, ${n(c, 'waiting')} waiting for a later try (an earlier passing failure)` : '')
    + (n(c, 'unknown_status') > 0 ? `, ${n(c, 'unknown_status')} left alone (a status neither the spec nor the documentation names)` : ''),
  changes: (c) => {
    const kinds = Object.entries(c).filter(([, v]) => v > 0).map(([k, v]) => `${v} ${k}`);
    return kinds.length ? kinds.join(', ') : 'none';
  },
  query: (c) => `${n(c, 'documents')} documents, ${n(c, 'answered')} answered, ${n(c, 'failed')} failed`,
  track: (c) => `${n(c, 'documents')} documents, ${n(c, 'created')} created, ${n(c, 'existing')} already tracked (${n(c, 'conflicts')} answered 409), `
    + `${n(c, 'recurrence_mismatches')} with another recurrence, ${n(c, 'failed')} failed`,
  exports: (c, _st, s) => `${n(c, 'tables')} tables, ${n(c, 'rows')} rows -> ${s.exportDir ?? 'the export folder'}`
    + `${n(c, 'withheld_lawsuits') ? ` (${n(c, 'withheld_lawsuits')} lawsuits above the export's secrecy level left out)` : ''}`,
  rebuild: (c) => `${n(c, 'items')} response items of ${n(c, 'runs')} runs replayed, ${n(c, 'lawsuits')} lawsuits, ${n(c, 'detections')} change detections again; no API call`,
  publish: (_c, st) => (st.status === 'ok' ? 'the night is published' : 'the night is not published; the next run carries on from its work copy'),
};

/** What a wave read of the intake's spool and proved by its deliveries (delivered/wave-gate.ts), when it read any. */
function delivered(c: Record<string, number>): string {
  if (!n(c, 'spool_deliveries') && !n(c, 'delivered')) return '';
  return `; ${n(c, 'spool_deliveries')} deliveries read from the spool, ${n(c, 'delivered')} requests loaded by them alone `
    + `(${n(c, 'proof_calls')} counting calls), ${n(c, 'listed_after_delivery')} listed`;
}

/** Why the lawsuit level reads a lawsuit (lawsuits/plan.ts's reasons), in the night's line and the dry plan's alike. */
const READ_REASONS = [['read_new', 'new'], ['read_incomplete', 'not yet whole'], ['read_moved', 'moved'], ['read_retry', 'unavailable, due again'],
  ['read_tracking', 'their tracking may have missed runs']] as const;

/** The lawsuit level of the night: what was read and why, what was left and why, and the levels it ended with. */
function describeLawsuits(c: Record<string, number>): string {
  const why = READ_REASONS.filter(([k]) => n(c, k) > 0).map(([k, w]) => `${n(c, k)} ${w}`).join(', ');
  const left = ([['left_backoff', 'unavailable, not due yet'], ['left_lags', 'lagging their header'], ['left_ended', 'archived or finished (LAWSUIT_DETAIL=active)'],
    ['left_tracked', 'moved, carried by their own tracking\'s runs']] as const)
    .filter(([k]) => n(c, k) > 0).map(([k, w]) => `, ${n(c, k)} ${w}`).join('');
  const carried = ([['resumed', 'resumed'], ['adopted', 'adopted after a crash']] as const)
    .filter(([k]) => n(c, k) > 0).map(([k, w]) => `, ${n(c, k)} ${w}`).join('');
  return `${n(c, 'lawsuits_to_read')} lawsuits read whole${why ? ` (${why})` : ''} in ${n(c, 'submitted') + n(c, 'resumed')} lawsuit searches `
    + `(${n(c, 'submitted')} bought tonight${carried}), `
    + `${n(c, 'failed')} failed; left: ${n(c, 'left_whole')} whole${left}; now ${n(c, 'whole')} whole, ${n(c, 'header')} header only, `
    + `${n(c, 'stale')} stale, ${n(c, 'unavailable')} unavailable${n(c, 'refused') ? ` (${n(c, 'refused')} refused tonight: secrecy)` : ''}`;
}

/** A dry run's plan: what would be sent and what it would cost. */
function formatPlan(s: RunSummary): string {
  const d = stageOf(s, 'documents')?.counts ?? {};
  const p = s.plan!;
  const types = Object.entries(p.byType).map(([t, k]) => `${k} ${t}`).join(', ') || 'none';
  const rejected = [`  rejected    ${n(d, 'rejected')} lines`, ...p.rejected.slice(0, 20).map((r) => `              line ${r.line}: ${r.reason}`)];
  const resumed = `  resumed     ${n(d, 'resumed')} requests still outstanding from an earlier run (polled and read, not submitted again)`;
  const t = stageOf(s, 'trackings');
  const billed = s.cost ? [`  billed      at least ${formatCost(s.cost.units, s.cost.money)}`] : [];
  if (s.source === 'trackings' && t) return [...trackingsPlan(t.counts, s, types), ...lawsuitsPlan(s), resumed, ...rejected, ...billed].join('\n');
  const l = stageOf(s, 'lawsuits')?.counts;
  return [
    `dry run: nothing was sent`,
    `  to search   ${n(d, 'to_search')} documents (${types}), ${n(d, 'on_demand')} of them on_demand`,
    resumed,
    `  skipped     ${n(d, 'fresh')} searched less than LAWSUIT_FRESHNESS_DAYS ago (--force searches them), ${n(d, 'duplicates')} duplicates`,
    ...lawsuitsPlan(s),
    ...rejected,
    `  cost        at least ${n(d, 'expected_calls') + (l ? n(l, 'expected_calls') : 0)} API calls (one submission each, a polling call per 100 requests, one call per response page)`,
    ...billed,
  ].join('\n');
}

/** The lawsuit level of a dry plan: the known lawsuits it would read whole and why, and what it leaves. */
function lawsuitsPlan(s: RunSummary): string[] {
  const st = stageOf(s, 'lawsuits');
  if (!st) return [];
  if (st.status === 'skipped') return [`  lawsuits    none read whole: ${st.error?.message ?? 'left out'}`];
  const c = st.counts;
  // the tracking's reason only on a trackings night that has it: a searches night never reads for it
  const why = READ_REASONS.filter(([k]) => k !== 'read_tracking' || n(c, k) > 0).map(([k, w]) => `${n(c, k)} ${w}`).join(', ');
  return [
    `  lawsuits    ${n(c, 'lawsuits_to_read')} known lawsuits to read whole (${why}) in ${n(c, 'to_read')} lawsuit searches`
      + `${n(c, 'to_resume') ? ` and ${n(c, 'to_resume')} resumed` : ''}, and every lawsuit tonight's searches find new or moved`,
    `              left: ${n(c, 'left_whole')} whole, ${n(c, 'left_backoff')} unavailable and not due, ${n(c, 'left_lags')} lagging their header, ${n(c, 'left_ended')} archived or finished`
      + (n(c, 'left_tracked') ? `, ${n(c, 'left_tracked')} moved and carried by their own tracking's runs` : ''),
  ];
}

/** A trackings night's dry plan (stages/trackings.ts): what it would change, search and cost, and whether the pause guard would stop it. */
function trackingsPlan(c: Record<string, number>, s: RunSummary, types: string): string[] {
  const after = stageOf(s, 'lawsuit-trackings')?.counts ?? {};
  const reads = stageOf(s, 'lawsuits')?.counts ?? {};
  const reconcile = n(c, 'planned_calls') + n(after, 'planned_calls');
  const cost = reconcile + n(c, 'search_calls') + n(c, 'read_calls') + n(reads, 'expected_calls');
  const guard = (refuses: number, pauses: number, trackings: number, limit: number, what: string): string => (refuses
    ? `  pause guard WOULD STOP the night: ${pauses} pauses of ${trackings} ${what}, more than a tenth (at most ${limit}); check the list, then give --allow-pause if they are meant`
    : `  pause guard ${pauses} pauses of ${trackings} ${what} (at most ${limit} without --allow-pause)`);
  return [
    `dry run: nothing was changed or bought; ${s.api.calls} ${s.api.calls === 1 ? 'call' : 'calls'} listed the key's trackings`,
    `  trackings   ${n(c, 'trackings_created')} to create, ${n(c, 'trackings_paused')} to pause, ${n(c, 'trackings_resumed')} to resume, ${n(c, 'trackings_kept')} kept as they are`,
    `              ${n(c, 'lawsuit_trackings_created') + n(after, 'lawsuit_trackings_created')} lawsuit trackings to create (${n(c, 'lawsuit_trackings_created')} of lawsuits whole now, `
      + `at least ${n(after, 'lawsuit_trackings_created')} once tonight's reads make theirs whole), ${n(c, 'lawsuit_trackings_paused')} to pause, `
      + `${n(c, 'lawsuit_trackings_resumed')} to resume, ${n(c, 'lawsuit_trackings_kept')} kept; ${n(c, 'lawsuits_read_tonight')} lawsuits read for a tracking that may have missed runs`,
    guard(n(c, 'pause_guard_refuses'), n(c, 'pause_guard_pauses'), n(c, 'pause_guard_trackings'), n(c, 'pause_guard_limit'), 'trackings'),
    guard(n(c, 'lawsuit_pause_guard_refuses'), n(c, 'lawsuit_pause_guard_pauses'), n(c, 'lawsuit_pause_guard_trackings'), n(c, 'lawsuit_pause_guard_limit'), 'lawsuit trackings'),
    `  to search   ${n(c, 'searches_tonight')} documents tonight (${types}): ${n(c, 'searches_new')} newly tracked, ${n(c, 'searches_fallback')} instead of their tracking`
      + (n(c, 'searches_fresh') ? `; ${n(c, 'searches_fresh')} more searched less than LAWSUIT_FRESHNESS_DAYS ago, not again` : ''),
    ...(s.notes ?? []).map((x) => `              ${printable(x, 500)}`),
    `  cost        at least ${cost} API calls: ${reconcile} to reconcile (the listing's pages, a call per creation, pause and resume of either kind), `
      + `${n(c, 'search_calls')} for tonight's searches, ${n(reads, 'expected_calls')} for the lawsuit-level reads, `
      + `${n(c, 'read_calls')} or more to read the trackings' runs (a call per page of their responses)`,
  ];
}

/** The human summary printed at the end of a run (stdout): a line per stage, then the totals and failures. */
export function formatSummary(s: RunSummary): string {
  if (s.status === 'dry-run' && s.plan) return formatPlan(s);
  const calls = Object.entries(s.api.byStatus).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  const lines = [`run ${s.runId} (${s.command}): ${s.status} in ${(s.durationMs / 1000).toFixed(1)} s`];
  for (const st of s.stages) lines.push(`  ${st.name.padEnd(10)} ${st.status.padEnd(12)} ${printable(describeStage(st, s), 500)}`.trimEnd());
  // The telling changes under the stage lines; new lawsuits are only counted (a first night has thousands).
  if (s.changes) lines.push(...formatChanges({ counts: s.changes.counts, top: s.changes.top.filter((c) => c.change !== 'new_lawsuit') }).slice(1));
  const w = s.warehouse;
  if (w) lines.push(`  warehouse  ${w.lawsuitsThisRun} lawsuits seen tonight; totals: ${w.lawsuits} lawsuits, ${w.parties} parties, ${w.lawyers} lawyers, ${w.steps} steps, ${w.responses} raw responses`);
  lines.push(`  api calls  ${s.api.calls} (${calls}), ${s.api.retries} retries`);
  if (s.cost) lines.push(`  billed     ${formatCost(s.cost.units, s.cost.money)}`);
  for (const note of s.notes ?? []) lines.push(`  note       ${printable(note, 500)}`);
  for (const f of s.failures.slice(0, 20)) lines.push(`  FAILED     ${f.what} ${printable(f.where, 200)}: [${printable(f.code, 60)}] ${printable(f.reason, 500)}`);
  if (s.failures.length > 20) lines.push(`  ... and ${s.failures.length - 20} more failures (see the runs and run_stages tables)`);
  return lines.join('\n');
}
