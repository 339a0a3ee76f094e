import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { RunSummary } from '../pipeline/summary.js';
import { WAREHOUSE_TOTALS } from '../report/warehouse-totals.js';
import type { JobSpec } from './job-loader.js';
import { JOB_OUTCOMES, lastSuccessMs, type JobOutcome, type JobState } from './state.js';

// The scheduler's Prometheus metrics. The scheduler itself only sees jobs start and end; what happened inside
// a run (its stages, its API calls, the rate limit, what it loaded) comes from the run summary the job's
// process hands back (see child-runner.ts). A batch job's figures are those of its last run (gauges); counts
// that add up across runs are counters, so Prometheus can take their rate.

/** What a job's run ended with, as the scheduler saw it. */
export interface RunEnd {
  outcome: JobOutcome;
  /** The command's exit status; undefined when none was started (another run held the lock). */
  code?: number;
  durationMs: number;
  /** The job's state after the run (last success, failures in a row). */
  state: JobState;
  /** The run's summary, when the command wrote one. */
  summary?: RunSummary;
}

/** The metrics of a job as the scheduler sees it: its runs, their outcomes and times, its state. */
function jobFamilies(registers: Registry[]) {
  return {
    runs: new Counter({ name: 'lawsuit_etl_job_runs_total', help: 'Runs of each job by outcome: ok (exit 0), partial (finished with failures, or stopped after publishing), failed (any other end), skipped-locked (another run held the lock).', labelNames: ['job', 'outcome'], registers }),
    running: new Gauge({ name: 'lawsuit_etl_job_running', help: '1 while the job runs.', labelNames: ['job'], registers }),
    lastSuccess: new Gauge({ name: 'lawsuit_etl_job_last_success_timestamp_seconds', help: 'When the last successful run (exit 0 or 4) of the job started, in Unix seconds; absent before the first.', labelNames: ['job'], registers }),
    lastDuration: new Gauge({ name: 'lawsuit_etl_job_last_duration_seconds', help: 'How long the last run of the job took.', labelNames: ['job'], registers }),
    lastExit: new Gauge({ name: 'lawsuit_etl_job_last_exit_code', help: 'Exit code of the last run of the job (-1: it could not be started).', labelNames: ['job'], registers }),
    failuresInRow: new Gauge({ name: 'lawsuit_etl_job_consecutive_failures', help: 'Runs of the job that failed since its last success.', labelNames: ['job'], registers }),
  };
}

/** The metrics read from what a run's summary says of it: its stages, its API calls, what it loaded. */
function runFamilies(registers: Registry[]) {
  return {
    stageDuration: new Gauge({ name: 'lawsuit_etl_stage_duration_seconds', help: "How long each stage of the job's last run took.", labelNames: ['job', 'stage'], registers }),
    stageRuns: new Counter({ name: 'lawsuit_etl_stage_runs_total', help: 'Stages run, by status (ok, failed, refused, skipped, interrupted).', labelNames: ['job', 'stage', 'status'], registers }),
    stageCount: new Gauge({ name: 'lawsuit_etl_stage_count', help: "A stage's figures in the job's last run (documents listed, pages read, new steps, rows exported...), as in run_stages.counts.", labelNames: ['job', 'stage', 'count'], registers }),
    apiCalls: new Counter({ name: 'lawsuit_etl_api_calls_total', help: 'API calls by endpoint and HTTP status (network: no answer).', labelNames: ['job', 'method', 'route', 'status'], registers }),
    rateRemaining: new Gauge({ name: 'lawsuit_etl_api_rate_limit_remaining_min', help: "The lowest X-RateLimit-Remaining the provider sent during the job's last run.", labelNames: ['job'], registers }),
    rateLimit: new Gauge({ name: 'lawsuit_etl_api_rate_limit', help: "The provider's X-RateLimit-Limit (calls per window) last seen in the job's last run.", labelNames: ['job'], registers }),
    lawsuitsLoaded: new Counter({ name: 'lawsuit_etl_lawsuits_loaded_total', help: 'Lawsuits loaded (new or seen again) by the runs of the job.', labelNames: ['job'], registers }),
    failedItems: new Gauge({ name: 'lawsuit_etl_run_failed_items', help: "Documents, requests and files that failed in the job's last run.", labelNames: ['job'], registers }),
    warehouseRows: new Gauge({ name: 'lawsuit_etl_warehouse_rows', help: 'Rows in the warehouse after the last run that wrote it, by table.', labelNames: ['table'], registers }),
  };
}

export class SchedulerMetrics {
  readonly registry = new Registry();
  private readonly job: ReturnType<typeof jobFamilies>;
  private readonly run: ReturnType<typeof runFamilies>;
  /** Per job, the label sets of its last run's gauges: a stage the next run does not have must not linger. */
  private readonly lastRunSeries = new Map<string, Array<() => void>>();

  constructor(opts: { healthy: () => boolean }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.job = jobFamilies(registers);
    this.run = runFamilies(registers);
    new Gauge({
      name: 'lawsuit_etl_scheduler_healthy', help: '1 when /healthz answers 200, 0 when it answers 503.', registers,
      collect() { this.set(opts.healthy() ? 1 : 0); },
    });
  }

  /** Every job's series from the start (a counter that appears only at its first increment hides that increment from rate()). */
  jobsLoaded(jobs: readonly JobSpec[], state: Record<string, JobState>): void {
    for (const job of jobs) {
      for (const outcome of JOB_OUTCOMES) this.job.runs.inc({ job: job.name, outcome }, 0);
      this.run.lawsuitsLoaded.inc({ job: job.name }, 0);
      this.job.running.set({ job: job.name }, 0);
      this.jobState(job.name, state[job.name] ?? {});
    }
  }

  runStarted(job: string): void {
    this.job.running.set({ job }, 1);
  }

  runEnded(job: string, end: RunEnd): void {
    this.job.running.set({ job }, 0);
    this.job.runs.inc({ job, outcome: end.outcome });
    this.job.lastDuration.set({ job }, end.durationMs / 1000);
    if (end.code !== undefined) this.job.lastExit.set({ job }, end.code);
    this.jobState(job, end.state);
    if (end.summary) this.summary(job, end.summary);
  }

  private jobState(job: string, s: JobState): void {
    this.job.failuresInRow.set({ job }, s.consecutive_failures ?? 0);
    const last = lastSuccessMs(s);
    if (last !== undefined) this.job.lastSuccess.set({ job }, last / 1000);
  }

  /** A run's figures. Total over what a summary may lack: a command that wrote no warehouse, an older version. */
  private summary(job: string, s: RunSummary): void {
    for (const drop of this.lastRunSeries.get(job) ?? []) drop();
    const series: Array<() => void> = [];
    for (const st of Array.isArray(s.stages) ? s.stages : []) {
      const stage = String(st.name);
      this.run.stageRuns.inc({ job, stage, status: String(st.status) });
      if (Number.isFinite(st.ms)) {
        this.run.stageDuration.set({ job, stage }, st.ms / 1000);
        series.push(() => this.run.stageDuration.remove({ job, stage }));
      }
      for (const [count, v] of Object.entries(st.counts ?? {})) {
        if (!Number.isFinite(v)) continue;
        this.run.stageCount.set({ job, stage, count }, v);
        series.push(() => this.run.stageCount.remove({ job, stage, count }));
      }
    }
    for (const [key, n] of Object.entries(s.api?.byRouteStatus ?? {})) {
      // "POST /requests 200", "GET /transfer-file/:id network"
      const m = /^(\S+) (.+) (\S+)$/.exec(key);
      if (m && Number.isFinite(n) && n >= 0) this.run.apiCalls.inc({ job, method: m[1], route: m[2], status: m[3] }, n);
    }
    const slices = Array.isArray(s.api?.timeline) ? s.api.timeline : [];
    const remaining = slices.map((x) => x.remaining).filter((v): v is number => Number.isFinite(v));
    const limits = slices.map((x) => x.limit).filter((v): v is number => Number.isFinite(v));
    for (const [gauge, value] of [[this.run.rateRemaining, remaining.length ? Math.min(...remaining) : undefined], [this.run.rateLimit, limits.at(-1)]] as const) {
      if (value === undefined) gauge.remove({ job });
      else gauge.set({ job }, value);
    }
    if (Array.isArray(s.failures)) this.run.failedItems.set({ job }, s.failures.length);
    const w = s.warehouse;
    if (w) {
      if (Number.isFinite(w.lawsuitsThisRun) && w.lawsuitsThisRun >= 0) this.run.lawsuitsLoaded.inc({ job }, w.lawsuitsThisRun);
      for (const { field } of WAREHOUSE_TOTALS) {
        if (Number.isFinite(w[field])) this.run.warehouseRows.set({ table: field }, w[field]);
      }
    }
    this.lastRunSeries.set(job, series);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
